"""Issue 22, finding 5: the offline queue lost rounds (any answer, even 429, 503 or a CSRF 403,
deleted a kept round) and a reload without a connection showed the browser's error page.

In Chromium at 360 px: a round answered 429 or 503 stays on the phone and is sent after the
Retry-After; a cut connection keeps it and it is sent with back-off; a stale CSRF token is
refreshed and the round sent again; a round the server refuses for good is shown with its
refusal and its figures kept; with the service worker the table page reloads offline with its
waiting rounds listed, and sends them on reconnect."""

import json

import pytest

from games.models import Submission
from tests.games.factories import named_game
from tests.site.conftest import TIMEOUT_MS
from tests.site.demo import side_entry_url
from tests.site.test_browser_table_entry import (
    PHONE_360,
    entered_rounds,
    fill_round,
    save,
    scan,
    wait_for_scores,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def new_phone(chromium, live_server, service_workers="block"):
    context = chromium.new_context(viewport=PHONE_360, is_mobile=True, has_touch=True,
                                   base_url=live_server.url, service_workers=service_workers)
    context.set_default_timeout(TIMEOUT_MS)
    return context


@pytest.fixture
def phone(chromium, live_server):
    context = new_phone(chromium, live_server)
    yield context
    context.close()


def go_offline(context, page) -> None:
    """Cut the connection and wait until the page knows it: the browser tells a page it is
    offline a moment after the context is, and a round saved before that goes to the network
    (where a service worker's requests are not cut at all)."""
    context.set_offline(True)
    page.wait_for_function("() => navigator.onLine === false")


def kept(page) -> list[dict]:
    return json.loads(page.evaluate("localStorage.getItem('hf-entry-queue') || '[]'"))


def wait_until_sent(page) -> None:
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('hf-entry-queue') || '[]').length === 0",
        timeout=TIMEOUT_MS)
    page.get_by_text("Round 1 is saved").first.wait_for()


@pytest.mark.parametrize("status", [429, 503])
def test_a_busy_answer_keeps_the_round_and_it_is_sent_after_retry_after(phone, status):
    game = named_game()
    page = phone.new_page()
    page.goto(side_entry_url(game, 0))
    answered = []

    def busy_once(route):
        if not answered:
            answered.append(status)
            route.fulfill(status=status, headers={"Retry-After": "2"},
                          content_type="text/html", body="<h1>Busy</h1>")
        else:
            answered.append("sent")
            route.continue_()

    page.route("**/sheet/", busy_once)
    fill_round(page)
    wait_for_scores(page, "3855 615")
    save(page, "waiting to send")
    assert "Round 1 is waiting to send: the site is busy" in page.inner_text("#queue-status")
    assert [item["round"] for item in kept(page)] == ["1"]
    assert not Submission.objects.exists()
    scan(page)
    wait_until_sent(page)
    assert answered == [status, "sent"]
    assert entered_rounds(game) == {1: 555}


def test_a_cut_connection_keeps_the_round_and_it_is_sent_with_back_off(phone):
    game = named_game()
    page = phone.new_page()
    page.goto(side_entry_url(game, 0))
    tries = []

    def cut(route):
        tries.append(1)
        route.abort("internetdisconnected")

    page.route("**/sheet/", cut)
    fill_round(page)
    wait_for_scores(page, "3855 615")
    save(page, "waiting to send")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('hf-entry-queue'))[0].attempts >= 1")
    assert [item["round"] for item in kept(page)] == ["1"]
    page.unroute("**/sheet/")
    wait_until_sent(page)
    assert entered_rounds(game) == {1: 555}
    assert len(tries) >= 2  # the save, then at least one retry before the connection came back


def test_a_stale_csrf_token_is_refreshed_and_the_round_sent_again(phone):
    game = named_game()
    page = phone.new_page()
    page.goto(side_entry_url(game, 0))
    statuses = []
    page.on("response", lambda r: statuses.append(r.status) if r.url.endswith("/sheet/") else None)
    fill_round(page)
    wait_for_scores(page, "3855 615")
    phone.clear_cookies()  # the CSRF cookie is gone: the form's token no longer matches
    save(page, "Round 1 is saved")
    assert statuses[0] == 403 and 302 in statuses[1:]
    assert entered_rounds(game) == {1: 555}
    assert kept(page) == []


def test_a_round_refused_for_good_is_shown_with_its_figures_kept(phone):
    game = named_game()
    page = phone.new_page()
    page.goto(side_entry_url(game, 0))
    fill_round(page, points=557)  # not a multiple of 5: the server refuses it
    go_offline(phone, page)
    save(page, "waiting to send")
    phone.set_offline(False)
    refused = page.locator("#queue-status .refused")
    refused.wait_for()
    text = refused.inner_text()
    assert text.startswith("Round 1 was not saved:") and "multiple of 5" in text
    assert "figures are kept" in text
    assert not Submission.objects.exists()
    assert kept(page)[0]["state"] == "refused"
    scan(page)
    page.reload()  # the refusal stays with the round until it is saved or discarded
    page.get_by_role("button", name="Open round 1 again").click()
    assert page.input_value("input[name=side0_table_points]") == "557"
    assert page.input_value("input[name=side1_held_points]") == "205"
    assert page.is_checked("input[name=side0_went_out]")
    page.fill("input[name=side0_table_points]", "555")
    save(page, "Round 1 is saved")
    assert entered_rounds(game) == {1: 555}
    assert kept(page) == []


def test_the_table_page_reloads_offline_and_sends_its_rounds_on_reconnect(chromium, live_server):
    game = named_game()
    context = new_phone(chromium, live_server, service_workers="allow")
    try:
        page = context.new_page()
        page.goto(side_entry_url(game, 0))
        page.wait_for_function("() => navigator.serviceWorker.controller !== null"
                               " || caches.has('hf-table-pages-v1')")
        page.wait_for_function(
            "() => caches.open('hf-table-pages-v1').then(c => c.keys()).then(k => k.length > 0)")
        fill_round(page)
        wait_for_scores(page, "3855 615")
        go_offline(context, page)
        save(page, "waiting to send")
        page.reload()
        page.wait_for_function("() => navigator.onLine === false")
        assert page.get_by_role("heading", name="Score sheet").is_visible()
        assert "Round 1 is waiting to send" in page.inner_text("#queue-status")
        assert page.locator("select[name=round]").input_value() == "2"
        assert not Submission.objects.exists()
        context.set_offline(False)
        wait_until_sent(page)
        assert entered_rounds(game) == {1: 555}
    finally:
        context.close()

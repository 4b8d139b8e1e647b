"""An open event page follows its standings in a real browser: polled every second with the last
ETag, answered 304 while nothing changed, and showing a confirmed result once its standings are
recomputed, without a reload. How fast it shows is a benchmark's figure (make bench-load: "open
pages show a result"), not this test's: it waits as long as a busy machine needs."""

import time

import pytest

from analytics.standings import services as standings_services
from league.models import Event
from tests.analytics.factories import confirm, make_game
from tests.analytics.test_pages import build_event
from tests.site.conftest import TIMEOUT_MS
from tests.waiting import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_open_event_page_shows_a_new_result_without_a_reload(phone):
    # The fragment prints the minute it was drawn (a new minute is a new version): start well
    # inside a minute, so that the polls below see only the change the test makes.
    while time.localtime().tm_sec >= 48:
        time.sleep(0.5)
    event, players = build_event(1, status=Event.Status.RUNNING)
    answers: list[int] = []
    phone.on("response", lambda r: answers.append(r.status) if "/standings/" in r.url else None)
    phone.goto(f"/events/{event.slug}/")
    table = phone.locator("[data-refresh-url]")
    before = table.inner_text()
    wait_for(lambda: phone.wait_for_timeout(200) or len(answers) >= 3, what="three polls")
    # the first poll learns the fragment's ETag; after it, nothing changed and nothing was sent
    assert len(answers) >= 2 and set(answers[1:]) == {304}
    confirm(make_game(event=event, players=players, rotation_number=2), [[900, 0], [100, 0]])
    standings_services.event_recompute(event_id=event.pk)
    phone.wait_for_function(
        "(before) => document.querySelector('[data-refresh-url]').innerText !== before",
        arg=before,
        timeout=TIMEOUT_MS,
    )
    assert answers[-1] == 200

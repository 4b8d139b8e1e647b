"""A director settles a dispute by the move log in a real browser: the dispute view shows what
the log says beside each figure (on a 360 px phone too, nothing wider than the screen), one
click after an "are you sure?" makes the log's figures the result, and History says why."""

import pytest
from django.urls import reverse

from tests.games.test_dispute_by_log import director_of, disputed_with_log, log_report
from tests.site.browser_pages import OVERFLOW, SMALL_PHONE
from tests.site.conftest import TIMEOUT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_settles_a_dispute_as_the_log_says(chromium, live_server):
    game = disputed_with_log(typo_round=3)
    director = director_of(game)
    logged = log_report(game)[2]["sides"][0]["table_points"]
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url,
                                   is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        log_in(page, director.username, "pass-word-123")
        page.goto(reverse("director-result", args=[game.pk]))
        round3 = page.locator('table.comparison[data-round="3"]')
        differing = round3.locator("tr.differs", has_text="Points on the table")
        assert differing.locator("td").all_inner_texts() == [
            "Points on the table", str(logged), str(logged + 5), str(logged)]
        assert round3.get_by_role("columnheader", name="The move log says").is_visible()
        assert "agrees with version 1" in page.locator(".log-verdict").inner_text()
        assert page.evaluate(OVERFLOW) <= 0  # the log's column fits a 360 px screen
        assert page.get_by_role("heading", name="The story of the game").is_visible()

        questions = []
        page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
        page.get_by_role("button", name="Settle as the move log says (version 1)").click()
        page.wait_for_selector("text=Settled as the move log says: version 1")
        assert questions and "as the move log says" in questions[0]
        assert page.locator(".dispute").count() == 0  # no dispute any more
        assert "Confirmed" in page.locator("main").inner_text()

        page.goto(reverse("director-event-history", args=[game.table.rotation.event.slug]))
        line = page.locator("main li, main tr", has_text="Decided the dispute").first
        assert "(as the move log says)" in line.inner_text()
    finally:
        context.close()

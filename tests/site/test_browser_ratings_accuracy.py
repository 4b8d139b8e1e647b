"""Issue 46 in a real browser at 360 px (axe-clean): a director checks how well the club's
ratings predict (a job with its progress) and the page shows the calibration chart and every
method compared."""

import pytest

from analytics.ratings.backtest.candidates import CANDIDATES
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, MembershipFactory, PlayerFactory
from tests.site.browser_pages import SMALL_PHONE
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pass-word-123"  # tests/factories.UserFactory's


@pytest.fixture
def club():
    club = ClubFactory(name="Maple Card Club")
    players = [PlayerFactory(club=club, name=n) for n in ("Ann", "Ben", "Cat", "Dan")]
    for night in range(3):
        event = EventFactory(club=club, date=f"2026-0{night + 1}-05")
        for rotation in (1, 2):
            game = make_game(event=event, players=players, rotation_number=rotation)
            confirm(game, [[1500 + 100 * rotation, 1200 + 150 * night]] * 4)
    return club


def test_a_director_checks_the_ratings_and_reads_the_chart_on_a_phone(chromium, live_server, club):
    director = MembershipFactory(club=club, role="director").user
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url, is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        log_in(page, director.username, PASSWORD)
        page.goto(f"/clubs/{club.slug}/ratings/how-well-they-predict/")
        assert "have not been checked yet" in page.inner_text("main")
        page.get_by_role("button", name="Check again with the latest games").click()
        page.wait_for_selector(".plotly-graph-div .main-svg", timeout=TIMEOUT_MS)
        text = page.inner_text("main")
        rows = page.locator("tbody tr").count()
        problems = axe_problems(page, "ratings accuracy") + fit_problems(page, "ratings accuracy")
    finally:
        context.close()
    assert "the side our ratings favoured won" in text and "ours" in text
    assert rows == len(CANDIDATES)
    assert problems == []

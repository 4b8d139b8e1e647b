"""The season what-if in a real browser: the page answers at once with a progress bar that
advances while the job re-scores the games beside the web server (the embedded mode's runner),
then shows the re-scored standings; axe-core and a 360 px phone."""

import time

import pytest

from analytics import whatif
from jobs.models import Job
from tests.analytics.test_pages import build_event
from tests.factories import MembershipFactory, SeasonFactory, UserFactory
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems
from tests.site.test_browser_table_entry import PHONE_360

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(chromium, live_server):
    context = chromium.new_context(
        viewport=PHONE_360, is_mobile=True, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


@pytest.fixture
def slow_season(settings, monkeypatch):
    """Five games, re-scored one per part, each part taking a second, as a long season would."""
    settings.JOBS_RUNNER = "thread"
    settings.WHATIF_PART_GAMES = 1
    rescore = whatif.whatif_rescore_games

    def slow(**kwargs):
        time.sleep(1.0)
        return rescore(**kwargs)

    monkeypatch.setattr(whatif, "whatif_rescore_games", slow)
    season = SeasonFactory()
    build_event(5, club=season.league.club, season=season, scoring="total_points")
    user = UserFactory(username="wi-director")
    MembershipFactory(club=season.league.club, user=user, role="director")
    return season


def test_the_season_what_if_answers_at_once_and_finishes_with_its_progress_bar(phone, slow_season):
    log_in(phone, "wi-director", "pass-word-123")
    started = time.monotonic()
    phone.goto(
        f"/seasons/{slow_season.pk}/what-if/?preset=classic&overrides=%7B%22going_out_bonus%22%3A0%7D"
    )
    assert time.monotonic() - started < 3  # the page did not wait for the 5 s of work
    assert phone.get_by_role("heading", name="Re-scoring the season's games").is_visible()
    # part way: the bar has moved and says how far (each of the 5 parts takes a second)
    phone.wait_for_function(
        "() => { const b = document.querySelector('.job-progress progress');"
        " const w = document.querySelector('[data-job-words]');"
        " return b && b.value > 0 && b.value < 100 && w && / of 5 games$/.test(w.textContent); }"
    )
    assert axe_problems(phone, "what-if progress") == []
    phone.get_by_role("heading", name="Re-scored").wait_for()
    assert "5 re-scored from score-sheet parts" in phone.content()
    assert phone.locator(".job-progress").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_problems(phone, "what-if result") == []
    # asked again: the kept result, no second job
    phone.reload()
    assert phone.get_by_role("heading", name="Re-scored").is_visible()
    assert Job.objects.count() == 1

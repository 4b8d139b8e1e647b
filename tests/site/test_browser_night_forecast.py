"""Issue 47 in a real browser: the wall says when the night will end, on a 360 px phone and
axe-clean, and the forecast moves on the next poll when a table enters a round; on a projector it
takes one line, so a 32-player night's standings still fit in large type."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from league.models import Event, Rotation
from tests.games.test_round_times import enter_round
from tests.site.conftest import TIMEOUT_MS
from tests.site.factories import games_of, seated_event
from tests.site.test_browser_axe import axe_problems, fit_problems
from tests.site.test_browser_wall import ROWS_ON_SCREEN, big_night  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 780}


@pytest.fixture
def night(client):
    """Two tables 100 minutes into their game, table 1 with round 1 entered 70 minutes ago."""
    event = seated_event(players=8, rotations=1, name="Tuesday league night", planned_rotations=2)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    Rotation.objects.filter(event=event).update(started_at=timezone.now() - timedelta(minutes=100))
    first, _ = games_of(event)
    enter_round(client, first, 0, 1, 70, "r1")
    return event, first


def test_the_wall_shows_when_the_night_ends_and_it_moves_when_a_round_is_entered(
        chromium, live_server, night, client):
    event, first = night
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        from playwright.sync_api import expect

        page.goto(f"/events/{event.slug}/wall/")
        forecast = page.get_by_role("region", name="When the night ends")
        expect(forecast).to_contain_text("Last table about")
        tables = forecast.locator(".night-forecast-tables")
        before = re.search(r"Table 1 about \d\d:\d\d", tables.inner_text()).group(0)
        problems = axe_problems(page, "wall with forecast") + fit_problems(page, "wall with forecast")
        enter_round(client, first, 0, 2, 30, "r2")
        expect(tables).not_to_contain_text(before, timeout=TIMEOUT_MS)
        expect(tables).to_contain_text("Table 1 about")
        expect(forecast).to_contain_text("Counting 1 more rotation after this one.")
    finally:
        context.close()
    assert problems == []


def test_with_the_forecast_shown_every_standings_row_of_a_32_player_night_fits_a_720p_projector(
        chromium, live_server, big_night):  # noqa: F811  (the fixture)
    Rotation.objects.filter(event=big_night).update(started_at=timezone.now() - timedelta(minutes=100))
    Event.objects.filter(pk=big_night.pk).update(planned_rotations=3)  # two more: the forecast shows
    context = chromium.new_context(viewport={"width": 1280, "height": 720}, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(f"/events/{big_night.slug}/wall/")
        page.get_by_text("Counting 2 more rotations after this one.").wait_for()
        page.wait_for_function(
            "() => { const r = document.querySelectorAll('.wall-standings-table tbody tr');"
            " return r.length && r[r.length - 1].getBoundingClientRect().bottom <= innerHeight; }")
        seen = page.evaluate(ROWS_ON_SCREEN)
        row_px = float(page.locator(".wall-standings-table tbody th").first.evaluate(
            "el => getComputedStyle(el).fontSize").removesuffix("px"))
    finally:
        context.close()
    assert seen == {"rows": 32, "off": []}
    assert row_px >= 16

"""Issue 47 in a real browser at 360 px (axe-clean): a table's clock counts down on its page
and on the wall; extra time given on the director's room view shows on the table's page and is
in History; a table past its time is flagged slow in the pace panel."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from league.models import Event, Rotation
from tests.factories import MembershipFactory
from tests.games.factories import side_link
from tests.games.test_round_times import enter_round
from tests.site.browser_pages import SMALL_PHONE
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.factories import games_of, seated_event
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pass-word-123"  # tests/factories.UserFactory's
# The clock's words change once a minute: the wait for the change is bounded by more than one.
CHANGE_MS = max(TIMEOUT_MS, 90_000)
CHANGED = "([el, before]) => el.textContent.trim() !== before"


@pytest.fixture
def night():
    """Rotation 1 of a running night, 30 minutes a round, begun 31 minutes ago: both tables
    are past their time."""
    event = seated_event(players=8, rotations=1, name="Clock night", round_minutes=30,
                         status=Rotation.Status.STARTED)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    Rotation.objects.filter(event=event).update(started_at=timezone.now() - timedelta(minutes=31))
    director = MembershipFactory(club=event.club, role="director").user
    return event, director, games_of(event)


def _open(chromium, live_server, url: str):
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url, is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return context, page


def _counts_down(page, clock) -> tuple[str, str]:
    """The clock's words now and once they change (the script's own counting, no reload)."""
    before = clock.inner_text()
    page.wait_for_function(CHANGED, arg=[clock.element_handle(), before], timeout=CHANGE_MS)
    return before, clock.inner_text()


def _soon_next_minute(event: Event) -> None:
    """Start the rotation so the clocks' minute turns about 4 seconds from now."""
    started = timezone.now() - timedelta(minutes=12, seconds=56)
    Rotation.objects.filter(event=event).update(started_at=started)


def test_a_clock_counts_down_on_the_table_page(chromium, live_server, night):
    event, _, games = night
    _soon_next_minute(event)
    context, page = _open(chromium, live_server, f"/play/{side_link(games[0], 0)}/")
    try:
        clock = page.locator('.table-clock [role="timer"]')
        before, after = _counts_down(page, clock)
        problems = axe_problems(page, "table page") + fit_problems(page, "table page")
    finally:
        context.close()
    assert before.startswith("Round 1: ") and after.startswith("Round 1: ")
    assert int(after.split()[2]) == int(before.split()[2]) - 1 and "minutes left" in after
    assert problems == []


def test_a_clock_counts_down_on_the_wall(chromium, live_server, night):
    event, _, _ = night
    _soon_next_minute(event)
    context, page = _open(chromium, live_server, f"/events/{event.slug}/wall/")
    try:
        clocks = page.locator('#wall [role="timer"]')
        assert clocks.count() == 2
        before, after = _counts_down(page, clocks.first)
        problems = axe_problems(page, "wall") + fit_problems(page, "wall")
    finally:
        context.close()
    assert int(after.split()[2]) == int(before.split()[2]) - 1
    assert problems == []


def test_extra_time_given_on_the_room_view_shows_on_the_table_page_and_in_history(
        chromium, live_server, night):
    event, director, games = night
    context, page = _open(chromium, live_server, "/")
    try:
        log_in(page, director.username, PASSWORD)
        page.goto(f"/director/events/{event.slug}/")
        table_one = page.locator("#pace-table-1")
        table_one.get_by_text("slow", exact=True).wait_for()
        assert re.search(r"Round 1: \d+ minutes? over", table_one.inner_text())
        problems = axe_problems(page, "room view") + fit_problems(page, "room view")
        page.get_by_role("button", name="Give table 1 5 more minutes").click()
        page.locator("#pace").get_by_text("Gave table 1 5 more minutes.").wait_for()
        assert "5 more minutes given by the director" in page.locator("#pace-table-1").inner_text()
        page.goto(f"/play/{side_link(games[0], 0)}/")
        table_clock = page.locator(".table-clock").inner_text()
        problems += axe_problems(page, "table page") + fit_problems(page, "table page")
        page.goto(f"/director/events/{event.slug}/history/")
        history = page.locator("main").inner_text()
    finally:
        context.close()
    assert re.search(r"Round 1: \d minutes? left", table_clock)
    assert "5 more minutes given by the director." in table_clock
    assert "Gave table 1 (rotation 1) 5 more minutes for round 1." in history
    assert problems == []


def test_a_table_past_its_time_is_flagged_slow_and_comes_first(chromium, live_server, night,
                                                               client):
    event, director, games = night
    enter_round(client, games[1], 0, 1, 5, "b1")  # table 2: round 1 took 26 minutes
    context, page = _open(chromium, live_server, "/")
    try:
        log_in(page, director.username, PASSWORD)
        page.goto(f"/director/events/{event.slug}/pace/")
        page.get_by_text("1 slow table.").wait_for()
        rows = page.locator(".pace-table").all_inner_texts()
        problems = axe_problems(page, "pace page") + fit_problems(page, "pace page")
    finally:
        context.close()
    assert rows[0].startswith("slow")
    assert re.search(r"^slow\s+Table 1: round 1 began 3\d minutes ago; the room averages 26; "
                     r"\d+ minutes? over\.", rows[0])
    assert "Table 2: round 2 began 5 minutes ago; the room averages 26." in rows[1]
    assert "slow" not in rows[1]
    assert problems == []

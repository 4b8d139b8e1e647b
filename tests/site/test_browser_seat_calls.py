"""Issue 47's seat calls in a real browser at 360 px: a player's own page, open on their phone,
shows where to sit once the director starts the rotation, without a reload (its fragment is
polled every second: measured here), and so does the wall; axe-core finds nothing and nothing
is wider than the screen."""

import statistics
import time

import pytest
from playwright.sync_api import expect

from league.services.rotations import rotation_generate, rotation_start
from league.time_zones import club_today
from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tests.league.factories import running_event
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems, fit_problems
from tests.site.test_browser_table_entry import PHONE_360

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz", "Ed Fox", "Fay Gil", "Gus Ho", "Hal Ivy"]
ARRIVES_WITHIN_S = 10  # the call is due within about a second; the bound is for a busy machine


@pytest.fixture
def night():
    event, _ = running_event(players=0, name="Tuesday night")
    event.date = club_today(event.club)
    event.save(update_fields=["date"])
    players = [PlayerFactory(club=event.club, name=n) for n in NAMES]
    for player in players:
        event.registrations.create(player=player, checked_in=True)
    players[0].user = UserFactory(username="ann")
    players[0].save(update_fields=["user"])
    director = MembershipFactory(club=event.club, role="director").user
    return event, players, rotation_generate(event=event, by=director), director


@pytest.fixture
def phone_context(chromium, live_server):
    context = chromium.new_context(viewport=PHONE_360, is_mobile=True, has_touch=True,
                                   base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    yield context
    context.close()


def test_a_players_open_page_shows_the_seat_call_within_seconds_of_the_start(phone_context, night):
    event, players, rotation, director = night
    page = phone_context.new_page()
    polls: list[float] = []
    page.on("request", lambda r: polls.append(time.monotonic()) if "/me/seat-calls/" in r.url else None)
    log_in(page, "ann", "pass-word-123")
    page.goto("/me/")
    calls = page.locator("#my-seat-calls")
    expect(calls).to_contain_text("When the director starts a rotation you play in tonight")
    deadline = time.monotonic() + 60
    while len(polls) < 4 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    gaps = [b - a for a, b in zip(polls, polls[1:], strict=False)]
    assert len(gaps) >= 3 and min(gaps) >= 0.9 and statistics.median(gaps) < 2.5, gaps  # every second

    started = time.monotonic()
    rotation_start(rotation=rotation, by=director)
    expect(calls).to_contain_text("Rotation 1: table", timeout=ARRIVES_WITHIN_S * 1000)
    arrived = time.monotonic() - started
    seat = rotation.seats.select_related("table").get(player=players[0])
    expect(calls).to_contain_text(f"Rotation 1: table {seat.table.number}, seat {seat.seat_number + 1}, partner ")
    assert arrived < ARRIVES_WITHIN_S, f"the seat call took {arrived:.1f} s"
    assert axe_problems(page, "my page with a seat call") == []
    assert fit_problems(page, "my page with a seat call") == []

    wall = phone_context.new_page()
    wall.goto(f"/events/{event.slug}/wall/")
    expect(wall.locator(".wall-seat-calls")).to_contain_text("Rotation 1: where to sit")
    expect(wall.locator(".wall-seat-call-list li")).to_have_count(8)
    assert axe_problems(wall, "wall with seat calls") == [] and fit_problems(wall, "wall with seat calls") == []

"""The director's seating wishes and prepared seatings on a 360 px phone: a wish added by name,
the seatings prepared from who is coming, "Use this plan" drafting rotation 1 with the wish
listed as kept and the checker's verdict; no serious axe-core violation, nothing too wide."""

import pytest

from league.models import Attendance, Event
from tests.factories import EventFactory, MembershipFactory, PlayerFactory
from tests.site.browser_pages import SMALL_PHONE
from tests.site.conftest import log_in
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_wishes_and_prepared_seatings_fit_a_phone_and_use_a_plan(chromium, live_server):
    membership = MembershipFactory(user__username="plans-director")
    club = membership.club
    event = EventFactory(club=club, status=Event.Status.REGISTRATION, planned_rotations=2)
    players = [PlayerFactory(club=club, name=f"Maximiliana Coming-Player {n}") for n in range(1, 10)]
    for player in players:
        Attendance.objects.create(event=event, player=player, answer=Attendance.Answer.YES)
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url, is_mobile=True)
    page = context.new_page()
    log_in(page, "plans-director", "pass-word-123")
    page.goto(f"/director/events/{event.slug}/wishes/")
    page.locator("#id_kind").select_option(label="Must not meet at a table")
    page.locator("#id_player").select_option(label=players[0].name)
    page.locator("#id_other").select_option(label=players[1].name)
    page.get_by_role("button", name="Add the wish").click()
    page.wait_for_load_state()
    assert page.get_by_text(f"{players[0].name} and {players[1].name} must not meet").is_visible()
    problems = axe_problems(page, "wishes") + fit_problems(page, "wishes")
    page.goto(f"/director/events/{event.slug}/plans/")
    page.get_by_role("button", name="Prepare the seatings").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name="9 players (as expected)").is_visible()
    problems += axe_problems(page, "plans") + fit_problems(page, "plans")
    page.get_by_role("button", name="Use this plan (8 players)").click()
    page.wait_for_load_state()
    assert page.locator("#rotation-1").get_by_text("must not meet at a table: kept.").is_visible()
    assert page.locator("#rotation-1").get_by_text("Seating checker:").is_visible()
    context.close()
    assert problems == []

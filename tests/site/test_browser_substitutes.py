"""A director seats a substitute from the event's page on a 360 px phone: the seat then reads
"played by X for Y"; the event page and the League settings page pass axe-core and fit."""

import pytest

from league import services
from league.models import Event, Registration
from tests.factories import EventFactory, MembershipFactory, PlayerFactory, SeasonFactory
from tests.site.browser_pages import SMALL_PHONE
from tests.site.conftest import log_in
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _night():
    membership = MembershipFactory(user__username="substitutes-director")
    club = membership.club
    season = SeasonFactory(league__club=club, league__name="Tuesday League")
    event = EventFactory(club=club, season=season, kind=Event.Kind.LEAGUE_NIGHT,
                         status=Event.Status.RUNNING, planned_rotations=2)
    for name in ("Annabel Longfellow-Whitcombe", "Bea", "Cal", "Dee"):
        Registration.objects.create(event=event, player=PlayerFactory(club=club, name=name),
                                    checked_in=True)
    services.rotation_generate(event=event)
    return event


def test_a_director_seats_a_substitute_on_a_phone(chromium, live_server):
    event = _night()
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url, is_mobile=True)
    page = context.new_page()
    log_in(page, "substitutes-director", "pass-word-123")
    page.goto(f"/director/events/{event.slug}/")
    page.get_by_label("Absent member").select_option(label="Annabel Longfellow-Whitcombe")
    page.get_by_label("Substitute's name").fill("Samuel Substitute")
    page.get_by_role("button", name="Seat the substitute").click()
    page.wait_for_load_state()
    words = "played by Samuel Substitute for Annabel Longfellow-Whitcombe"
    assert page.locator("#substitution-list").inner_text().startswith(words)
    assert words in page.locator("#rotation-1").inner_text()
    problems = axe_problems(page, "event with a substitute") + fit_problems(page, "event with a substitute")
    league = event.season.league
    page.goto(f"/director/clubs/{event.club.slug}/leagues/{league.slug}/settings/")
    assert page.get_by_role("heading", name="League settings of Tuesday League").is_visible()
    problems += axe_problems(page, "league settings") + fit_problems(page, "league settings")
    context.close()
    assert problems == []

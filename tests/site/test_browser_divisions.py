"""The season page of a league with handicaps and two divisions, a night's page with its
handicaps and the director's Divisions page, on a 360 px phone: both tables (scratch and with
handicaps) and a table per division, no serious axe-core violation, nothing wider than the
screen."""

import pytest

from analytics.handicaps import services as handicaps
from analytics.standings import services as standings
from league import services
from league.models import League
from tests.factories import MembershipFactory, PlayerFactory, SeasonFactory
from tests.league.factories import season_of_nights
from tests.site.browser_pages import SMALL_PHONE
from tests.site.conftest import log_in
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _season():
    membership = MembershipFactory(user__username="divisions-director")
    club = membership.club
    upper = [PlayerFactory(club=club, name=f"Alexandra Upperton-Smythe {i}") for i in range(1, 5)]
    lower = [PlayerFactory(club=club, name=f"Lower {i}") for i in range(1, 5)]
    season = SeasonFactory(league__club=club, league__handicap_formula="average",
                           league__handicap_base=5000, league__handicap_cap=500)
    one = services.division_create(season=season, name="Division 1")
    two = services.division_create(season=season, name="Division 2")
    services.division_places_set(season=season, places={
        **{p.pk: one.pk for p in upper}, **{p.pk: two.pk for p in lower}})
    season, nights = season_of_nights(groups=[upper, lower], nights=4, seed=7, season=season)
    for night in nights[2:]:
        handicaps.night_handicaps_freeze(event_id=night.pk)
    standings.club_standings_recompute(club_id=club.pk)
    handicaps.club_tables_refresh(club_id=club.pk)
    return season, nights[-1]


def test_the_season_page_and_the_divisions_page_fit_a_phone(chromium, live_server):
    season, night = _season()
    assert League.objects.get(pk=season.league_id).handicap_formula == "average"
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url, is_mobile=True)
    page = context.new_page()
    league, club = season.league, season.league.club
    page.goto(f"/clubs/{club.slug}/leagues/{league.slug}/seasons/{season.slug}/")
    headings = page.locator("h2, h3, h4").all_inner_texts()
    assert [h for h in headings if h in ("Scratch", "With handicaps")][:2] == ["Scratch", "With handicaps"]
    assert "Division 1" in headings and "Division 2" in headings
    problems = axe_problems(page, "season") + fit_problems(page, "season")
    page.goto(f"/events/{night.slug}/")
    assert page.get_by_role("heading", name="With handicaps").is_visible()
    problems += axe_problems(page, "night") + fit_problems(page, "night")
    log_in(page, "divisions-director", "pass-word-123")
    page.goto(f"/director/seasons/{season.pk}/divisions/")
    assert page.get_by_role("heading", name="Promotion and relegation").is_visible()
    problems += axe_problems(page, "divisions") + fit_problems(page, "divisions")
    context.close()
    assert problems == []

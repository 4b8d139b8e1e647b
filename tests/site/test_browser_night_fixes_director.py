"""Issue 23's fixes in the director's room, in a real browser on a 360 px phone: the sit-out rule
chosen on the event and explained in the draft (17 players with a latecomer), "are you sure?"
before closing a rotation or finishing the event (dismissed, nothing changes), the season
table's order and score column in words, Sørensen pasted where Sorensen plays and a line
pasted twice reported, a new club landing on its own page. Every page is scanned for engine
words and refusal codes and fits 360 px."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from analytics.models import StandingsSnapshot
from league import services as league
from league.models import Club, Event, Player, Rotation
from tests.factories import EventFactory, MembershipFactory, PlayerFactory, SeasonFactory
from tests.league.factories import confirm_all_games, running_event
from tests.site.conftest import log_in
from tests.site.factories import seated_event
from tests.site.test_browser_night_fixes import PASSWORD, words_scan
from tests.site.test_browser_table_entry import phone360

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

__all__ = ["phone360"]  # the 360 px phone fixture, shared with the table entry tests


def director_page(context, club: Club):
    user = MembershipFactory(club=club).user
    user.set_password(PASSWORD)
    user.save()
    page = context.new_page()
    log_in(page, user.username, PASSWORD)
    return page


def asked_and_dismissed(page) -> list[str]:
    """Answer every "are you sure?" with Cancel; the questions asked, in order."""
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    return asked


@pytest.mark.parametrize("rule", [Event.SitOutRule.FEWEST, Event.SitOutRule.LATECOMERS])
def test_the_sit_out_rule_is_chosen_on_the_event_and_the_draft_says_who_and_why(phone360, rule):
    event, _ = running_event(16, sit_out_rule=Event.SitOutRule.SEAT_ORDER)  # changed below
    first = league.rotation_generate(event=event)
    league.rotation_start(rotation=first)
    confirm_all_games(first)
    league.rotation_close(rotation=first)
    late = PlayerFactory(club=event.club, name="Lou Late")
    league.registration_add(event=event, player=late)
    page = director_page(phone360, event.club)

    page.goto(f"/director/events/{event.slug}/edit/")
    page.get_by_label("Who sits out").select_option(label=rule.label)
    page.get_by_role("button", name="Save settings").click()
    page.get_by_text("Settings saved.").wait_for()
    assert Event.objects.get(pk=event.pk).sit_out_rule == rule
    words_scan(page)

    page.goto(f"/director/events/{event.slug}/")
    page.get_by_role("button", name="Seat the next rotation", exact=True).click()
    page.wait_for_load_state()
    second = event.rotations.get(number=2)
    assert list(second.sit_outs.values_list("player", flat=True)) == [late.pk]
    why = page.locator(".sit-out-reasons")
    assert page.get_by_text("Sitting out: Lou Late", exact=True).is_visible()
    assert f"the event's sit-out rule is \u201c{rule.label}\u201d" in why.inner_text()
    assert "Lou Late:" in why.inner_text() and "arrived late" in why.inner_text()
    words_scan(page)


@pytest.fixture
def night():
    event = seated_event(status=Rotation.Status.STARTED)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    return event


def test_closing_a_rotation_asks_first_and_cancel_changes_nothing(phone360, night):
    page = director_page(phone360, night.club)
    page.goto(f"/director/events/{night.slug}/")
    asked = asked_and_dismissed(page)
    page.get_by_role("button", name="Close rotation 1", exact=True).click()
    page.wait_for_timeout(300)
    assert asked == ["Close rotation 1? Its results count for the next seating."]
    assert night.rotations.get(number=1).status == Rotation.Status.STARTED
    assert page.get_by_role("button", name="Close rotation 1", exact=True).is_visible()
    words_scan(page)


def test_finishing_the_event_asks_first_and_cancel_changes_nothing(phone360, night):
    page = director_page(phone360, night.club)
    page.goto(f"/director/events/{night.slug}/")
    asked = asked_and_dismissed(page)
    page.get_by_role("button", name="Finish the event", exact=True).click()
    page.wait_for_timeout(300)
    assert len(asked) == 1 and asked[0].startswith(f"Finish {night.name}?")
    assert Event.objects.get(pk=night.pk).status == Event.Status.RUNNING
    words_scan(page)


def test_the_season_table_explains_its_order_below_the_minimum_and_names_match_points(phone360):
    season = SeasonFactory(name="Autumn", min_attendance=3)
    EventFactory(club=season.league.club, season=season, kind="league_night",
                 scoring=Event.Scoring.MATCH_POINTS, date=timezone.localdate())
    StandingsSnapshot.objects.create(
        season=season, computed_at=timezone.now(), games=6,
        rows=[{"rank": 1, "name": "Grace Hopper", "nights": 3, "counted_nights": 3, "score": 7,
               "total_points": 9000},
              {"rank": None, "name": "Alan Turing", "nights": 1, "counted_nights": 1, "score": 3,
               "total_points": 4000}])
    page = phone360.new_page()
    club, league_ = season.league.club, season.league
    page.goto(f"/clubs/{club.slug}/leagues/{league_.slug}/seasons/{season.slug}/")
    assert page.get_by_role("columnheader", name="Match points", exact=True).is_visible()
    assert page.get_by_role("columnheader", name="Score", exact=True).count() == 0
    note = page.locator("#attendance-note").inner_text()
    assert "Ranked by match points, then total points." in note
    assert "fewer than 3 nights are listed after everyone ranked" in note
    assert "below minimum attendance" in page.locator("tr", has_text="Alan Turing").inner_text()
    words_scan(page)


def test_a_pasted_sorensen_is_the_clubs_sorensen_and_a_repeated_line_is_reported(phone360):
    event = EventFactory(club=MembershipFactory().club, status=Event.Status.REGISTRATION,
                         date=timezone.localdate())
    sorensen = PlayerFactory(club=event.club, name="Sorensen")
    page = director_page(phone360, event.club)
    page.goto(f"/director/events/{event.slug}/")
    page.get_by_label("Names, one per line").fill("Sørensen\nAda Lovelace\nAda Lovelace")
    page.get_by_role("button", name="Enter these players").click()
    page.wait_for_load_state()
    body = page.inner_text("body")
    assert "\u201cAda Lovelace\u201d is on lines 2 and 3: entered once." in body
    assert sorted(event.registrations.values_list("player__name", flat=True)) == [
        "Ada Lovelace", "Sorensen"]
    assert event.registrations.filter(player=sorensen).exists()
    assert Player.objects.filter(club=event.club).count() == 2  # no second Sorensen
    words_scan(page)


def test_creating_a_club_lands_on_the_new_clubs_page(phone360):
    get_user_model().objects.create_user("newcomer", password=PASSWORD)
    page = phone360.new_page()
    log_in(page, "newcomer", PASSWORD)
    page.goto("/director/")
    page.get_by_label("Club name").fill("Harbour Card Club")
    page.get_by_role("button", name="Create club").click()
    page.wait_for_load_state()
    club = Club.objects.get(name="Harbour Card Club")
    assert page.url.endswith(f"/director/clubs/{club.slug}/")
    assert page.get_by_role("heading", name="Harbour Card Club").first.is_visible()
    assert page.get_by_text("Club created; you are its director.").is_visible()
    words_scan(page)


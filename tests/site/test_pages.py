"""The public pages and the director's table cards, through the Django test client."""

import datetime

import pytest
from django.utils import timezone

from analytics.models import StandingsSnapshot
from league.models import Event, Membership, Rotation
from league.services.credentials import printed_code, side_credentials_ensure
from tests.factories import (
    ClubFactory,
    EventFactory,
    LeagueFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
)
from tests.site.factories import games_of, seated_event

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def member_of(club, role):
    return MembershipFactory(club=club, role=role).user


# --- home ---------------------------------------------------------------------------------------


def test_home_lists_clubs_leagues_and_upcoming_and_recent_public_events(client):
    club = ClubFactory(name="Riverside Card Club")
    LeagueFactory(club=club, name="Tuesday League")
    EventFactory(club=club, name="Spring Open", date=TODAY + datetime.timedelta(days=7))
    EventFactory(club=club, name="Winter Cup", date=TODAY - datetime.timedelta(days=7))

    page = client.get("/").content.decode()

    assert "Riverside Card Club" in page
    assert "Tuesday League" in page
    upcoming, recent = page.split('id="recent-heading"')
    assert "Spring Open" in upcoming and "Winter Cup" not in upcoming
    assert "Winter Cup" in recent


def test_home_lists_only_public_events(client):
    event = EventFactory(name="Committee Practice", is_public=False, date=TODAY)
    client.force_login(member_of(event.club, Membership.Role.SCORER))

    assert "Committee Practice" not in client.get("/").content.decode()


def test_home_runs_a_constant_number_of_queries(client, django_assert_max_num_queries):
    for _ in range(6):
        club = ClubFactory()
        LeagueFactory(club=club)
        PlayerFactory(club=club)
        EventFactory(club=club, date=TODAY)
        EventFactory(club=club, date=TODAY - datetime.timedelta(days=3))

    with django_assert_max_num_queries(4):
        assert client.get("/").status_code == 200


# --- club, league, season -----------------------------------------------------------------------


def test_club_page_shows_leagues_seasons_events_and_players(client):
    season = SeasonFactory(name="Autumn 2026", league=LeagueFactory(name="Tuesday League"))
    club = season.league.club
    EventFactory(club=club, name="Night 1", season=season)
    PlayerFactory(club=club, name="Ada Lovelace")

    page = client.get(f"/clubs/{club.slug}/").content.decode()

    assert club.name in page
    assert "Tuesday League" in page and "Autumn 2026" in page
    assert "Night 1" in page
    assert "Ada Lovelace" in page


def test_unknown_club_league_and_season_are_404(client):
    season = SeasonFactory()
    league, club = season.league, season.league.club

    assert client.get("/clubs/nope/").status_code == 404
    assert client.get(f"/clubs/{club.slug}/leagues/nope/").status_code == 404
    assert client.get(f"/clubs/{club.slug}/leagues/{league.slug}/seasons/nope/").status_code == 404
    other = ClubFactory()
    assert client.get(f"/clubs/{other.slug}/leagues/{league.slug}/").status_code == 404


def test_club_page_runs_a_constant_number_of_queries(client, django_assert_max_num_queries):
    club = ClubFactory()
    for _ in range(5):
        SeasonFactory(league=LeagueFactory(club=club))
        EventFactory(club=club)
        PlayerFactory(club=club)

    with django_assert_max_num_queries(6):
        assert client.get(f"/clubs/{club.slug}/").status_code == 200


def test_league_page_lists_seasons_and_nights(client):
    season = SeasonFactory(name="Autumn 2026", best_n_nights=8, min_attendance=3)
    EventFactory(club=season.league.club, season=season, name="Night 7", kind="league_night")
    league = season.league

    page = client.get(f"/clubs/{league.club.slug}/leagues/{league.slug}/").content.decode()

    assert "Autumn 2026" in page
    assert "best 8 nights" in page and "ranked after 3 nights" in page
    assert "Night 7" in page


def test_league_page_runs_a_constant_number_of_queries(client, django_assert_max_num_queries):
    league = LeagueFactory()
    for _ in range(4):
        season = SeasonFactory(league=league)
        EventFactory(club=league.club, season=season)

    with django_assert_max_num_queries(4):
        assert client.get(f"/clubs/{league.club.slug}/leagues/{league.slug}/").status_code == 200


def test_season_page_shows_the_stored_season_standings(client):
    season = SeasonFactory()
    StandingsSnapshot.objects.create(
        season=season, computed_at=timezone.now(), games=4,
        rows=[{"rank": 1, "name": "Grace Hopper", "nights": 2, "counted_nights": 2,
               "score": 8000, "total_points": 8000}],
    )
    url = f"/clubs/{season.league.club.slug}/leagues/{season.league.slug}/seasons/{season.slug}/"

    page = client.get(url).content.decode()

    assert "Grace Hopper" in page and "8000" in page
    assert "being computed" not in page


def test_season_page_says_standings_are_being_computed_before_any_snapshot(client):
    season = SeasonFactory()
    seated_event(club=season.league.club, season=season, name="Night 1")
    url = f"/clubs/{season.league.club.slug}/leagues/{season.league.slug}/seasons/{season.slug}/"

    page = client.get(url).content.decode()

    assert "Standings are being computed" in page
    assert "Night 1" in page
    assert '<td class="num">8</td>' in page  # entrants


def test_season_page_hides_private_nights_from_outsiders(client):
    season = SeasonFactory()
    EventFactory(club=season.league.club, season=season, name="Secret Night", is_public=False)
    url = f"/clubs/{season.league.club.slug}/leagues/{season.league.slug}/seasons/{season.slug}/"

    assert "Secret Night" not in client.get(url).content.decode()


def test_season_page_runs_a_constant_number_of_queries(client, django_assert_max_num_queries):
    season = SeasonFactory()
    for _ in range(4):
        EventFactory(club=season.league.club, season=season)
    url = f"/clubs/{season.league.club.slug}/leagues/{season.league.slug}/seasons/{season.slug}/"

    with django_assert_max_num_queries(6):
        assert client.get(url).status_code == 200


# --- event --------------------------------------------------------------------------------------


def test_event_page_shows_status_rules_and_each_tables_seating_with_first_dealer(client):
    event = seated_event(name="Harvest Open", status=Rotation.Status.STARTED)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)

    page = client.get(f"/events/{event.slug}/").content.decode()

    assert "Harvest Open" in page and "Live" in page
    assert "Rules: <strong>Classic (13 + 13 cards, partner&#x27;s permission to go out)</strong>" in page
    assert "classic" not in page.split('id="rules-heading"')[1].split("</section>")[0]
    assert "50, 90, 120, 150" in page  # first lay-down minimums of the classic preset
    assert "Table 1" in page and "Table 2" in page
    for name in ("Player A", "Player D", "Player E", "Player H"):
        assert name in page
    # make_game seats A,B,C,D at seats 0..3, sides 0/1 alternate, seat 3 (D) deals first.
    assert "Side 1: Player A &amp; Player C" in page
    assert "First dealer: Player D" in page


def test_event_page_names_the_preset_and_each_house_rule_in_words(client):
    event = seated_event(name="Harvest Open")
    Event.objects.filter(pk=event.pk).update(rules_preset="pagat",
                                             rules_overrides={"going_out_bonus": 250})

    page = client.get(f"/events/{event.slug}/").content.decode()
    rules = page.split('id="rules-heading"')[1].split("</section>")[0]

    assert "Rules: <strong>Pagat (red, black and wild books)</strong> with house rules" in rules
    assert "House rules (1)" in rules and "Bonus for going out: 250" in rules
    assert "going_out_bonus" not in rules and "pagat" not in rules


def test_event_page_never_shows_the_tables_entry_links(client):
    event = seated_event()
    side_credentials_ensure(games=games_of(event))

    page = client.get(f"/events/{event.slug}/").content.decode()

    for game in games_of(event):
        for credential in game.side_credentials.all():
            assert credential.token not in page and credential.code not in page


def test_event_page_refreshes_standings_only_while_the_event_runs(client):
    event = seated_event(status=Rotation.Status.STARTED)

    finished = client.get(f"/events/{event.slug}/").content.decode()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    running = client.get(f"/events/{event.slug}/").content.decode()

    assert f'data-refresh-url="/events/{event.slug}/standings/"' in running
    assert 'aria-live="polite"' in running
    assert 'data-refresh-seconds="1"' in running
    assert "js/live-refresh.js" in running
    assert "data-refresh-url" not in finished and "live-refresh.js" not in finished


def test_event_page_shows_the_stored_standings_on_first_paint(client):
    event = seated_event()
    StandingsSnapshot.objects.create(
        event=event, computed_at=timezone.now(), games=2,
        rows=[{"rank": 1, "name": "Player E", "games": 1, "wins": 1, "ties": 0, "losses": 0,
               "match_points": 2, "total_points": 4200, "point_difference": 900}],
    )

    page = client.get(f"/events/{event.slug}/").content.decode()

    assert "Player E" in page.split('id="live-standings"')[1].split("</section>")[0]
    assert "4200" in page


def test_event_page_shows_house_rules_and_a_clear_message_for_an_invalid_rule_set(client):
    good = EventFactory(rules_overrides={"going_out_bonus": 200})
    bad = EventFactory(rules_overrides={"no_such_rule": 1})

    good_page = client.get(f"/events/{good.slug}/").content.decode()
    bad_page = client.get(f"/events/{bad.slug}/")

    assert "Bonus for going out: 200" in good_page and "going_out_bonus" not in good_page
    assert bad_page.status_code == 200
    assert "rule set is not valid" in bad_page.content.decode()
    assert "no_such_rule" in bad_page.content.decode()


def test_draft_rotation_seating_is_shown_to_the_director_only(client, director):
    club = director.memberships.get().club
    event = seated_event(club=club, status=Rotation.Status.DRAFT)

    public = client.get(f"/events/{event.slug}/").content.decode()
    client.force_login(director)
    own = client.get(f"/events/{event.slug}/").content.decode()

    assert "announced when it starts" in public and "Player A" not in public
    assert "Player A" in own and "Print table cards" in own


@pytest.mark.parametrize("role", [None, "outsider"])
def test_private_event_is_404_to_anonymous_users_and_outsiders(client, role):
    event = EventFactory(is_public=False)
    if role == "outsider":
        client.force_login(member_of(ClubFactory(), Membership.Role.DIRECTOR))

    assert client.get(f"/events/{event.slug}/").status_code == 404


@pytest.mark.parametrize("role", [Membership.Role.SCORER, Membership.Role.DIRECTOR])
def test_private_event_is_shown_to_the_clubs_members(client, role):
    event = EventFactory(is_public=False, name="Members Night")
    client.force_login(member_of(event.club, role))

    response = client.get(f"/events/{event.slug}/")

    assert response.status_code == 200
    assert "Members only" in response.content.decode()


def test_unknown_event_is_404(client):
    assert client.get("/events/no-such-event/").status_code == 404


@pytest.mark.parametrize("players", [4, 16])
def test_event_page_runs_a_constant_number_of_queries(client, django_assert_max_num_queries,
                                                      players):
    """Its version in two queries, the page drawn in eight; the next visitor gets the bytes
    drawn for the first (the version only)."""
    event = seated_event(players=players, rotations=2)

    with django_assert_max_num_queries(10):
        assert client.get(f"/events/{event.slug}/").status_code == 200
    with django_assert_max_num_queries(2):
        assert client.get(f"/events/{event.slug}/").status_code == 200


# --- table cards --------------------------------------------------------------------------------


def cards_url(event, rotation=""):
    return f"/events/{event.slug}/table-cards/" + (f"?rotation={rotation}" if rotation else "")


def test_director_gets_one_card_per_table_with_seating_qr_code_and_short_code(client, director):
    event = seated_event(club=director.memberships.get().club, rotations=2)
    client.force_login(director)

    page = client.get(cards_url(event, 2)).content.decode()

    assert page.count('class="table-card"') == 2
    rotation_two = [g for g in games_of(event) if g.table.rotation.number == 2]
    for game in rotation_two:
        for credential in game.side_credentials.all():
            assert printed_code(credential.code) in page  # as printed: ABC-2345
            assert f"http://testserver/play/{credential.token}/" in page
            names = " &amp; ".join(s.player.name for s in game.table.seats.filter(side=credential.side))
            assert f"Side {credential.side + 1}: {names}" in page
    assert page.count("<svg") == 4 and 'aria-label="QR code of the entry link"' in page
    assert "<?xml" not in page
    assert "First dealer:" in page


def test_table_cards_default_to_the_latest_rotation(client, director):
    event = seated_event(club=director.memberships.get().club, rotations=2)
    client.force_login(director)

    page = client.get(cards_url(event)).content.decode()

    assert "rotation 2" in page


def test_table_cards_of_an_event_without_rotations_say_so(client, director):
    event = EventFactory(club=director.memberships.get().club)
    client.force_login(director)

    response = client.get(cards_url(event))

    assert response.status_code == 200
    assert "no rotations yet" in response.content.decode()


def test_table_cards_reject_a_bad_rotation_number_clearly(client, director):
    event = seated_event(club=director.memberships.get().club)
    client.force_login(director)

    bad = client.get(cards_url(event, "two"))
    missing = client.get(cards_url(event, 9))

    assert bad.status_code == 400
    assert "rotation must be a rotation number" in bad.content.decode()
    assert missing.status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "outsider", "scorer", "other-club-director"])
def test_table_cards_are_forbidden_to_everyone_but_the_clubs_directors(client, who):
    event = seated_event()
    users = {
        "outsider": lambda: UserFactory(),
        "scorer": lambda: member_of(event.club, Membership.Role.SCORER),
        "other-club-director": lambda: member_of(ClubFactory(), Membership.Role.DIRECTOR),
    }
    if who in users:
        client.force_login(users[who]())

    response = client.get(cards_url(event))

    assert response.status_code == 403
    assert not any(c.token in response.content.decode()
                   for c in games_of(event)[0].side_credentials.all())


def test_table_cards_of_a_private_event_are_404_to_outsiders(client):
    event = seated_event(is_public=False)
    client.force_login(member_of(ClubFactory(), Membership.Role.DIRECTOR))

    assert client.get(cards_url(event)).status_code == 404


def test_table_cards_run_a_constant_number_of_queries(client, director,
                                                      django_assert_max_num_queries):
    event = seated_event(club=director.memberships.get().club, players=16)
    client.force_login(director)

    # At most 4 more the first time: each side's link and code are made then.
    with django_assert_max_num_queries(14):
        assert client.get(cards_url(event)).status_code == 200

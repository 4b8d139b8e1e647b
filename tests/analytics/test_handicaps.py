"""Handicaps: the formulas by hand, frozen at a night's start, and the handicapped tables."""

from __future__ import annotations

import datetime

import pytest

from analytics import tasks
from analytics.handicaps import compute, selectors, services
from analytics.handicaps.compute import Formula, History
from analytics.models import NightHandicap, PlayerRating
from analytics.standings import services as standings
from league import services as league_services
from league.models import Event, League, Registration, Seat
from tests.analytics.factories import confirm, make_game
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory

AVERAGE = Formula("average", base=5000, percent=80, cap=500, nights=2)


# --- the formulas, pure -----------------------------------------------------------------------


def test_a_handicap_is_a_share_of_the_difference_to_the_base_capped_and_said_in_words():
    capped = compute.handicap_compute(AVERAGE, History(4100, nights=2, games=2))
    assert capped.handicap == 500
    assert capped.explanation == ("Average 4,100 game points (2 games of the last 2 nights): "
                                  "80 % of (5,000 \u2212 4,100) = 720, capped at 500.")
    assert compute.handicap_compute(AVERAGE, History(4700, 2, 2)).handicap == 240
    assert compute.handicap_compute(AVERAGE, History(4350, 2, 2)).explanation.endswith(
        "80 % of (5,000 \u2212 4,350) = 520, capped at 500.")


def test_a_player_above_the_base_gets_0_not_a_negative_handicap():
    better = compute.handicap_compute(AVERAGE, History(5050, 2, 2))
    assert better.handicap == 0
    assert "= \u221240, below 0: handicap 0" in better.explanation


def test_a_player_without_history_gets_0_and_why():
    newcomer = compute.handicap_compute(AVERAGE, History(None))
    assert (newcomer.handicap, newcomer.explanation) == (
        0, "No confirmed game in the league's earlier nights: handicap 0.")
    unrated = compute.handicap_compute(Formula("rating", 1600, 50, None, 6), History(None))
    assert unrated.explanation == "No rating yet (no rated game before this night): handicap 0."


def test_the_rating_formula_and_rounding_halves_up():
    formula = Formula("rating", base=1600, percent=50, cap=None, nights=6)
    assert compute.handicap_compute(formula, History(1400)).explanation == (
        "Rating 1,400: 50 % of (1,600 \u2212 1,400) = 100.")
    assert compute.handicap_compute(formula, History(1599)).handicap == 1  # 0.5 rounds up


def test_the_average_covers_the_last_nights_only():
    games = [((1, 1), 100), ((2, 2), 4000), ((3, 3), 4200), ((3, 3), 4400)]
    assert compute.recent_average(games, nights=2) == History(4200, nights=2, games=3)


# --- a league night, by hand ------------------------------------------------------------------


def _league(**handicaps) -> tuple[League, list]:
    league = LeagueFactory(handicap_formula="average", handicap_base=5000, handicap_percent=80,
                           handicap_cap=500, handicap_nights=2, **handicaps)
    season = SeasonFactory(league=league)
    players = [PlayerFactory(club=league.club, name=n) for n in ("Ann", "Bob", "Cy", "Di", "Eve")]
    return league, [season, *players]


def _night(season, day: int, **fields) -> Event:
    return EventFactory(club=season.league.club, season=season, kind="league_night",
                        date=datetime.date(2026, 3, day), **fields)


def _history(season, a, b, c, d) -> None:
    """Three earlier nights: only the last two count (handicap_nights = 2)."""
    confirm(make_game(event=_night(season, 1), players=[a, b, c, d]), [[100, 100]])
    confirm(make_game(event=_night(season, 2), players=[a, b, c, d]), [[4000, 4700]])
    confirm(make_game(event=_night(season, 3), players=[a, b, d, c]), [[4200, 5400]])


def _start(season, players, django_capture_on_commit_callbacks, **fields) -> Event:
    event = _night(season, 10, status=Event.Status.REGISTRATION, **fields)
    for player in players:
        Registration.objects.create(event=event, player=player, checked_in=True)
    with django_capture_on_commit_callbacks(execute=True):
        league_services.event_set_status(event=event, status=Event.Status.RUNNING)
    return event


def _play(event, a, b, c, d, e) -> None:
    # Rotation 1: Ann & Cy (740 together) 3,000 v Bob & Di (440) 3,200.
    confirm(make_game(event=event, players=[a, b, c, d], rotation_number=1), [[3000, 3200]])
    # Rotation 2: Eve & Bob (0) 2,800 v Ann & Cy (740) 2,600; Di sits out.
    confirm(make_game(event=event, players=[e, a, b, c], rotation_number=2), [[2800, 2600]])
    # The standings job (as a result's change sends it): the scratch tables, then these.
    tasks.recompute_event.apply(args=(event.pk, False))


def _table(rows) -> list[tuple]:
    return [(r["name"], r["rank"], r["match_points"], r["total_points"], r["handicap"])
            for r in rows]


@pytest.mark.django_db
def test_the_handicaps_are_frozen_when_the_night_starts(django_capture_on_commit_callbacks):
    league, (season, a, b, c, d, e) = _league()
    _history(season, a, b, c, d)
    event = _start(season, [a, b, c, d, e], django_capture_on_commit_callbacks)
    frozen = {h.player.name: (h.handicap, h.basis) for h in
              NightHandicap.objects.filter(event=event).select_related("player")}
    # Ann (4,000 + 4,200) / 2 = 4,100: 720 capped at 500; Cy (4,000 + 5,400) / 2 = 4,700: 240;
    # Bob 5,050: below 0; Di (4,700 + 4,200) / 2 = 4,450: 440; Eve has no history.
    assert frozen == {"Ann": (500, 4100), "Cy": (240, 4700), "Bob": (0, 5050),
                      "Di": (440, 4450), "Eve": (0, None)}


@pytest.mark.parametrize(("choice", "ann", "eve"), [
    ("member", 4100, None),  # (4,000 + 4,200 played by Eve for her) / 2; nothing for Eve
    ("substitute", 2050, 4200),  # Ann's own last two nights (100 + 4,000) / 2; Eve's game
    ("neither", 2050, None),
])
@pytest.mark.django_db
def test_a_substitutes_game_goes_into_the_average_the_league_chose(
        django_capture_on_commit_callbacks, choice, ann, eve):
    league, (season, a, b, c, d, e) = _league(substitute_counts_for=choice)
    confirm(make_game(event=_night(season, 1), players=[a, b, c, d]), [[100, 100]])
    confirm(make_game(event=_night(season, 2), players=[a, b, c, d]), [[4000, 4700]])
    game = make_game(event=_night(season, 3), players=[e, b, d, c])  # Eve plays for Ann
    Seat.objects.filter(table__game=game, player=e).update(substitute_for=a)
    confirm(game, [[4200, 5400]])
    event = _start(season, [a, b, c, d, e], django_capture_on_commit_callbacks)
    basis = {h.player.name: h.basis for h in NightHandicap.objects.filter(event=event).select_related("player")}
    assert (basis["Ann"], basis["Eve"], basis["Di"]) == (ann, eve, 4450)
    games = selectors.league_games(event=event, player_ids=[a.pk, e.pk])
    assert len(games.get(a.pk, [])) == (3 if choice == "member" else 2)
    assert len(games.get(e.pk, [])) == (1 if choice == "substitute" else 0)


@pytest.mark.django_db
def test_the_handicapped_table_adds_the_handicaps_to_the_game_points(
        django_capture_on_commit_callbacks):
    league, (season, a, b, c, d, e) = _league()
    _history(season, a, b, c, d)
    event = _start(season, [a, b, c, d, e], django_capture_on_commit_callbacks)
    _play(event, a, b, c, d, e)
    # By hand: rotation 1 3,740 v 3,640 (Ann & Cy win), rotation 2 2,800 v 3,340 (Ann & Cy win).
    assert _table(selectors.event_handicapped(event=event).rows) == [
        ("Ann", 1, 4, 3740 + 3340, 500), ("Cy", 1, 4, 7080, 240), ("Bob", 3, 0, 3640 + 2800, 0),
        ("Di", 4, 0, 3640, 440), ("Eve", 5, 0, 2800, 0)]
    scratch = {r["name"]: (r["rank"], r["match_points"]) for r in
               standings.event_standings_refresh(event=event).rows}
    assert scratch["Bob"] == (1, 4) and scratch["Ann"][1] == 0


@pytest.mark.django_db
def test_applied_to_match_points_the_handicaps_decide_the_winners_only(
        django_capture_on_commit_callbacks):
    league, (season, a, b, c, d, e) = _league(handicap_applies_to="match_points")
    _history(season, a, b, c, d)
    event = _start(season, [a, b, c, d, e], django_capture_on_commit_callbacks)
    _play(event, a, b, c, d, e)
    assert _table(selectors.event_handicapped(event=event).rows) == [
        ("Ann", 1, 4, 5600, 500), ("Cy", 1, 4, 5600, 240), ("Bob", 3, 0, 6000, 0),
        ("Di", 4, 0, 3200, 440), ("Eve", 5, 0, 2800, 0)]


@pytest.mark.django_db
def test_rating_handicaps_come_from_the_ratings_at_the_start(django_capture_on_commit_callbacks):
    league, (season, a, b, c, d, e) = _league()
    League.objects.filter(pk=league.pk).update(handicap_formula="rating", handicap_base=1600,
                                               handicap_percent=50, handicap_cap=None)
    # shown as 1400, 1500 and 1700 (1500 + 2500 mu)
    for player, mu in ((a, -0.04), (b, 0.0), (c, 0.08)):
        PlayerRating.objects.create(player=player, club=league.club, mu=mu, sigma=0.02,
                                    ordinal=mu - 0.06, games=5)
    event = _start(season, [a, b, c, d], django_capture_on_commit_callbacks)
    assert {p: h.handicap for p, h in selectors.frozen_handicaps(event=event).items()} == {
        a.pk: 100, b.pk: 50, c.pk: 0, d.pk: 0}


@pytest.mark.django_db
def test_later_results_never_change_a_frozen_handicap(django_capture_on_commit_callbacks):
    league, (season, a, b, c, d, e) = _league()
    _history(season, a, b, c, d)
    event = _start(season, [a, b, c, d, e], django_capture_on_commit_callbacks)
    before = list(NightHandicap.objects.filter(event=event).values_list("player_id", "handicap",
                                                                        "explanation"))
    # A late correction of an earlier night and a change of the league's settings.
    confirm(make_game(event=_night(season, 4), players=[a, b, c, d]), [[9000, 100]])
    League.objects.filter(pk=league.pk).update(handicap_percent=10)
    _play(event, a, b, c, d, e)
    services.night_handicaps_freeze(event_id=event.pk)
    after = list(NightHandicap.objects.filter(event=event).values_list("player_id", "handicap",
                                                                       "explanation"))
    assert after == before


@pytest.mark.django_db
def test_a_night_started_before_handicaps_were_switched_on_has_none(
        django_capture_on_commit_callbacks):
    league, (season, a, b, c, d, e) = _league()
    League.objects.filter(pk=league.pk).update(handicap_formula="none")
    event = _start(season, [a, b, c, d, e], django_capture_on_commit_callbacks)
    League.objects.filter(pk=league.pk).update(handicap_formula="average")
    _play(event, a, b, c, d, e)
    assert selectors.freeze_of(event=event) is None
    assert selectors.event_handicapped(event=event) is None
    assert selectors.season_handicapped(season=season) is None


@pytest.mark.django_db
def test_the_season_adds_up_the_handicapped_nights(django_capture_on_commit_callbacks):
    league, (season, a, b, c, d, e) = _league()
    _history(season, a, b, c, d)
    for night in season.events.all():
        standings.event_recompute(event_id=night.pk)
    event = _start(season, [a, b, c, d, e], django_capture_on_commit_callbacks)
    _play(event, a, b, c, d, e)
    rows = {r["name"]: r for r in selectors.season_handicapped(season=season).rows}
    # Earlier nights have no handicaps (their scratch rows count); this night's handicapped.
    assert rows["Ann"]["nights"] == 4 and rows["Ann"]["handicap"] == 500
    # Match points: night 1 tied (100 v 100), nights 2 and 3 lost, this night 2 wins.
    assert rows["Ann"]["score"] == 1 + 0 + 0 + 4


# --- pages, CSV and API -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_night_and_season_pages_show_both_tables(client, django_capture_on_commit_callbacks):
    league, (season, a, b, c, d, e) = _league()
    _history(season, a, b, c, d)
    event = _start(season, [a, b, c, d, e], django_capture_on_commit_callbacks)
    _play(event, a, b, c, d, e)
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "<h3>Scratch</h3>" in page and "With handicaps</h3>" in page
    assert "80 % of (5,000 \u2212 4,100) = 720, capped at 500." in page
    season_page = client.get(f"/clubs/{league.club.slug}/leagues/{league.slug}/"
                             f"seasons/{season.slug}/").content.decode()
    assert "<h3>Scratch</h3>" in season_page and "<h3>With handicaps</h3>" in season_page
    fragment = client.get(f"/events/{event.slug}/standings/?fragment=1").content.decode()
    assert "With handicaps" in fragment


@pytest.mark.django_db
def test_the_csv_and_the_api_carry_the_handicapped_tables(client, django_capture_on_commit_callbacks):
    league, (season, a, b, c, d, e) = _league()
    _history(season, a, b, c, d)
    event = _start(season, [a, b, c, d, e], django_capture_on_commit_callbacks)
    _play(event, a, b, c, d, e)
    lines = client.get(f"/events/{event.slug}/standings-with-handicaps.csv").content.decode().splitlines()
    assert lines[0] == ("Place,Name,Handicap,Games,Won,Tied,Lost,Match points,Total points,"
                        "Point difference,Points left in hand,How the handicap was computed")
    assert lines[1].startswith("1,Ann,500,2,2,0,0,4,7080,")
    season_csv = client.get(f"/seasons/{season.pk}/standings-with-handicaps.csv").content.decode()
    assert season_csv.splitlines()[0] == "Place,Name,Handicap,Nights,Nights counted,Match points,Total points"
    body = client.get(f"/api/standings/events/{event.slug}/").json()
    assert body["handicapped"]["rows"][0]["handicap"] == 500
    assert body["rows"][0]["name"] == "Bob"  # the scratch table as before
    assert client.get(f"/api/standings/seasons/{season.pk}/").json()["handicapped"]["rows"]


@pytest.mark.django_db
def test_a_night_without_handicaps_has_no_handicapped_csv(client):
    event = EventFactory()
    assert client.get(f"/events/{event.slug}/standings-with-handicaps.csv").status_code == 404


@pytest.mark.django_db
def test_the_director_switches_handicaps_on_in_the_league_settings(client):
    from tests.factories import MembershipFactory

    membership = MembershipFactory()
    league = LeagueFactory(club=membership.club)
    client.force_login(membership.user)
    url = f"/director/clubs/{league.club.slug}/leagues/{league.slug}/settings/"
    form = {"substitute_counts_for": "member", "substitute_cap": "", "handicap_formula": "average",
            "handicap_base": "5000", "handicap_percent": "80", "handicap_cap": "500",
            "handicap_nights": "6", "handicap_applies_to": "match_points"}
    client.post(url, form)
    league.refresh_from_db()
    assert (league.handicap_formula, league.handicap_cap, league.handicap_applies_to) == (
        "average", 500, "match_points")
    refused = client.post(url, {**form, "handicap_percent": "150"}).content.decode()
    assert "Give a percentage from 0 to 100." in refused
    league.refresh_from_db()
    assert league.handicap_percent == 80

"""Whom a substitute's result counts for, over a 12-night season: the league's choice (the
absent member, the substitute or neither) and its cap, checked in the event standings, the
season table, the ratings and the statistics against a count by hand."""

import datetime
import random

import pytest

from analytics.models import PlayerStats, RatingHistory, StandingsSnapshot
from analytics.services import club_recompute
from analytics.statistics.services import statistics_refresh
from league.models import Event, League, Partnership, Registration, Seat
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, LeagueFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db

NIGHTS = 12
SUBSTITUTED = (3, 6, 9)  # the nights Ann is away and Sam plays for her (numbered from 1)
SEED = 29


def _season(choice: str, cap: int | None):
    """Ann, Bea, Cal and Dee play a night a week (one table, Ann and Cal partners against Bea and
    Dee); on three nights Sam plays for Ann. The totals are random from a fixed seed."""
    club = ClubFactory()
    league = LeagueFactory(club=club, substitute_counts_for=choice, substitute_cap=cap)
    season = SeasonFactory(league=league)
    ann, bea, cal, dee, sam = (PlayerFactory(club=club, name=n) for n in ("Ann", "Bea", "Cal", "Dee", "Sam"))
    rng = random.Random(SEED)
    nights = []
    for night in range(1, NIGHTS + 1):
        event = EventFactory(club=club, season=season, kind=Event.Kind.LEAGUE_NIGHT,
                             date=datetime.date(2026, 1, 6) + datetime.timedelta(weeks=night - 1),
                             status=Event.Status.FINISHED, scoring=Event.Scoring.MATCH_POINTS)
        first = sam if night in SUBSTITUTED else ann
        game = make_game(event=event, players=[first, bea, cal, dee])
        if night in SUBSTITUTED:
            Seat.objects.filter(table__game=game, player=sam).update(substitute_for=ann)
        totals = (rng.randrange(500, 5000, 5), rng.randrange(500, 5000, 5))
        confirm(game, [totals], detail=[[True, True]])
        nights.append((event, totals))
    club_recompute(club_id=club.pk)
    return club, nights, {p.name: p for p in (ann, bea, cal, dee, sam)}


def _counted_for(choice: str, cap: int | None, night: int) -> str | None:
    """By hand: whose result the Ann's-seat result of `night` is."""
    if night not in SUBSTITUTED:
        return "Ann"
    if cap is not None and SUBSTITUTED.index(night) >= cap:
        return None
    return {"member": "Ann", "substitute": "Sam", "neither": None}[choice]


def _hand_count(choice: str, cap: int | None, nights) -> dict[str, dict[str, int]]:
    """Each player's nights, games, match points and total points, counted by hand."""
    count = {name: {"nights": 0, "games": 0, "match_points": 0, "total_points": 0}
             for name in ("Ann", "Bea", "Cal", "Dee", "Sam")}
    for night, (_, (ours, theirs)) in enumerate(nights, start=1):
        points = 2 if ours > theirs else 1 if ours == theirs else 0
        for name, total, mp in ((_counted_for(choice, cap, night), ours, points), ("Cal", ours, points),
                                ("Bea", theirs, 2 - points), ("Dee", theirs, 2 - points)):
            if name is not None:
                row = count[name]
                row["nights"] += 1
                row["games"] += 1
                row["match_points"] += mp
                row["total_points"] += total
    return count


CASES = [(choice, cap) for choice in League.SubstituteCountsFor.values for cap in (None, 2)]


@pytest.mark.parametrize(("choice", "cap"), CASES)
def test_the_season_table_event_standings_ratings_and_statistics_follow_the_leagues_choice(choice, cap):
    club, nights, players = _season(choice, cap)
    expected = _hand_count(choice, cap, nights)
    season_rows = {row["name"]: row for row in StandingsSnapshot.objects.get(
        season__league__club=club).rows}
    for name, figures in expected.items():
        player = players[name]
        if figures["nights"]:
            row = season_rows[name]
            assert (row["nights"], row["score"], row["total_points"]) == (
                figures["nights"], figures["match_points"], figures["total_points"]), name
        else:
            assert name not in season_rows
        rated = RatingHistory.objects.filter(player=player).count()
        assert rated == figures["games"], f"{name}'s rating moved {rated} times"
        stats = PlayerStats.objects.filter(player=player).first()
        assert (stats.data["games"] if stats else 0) == figures["games"], name
        assert (stats.data["total_points"] if stats else 0) == figures["total_points"], name


@pytest.mark.parametrize("choice", League.SubstituteCountsFor.values)
def test_one_substituted_nights_standings_credit_the_seat_and_keep_the_opponents(choice):
    club, nights, players = _season(choice, None)
    event, (ours, theirs) = nights[SUBSTITUTED[0] - 1]
    rows = {row["name"]: row for row in StandingsSnapshot.objects.get(event=event).rows}
    credited = {"member": "Ann", "substitute": "Sam", "neither": None}[choice]
    assert set(rows) == {"Bea", "Cal", "Dee"} | ({credited} if credited else set())
    assert rows["Bea"]["total_points"] == theirs and rows["Cal"]["total_points"] == ours
    if credited:
        assert rows[credited]["total_points"] == ours


def test_the_cap_stops_the_third_substituted_night_counting():
    club, nights, players = _season("member", 2)
    third = nights[SUBSTITUTED[2] - 1][0]
    rows = {row["name"] for row in StandingsSnapshot.objects.get(event=third).rows}
    assert "Ann" not in rows and "Sam" not in rows
    second = nights[SUBSTITUTED[1] - 1][0]
    assert "Ann" in {row["name"] for row in StandingsSnapshot.objects.get(event=second).rows}


def test_a_night_outside_a_league_counts_for_the_substitute():
    club = ClubFactory()
    ann, bea, cal, dee, sam = (PlayerFactory(club=club) for _ in range(5))
    event = EventFactory(club=club, status=Event.Status.FINISHED)
    game = make_game(event=event, players=[sam, bea, cal, dee])
    Seat.objects.filter(table__game=game, player=sam).update(substitute_for=ann)
    confirm(game, [(900, 400)])
    club_recompute(club_id=club.pk)
    keys = {row["key"] for row in StandingsSnapshot.objects.get(event=event).rows}
    assert f"p{sam.pk}" in keys and f"p{ann.pk}" not in keys


def test_a_members_statistics_refreshed_alone_count_the_nights_played_for_them():
    club, nights, players = _season("member", None)
    ann = players["Ann"]
    full = PlayerStats.objects.get(player=ann).data
    PlayerStats.objects.filter(player=ann).delete()
    statistics_refresh(club_id=club.pk, player_ids=[ann.pk])
    assert PlayerStats.objects.get(player=ann).data == full
    assert full["games"] == NIGHTS


@pytest.mark.parametrize(("choice", "keys"), [
    ("member", {"ann+cal", "bea+dee"}), ("substitute", {"sam+cal", "bea+dee"}), ("neither", {"bea+dee"})])
def test_in_fixed_partnerships_the_side_counts_as_the_league_chooses(choice, keys):
    club = ClubFactory()
    season = SeasonFactory(league=LeagueFactory(club=club, substitute_counts_for=choice))
    people = {n: PlayerFactory(club=club, name=n) for n in ("ann", "bea", "cal", "dee", "sam")}
    event = EventFactory(club=club, season=season, format=Event.Format.ROUND_ROBIN,
                         status=Event.Status.FINISHED)
    game = make_game(event=event, players=[people[n] for n in ("sam", "bea", "cal", "dee")])
    Seat.objects.filter(table__game=game, player=people["sam"]).update(substitute_for=people["ann"])
    confirm(game, [(900, 400)])
    club_recompute(club_id=club.pk)
    rows = StandingsSnapshot.objects.get(event=event).rows
    by_name = {row["key"]: row for row in rows}
    names = {"+".join(n for n in people if people[n].pk in row["players"]) for row in by_name.values()}
    expected = {"+".join(sorted(k.split("+"), key=list(people).index)) for k in keys}
    assert names == expected
    bea_dee = next(row for row in rows if people["bea"].pk in row["players"])
    assert (bea_dee["games"], bea_dee["total_points"], bea_dee["losses"]) == (1, 400, 1)


def test_a_rotation_a_substitute_played_is_not_a_bye_of_the_members_partnership():
    club = ClubFactory()
    season = SeasonFactory(league=LeagueFactory(club=club, substitute_counts_for="neither"))
    ann, bea, cal, dee, sam = (PlayerFactory(club=club) for _ in range(5))
    event = EventFactory(club=club, season=season, format=Event.Format.ROUND_ROBIN,
                         status=Event.Status.FINISHED, sit_out_scoring=Event.SitOutScoring.FIXED,
                         bye_points=500)
    for a, b in ((ann, cal), (bea, dee)):
        first, second = sorted((a, b), key=lambda p: p.pk)
        pair = Partnership.objects.create(club=club, player_a=first, player_b=second)
        Registration.objects.create(event=event, partnership=pair, checked_in=True)
    confirm(make_game(event=event, players=[ann, bea, cal, dee], rotation_number=1), [(900, 400)])
    second = make_game(event=event, players=[sam, bea, cal, dee], rotation_number=2)
    Seat.objects.filter(table__game=second, player=sam).update(substitute_for=ann)
    confirm(second, [(700, 300)])
    club_recompute(club_id=club.pk)
    rows = {frozenset(row["players"]): row for row in StandingsSnapshot.objects.get(event=event).rows}
    ours = rows[frozenset((ann.pk, cal.pk))]
    assert (ours["games"], ours["byes"], ours["total_points"]) == (1, 0, 900)
    assert rows[frozenset((bea.pk, dee.pk))]["games"] == 2


def test_a_clubs_backup_restores_its_substitutes_and_their_counting():
    import io
    import json

    from django.core.management import call_command

    from site_pages.backup import club_import
    from tests.site_pages.test_backup import empty_the_database

    club, nights, players = _season("member", 2)
    before = StandingsSnapshot.objects.get(season__league__club=club).rows
    out = io.StringIO()
    call_command("export_club", club.slug, stdout=out)
    empty_the_database()
    restored = club_import(data=json.loads(out.getvalue())).club
    seats = Seat.objects.filter(rotation__event__club=restored, substitute_for__isnull=False)
    assert sorted((s.player.name, s.substitute_for.name) for s in seats) == [("Sam", "Ann")] * 3
    after = StandingsSnapshot.objects.get(season__league__club=restored).rows
    assert [(r["name"], r["nights"], r["score"]) for r in after] == \
        [(r["name"], r["nights"], r["score"]) for r in before]


@pytest.mark.parametrize(("choice", "ann_games"), [("member", NIGHTS), ("neither", NIGHTS - 3)])
def test_head_to_head_counts_the_games_played_for_a_member_as_the_league_chooses(choice, ann_games):
    from analytics.selectors import head_to_head

    club, nights, players = _season(choice, None)
    record = head_to_head(club_id=club.pk, a={players["Ann"].pk}, b={players["Bea"].pk}, viewer=None)
    assert record["games"] == ann_games


def test_changing_the_leagues_choice_recomputes_the_season(django_capture_on_commit_callbacks):
    from league.services.clubs import league_settings_update

    club, nights, players = _season("member", None)
    league = League.objects.get(club=club)
    with django_capture_on_commit_callbacks(execute=True):
        league_settings_update(league=league, by=None, substitute_counts_for="neither")
    rows = {row["name"]: row for row in StandingsSnapshot.objects.get(season__league=league).rows}
    assert rows["Ann"]["nights"] == NIGHTS - 3
    assert RatingHistory.objects.filter(player=players["Ann"]).count() == NIGHTS - 3

"""The fanned-out rebuild (`analytics.tasks.recompute_fanout`) writes what the sequential
`club_recompute` writes, row for row; here in eager mode, where the whole canvas runs in process."""

import datetime
import random

import pytest

from analytics import services, tasks
from analytics.models import (
    NightResult,
    PartnershipStats,
    PlayerRating,
    PlayerStats,
    RatedGame,
    RatingHistory,
    StandingsSnapshot,
    StandingsTable,
)
from league.models import Club
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, LeagueFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def _seeded_club(seed: int, *, nights: int = 3, tables: int = 2) -> Club:
    """A club with one season of `nights` nights (plus a night outside any season), each of two
    rotations at `tables` tables, every game's rounds drawn from `seed`."""
    rng = random.Random(seed)
    club = ClubFactory()
    season = SeasonFactory(league=LeagueFactory(club=club))
    players = [PlayerFactory(club=club) for _ in range(4 * tables + 2)]
    for night in range(nights + 1):
        event = EventFactory(club=club, season=season if night < nights else None,
                             date=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * night))
        for rotation in (1, 2):
            seated = rng.sample(players, 4 * tables)
            for table in range(tables):
                game = make_game(event=event, players=seated[4 * table:4 * table + 4],
                                 rotation_number=rotation, table_number=table + 1)
                rounds = [[rng.randrange(-500, 3000, 5) for _ in (0, 1)] for _ in range(2)]
                confirm(game, rounds, clean_books=[[rng.randint(0, 3), rng.randint(0, 3)]] * 2)
    return club


def _stored() -> dict[str, list]:
    """Every row the rebuild writes, without the times it was written."""
    return {
        "standings": sorted(StandingsSnapshot.objects.values_list(
            "event_id", "season_id", "games", "rows", "basis"), key=repr),
        "nights": sorted(NightResult.objects.values_list(
            "event_id", "key", "players", "name", "score", "total_points"), key=repr),
        "tables": sorted(StandingsTable.objects.values_list(
            "event_id", "season_id", "handicapped", "rows"), key=repr),
        "rated": sorted(RatedGame.objects.values_list(
            "club_id", "game_id", "position", "fingerprint", "results_version")),
        "history": sorted(RatingHistory.objects.values_list(
            "club_id", "player_id", "game_id", "position", "mu", "sigma", "ordinal", "games",
            "expected")),
        "ratings": sorted(PlayerRating.objects.values_list(
            "club_id", "player_id", "mu", "sigma", "ordinal", "games")),
        "player stats": sorted(PlayerStats.objects.values_list("club_id", "player_id", "data"),
                               key=repr),
        "pair stats": sorted(PartnershipStats.objects.values_list(
            "club_id", "player_a_id", "player_b_id", "data"), key=repr),
    }


def _forget_everything() -> None:
    for model in (StandingsSnapshot, NightResult, StandingsTable, RatedGame, RatingHistory,
                  PlayerRating, PlayerStats, PartnershipStats):
        model.objects.all().delete()


def test_the_fanned_out_rebuild_of_three_clubs_equals_the_sequential_one_and_changes_nothing_twice():
    clubs = [_seeded_club(seed) for seed in (1, 2, 3)]
    for club in clubs:
        services.club_recompute(club_id=club.pk)
    sequential = _stored()
    assert len(sequential["rated"]) == 3 * 4 * 2 * 2
    assert len(sequential["standings"]) == 3 * (4 + 1)  # four nights and the season each
    _forget_everything()

    tasks.recompute_fanout([club.pk for club in clubs])
    assert _stored() == sequential

    tasks.recompute_all_clubs.delay().get()  # again, over what is stored now: nothing changes
    assert _stored() == sequential


def test_the_plan_is_read_from_the_database_nights_in_bounded_parts_and_three_per_club(
        monkeypatch):
    with_games, without = _seeded_club(4, nights=2), ClubFactory()
    EventFactory(club=without)  # a night nobody played
    clubs = [with_games.pk, without.pk]

    def names() -> list[str]:
        return sorted(name for name, _ in tasks.fanout_plan(clubs).parts)

    # Each club's three nights of 4 games (two in the season, one outside) fit in one part.
    assert names().count("analytics.part.events") == 1 + 1
    monkeypatch.setattr(tasks, "PART_GAMES", 5)  # now each night is a part of its own
    assert names().count("analytics.part.events") == 3 + 1
    for per_club in ("analytics.part.seasons", "analytics.part.ratings",
                     "analytics.part.statistics"):
        assert names().count(per_club) == 2
    plan = tasks.fanout_plan(clubs)
    assert len({result.id for _, result in plan.parts}) == len(plan.parts)

    tasks.recompute_fanout(clubs)  # in parts of one night, the same rows as at once
    by_parts = _stored()
    _forget_everything()
    for club_id in clubs:
        services.club_recompute(club_id=club_id)
    assert _stored() == by_parts


def test_a_club_without_games_or_events_is_rebuilt_to_nothing():
    empty, quiet = ClubFactory(), ClubFactory()
    night = EventFactory(club=quiet)
    PlayerRating.objects.create(club=empty, player=PlayerFactory(club=empty), mu=30, sigma=8,
                                ordinal=6, games=1)  # left from games since deleted

    tasks.recompute_fanout([empty.pk, quiet.pk])

    assert not PlayerRating.objects.exists() and not RatedGame.objects.exists()
    snapshot = StandingsSnapshot.objects.get(event=night)
    assert (snapshot.games, snapshot.rows) == (0, [])

"""Reads of the ratings job: the club's games in the order played, the marks of the games
already rated and the players' ratings before a place in that order.

The games' sides and totals are the standings job's reads (`analytics.standings.selectors`).
"""

from __future__ import annotations

from collections.abc import Collection

from django.db import connection
from django.db.models import F, Max, Q

from analytics.models import RatedGame, RatingHistory
from analytics.ratings.compute import PlayerState
from analytics.standings.selectors import few_or_all
from games.models import RoundResult
from league.models import Game


def club_game_order(*, club_id: int) -> list[int]:
    """The club's confirmed games in the order played: event date, rotation, then the time the
    game was played when known, then table."""
    return list(
        Game.objects.filter(table__rotation__event__club_id=club_id, round_results__isnull=False)
        .distinct()
        .order_by(
            "table__rotation__event__date",
            "table__rotation__event_id",
            "table__rotation__number",
            F("played_at").asc(nulls_last=True),
            "table__number",
            "id",
        )
        .values_list("id", flat=True)
    )


def results_versions(*, game_filter: Q) -> dict[int, int]:
    """Each matched game's last result row id: it changes whenever the game's result is
    written again (results are replaced, never updated in place)."""
    return dict(
        RoundResult.objects.filter(game__in=few_or_all(Game.objects.filter(game_filter)))
        .values("game_id").annotate(version=Max("id")).order_by()
        .values_list("game_id", "version")
    )


OrderKey = tuple[object, ...]


def game_order_keys(*, game_filter: Q) -> dict[int, OrderKey]:
    """The sort key of `club_game_order` of each game matched by `game_filter` (a Q on Game):
    comparing two keys tells which game came first."""
    rows = Game.objects.filter(game_filter).values_list(
        "id", "table__rotation__event__date", "table__rotation__event_id",
        "table__rotation__number", "played_at", "table__number")
    return {game_id: (date, event_id, rotation, played_at is None, played_at or 0, table, game_id)
            for game_id, date, event_id, rotation, played_at, table in rows}


def first_game_id(*, club_id: int) -> int | None:
    order = club_game_order(club_id=club_id)
    return order[0] if order else None


def first_changed_position(*, club_id: int, order: list[int], fingerprints: list[str]) -> int:
    """The first place in the club's order (games `order`, with their `fingerprints`) where the
    rated games stored differ from them."""
    stored = list(
        RatedGame.objects.filter(club_id=club_id).order_by("position")
        .values_list("game_id", "fingerprint")
    )
    current = list(zip(order, fingerprints, strict=True))
    for position, (was, now) in enumerate(zip(stored, current, strict=False)):
        if was != now:
            return position
    return min(len(stored), len(current))


def last_rated_game(*, club_id: int) -> tuple[int, int] | None:
    """(position, game id) of the club's last rated game, None before the first."""
    return (RatedGame.objects.filter(club_id=club_id).order_by("-position")
            .values_list("position", "game_id").first())


def states_before(*, club_id: int, position: int,
                  player_ids: Collection[int] | None = None) -> dict[int, PlayerState]:
    """Each player's rating after their last game before `position` (one query; PostgreSQL
    returns only those rows, elsewhere the later rows of a player overwrite the earlier).
    Only `player_ids`' when given."""
    if position == 0:
        return {}
    rows = RatingHistory.objects.filter(club_id=club_id, position__lt=position)
    if player_ids is not None:
        rows = rows.filter(player_id__in=list(player_ids))
    if connection.vendor == "postgresql":
        rows = rows.order_by("player_id", "-position").distinct("player_id")
    else:
        rows = rows.order_by("player_id", "position")
    return {
        player_id: PlayerState(mu, sigma, games)
        for player_id, mu, sigma, games in rows.values_list(
            "player_id", "mu", "sigma", "games").iterator(chunk_size=10000)
    }

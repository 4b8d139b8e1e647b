"""Reads of the analytics: game results shaped for the computations, and the stored snapshots.

Loading functions use `.values_list()` and a fixed number of queries whatever the data size.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict

from django.db.models import F, Q, Sum

from analytics.models import PartnershipStats, PlayerRating, PlayerStats, StandingsSnapshot
from analytics.standings import GameResult, SideResult
from games.models import RoundResult
from league.models import Event, Game, Player, Season, Seat


def game_results(game_filter: Q) -> dict[int, GameResult]:
    """Each game's sides (players and game totals), for the games matched by `game_filter`
    (a Q on Game) that have a confirmed result."""
    totals = (
        RoundResult.objects.filter(game__in=Game.objects.filter(game_filter))
        .values_list("game_id", "side")
        .annotate(total=Sum("score"), held=Sum("held_points"))
        .order_by()
    )
    seats = Seat.objects.filter(table__game__in=Game.objects.filter(game_filter)).values_list(
        "table__game__id", "side", "player_id"
    )
    players: dict[tuple[int, int], list[int]] = defaultdict(list)
    for game_id, side, player_id in seats:
        players[(game_id, side)].append(player_id)
    sides: dict[int, list[tuple[int, SideResult]]] = defaultdict(list)
    for game_id, side, total, held in totals:
        member_ids = tuple(sorted(players.get((game_id, side), ())))
        sides[game_id].append((side, SideResult(member_ids, int(total), int(held))))
    return {
        game_id: GameResult(game_id, tuple(s for _, s in sorted(entries, key=lambda e: e[0])))
        for game_id, entries in sides.items()
    }


def club_game_order(club_id: int) -> list[int]:
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


def game_fingerprint(game: GameResult) -> str:
    """Changes whenever anything a rating depends on changes (players, sides, totals)."""
    text = "|".join(f"{s.players}:{s.total}" for s in game.sides)
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:16]


def player_names(player_ids) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=list(player_ids)).values_list("pk", "name"))


def event_standings(event: Event) -> StandingsSnapshot | None:
    """The event's stored standings (None before the first recompute)."""
    return StandingsSnapshot.objects.filter(event=event).first()


def season_standings(season: Season) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(season=season).first()


def season_event_snapshots(season: Season) -> list[tuple[Event, StandingsSnapshot]]:
    snapshots = StandingsSnapshot.objects.filter(event__season=season).select_related("event")
    return [(s.event, s) for s in snapshots]


def leaderboard(club_id: int | None, *, min_games: int) -> list[PlayerRating]:
    ratings = PlayerRating.objects.filter(games__gte=min_games).select_related("player__club")
    if club_id is not None:
        ratings = ratings.filter(club_id=club_id)
    return list(ratings.order_by("-ordinal", "player__name"))


def player_stats(player: Player) -> dict:
    stats = PlayerStats.objects.filter(player=player).values_list("data", flat=True).first()
    return stats or {}


def player_partnerships(player: Player) -> list[PartnershipStats]:
    return list(
        PartnershipStats.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("player_a", "player_b")
        .order_by("-data__games")
    )

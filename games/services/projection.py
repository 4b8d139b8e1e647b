"""Projection: the confirmed version of a game becomes its `RoundResult` and `SeatRoundFacts`
rows (what standings and statistics read) and its `Game.status`."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games import signals
from games.models import ResultVersion, RoundResult, SeatRoundFacts
from games.selectors import GameTable, game_table
from handfoot.rules import ENTERED_PARTS
from league.models import Game


def _derived_status(game: Game) -> str:
    statuses = set(game.result_versions.values_list("status", flat=True))
    for status in (Game.Status.CONFIRMED, Game.Status.DISPUTED, Game.Status.ENTERED):
        if status in statuses:
            return status
    return Game.Status.PENDING


def game_status_sync(*, game: Game) -> None:
    game.status = _derived_status(game)
    if game.status != Game.Status.PENDING and game.played_at is None:
        game.played_at = timezone.now()
    game.save(update_fields=["status", "played_at"])


def _round_results(game: Game, r: dict[str, Any]) -> list[RoundResult]:
    if r.get("detail") is False:
        # Scores only (a totals-only result): the rest is unknown, not zero, and `detail`
        # tells the statistics to leave it out.
        return [
            RoundResult(
                game=game,
                round_number=r["round"],
                side=side_number,
                score=side["score"],
                ended_by="",
                detail=False,
            )
            for side_number, side in enumerate(r["sides"])
        ]
    return [
        RoundResult(
            game=game,
            round_number=r["round"],
            side=side_number,
            score=side["score"],
            # a column per part a scorer writes (handfoot.rules.ENTERED_PARTS)
            **{part.name: side.get(part.name, part.default) for part in ENTERED_PARTS},
            ended_by=r["ended_by"],
        )
        for side_number, side in enumerate(r["sides"])
    ]


SEAT_FACTS = (
    "turns",
    "foot_turn",
    "pickups",
    "cards_picked_up",
    "melds_started",
    "cards_laid",
    "wilds_in_dirty",
    "black_threes_discarded",
    "cards_held",
    "held_points",
    "first_laydown_turn",
    "red_threes",
)


def _seat_facts(game: Game, r: dict[str, Any], player_ids: list[int]) -> list[SeatRoundFacts]:
    return [
        SeatRoundFacts(
            game=game,
            round_number=r["round"],
            seat_number=seat["seat"],
            player_id=player_ids[seat["seat"]],
            side=seat["side"],
            **{k: seat[k] for k in SEAT_FACTS},
        )
        for seat in r.get("seats") or []
    ]


def result_project(*, game: Game, table: GameTable | None = None) -> None:
    """Replace the game's `RoundResult` and `SeatRoundFacts` rows by its confirmed version (none
    when it has none), set `Game.status`, and after commit announce
    `games.signals.results_changed` for the event (the analytics recompute it). `table`: the
    game's table as the request read it (else read here, when seat facts need its players)."""
    with transaction.atomic():
        RoundResult.objects.filter(game=game).delete()
        SeatRoundFacts.objects.filter(game=game).delete()
        current = game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()
        if current is not None:
            player_ids = (table or game_table(game=game)).player_ids
            RoundResult.objects.bulk_create(
                [row for r in current.rounds for row in _round_results(game, r)]
            )
            SeatRoundFacts.objects.bulk_create(
                [row for r in current.rounds for row in _seat_facts(game, r, player_ids)]
            )
        game_status_sync(game=game)
        event_id = game.table.rotation.event_id
        game_id = game.pk
        transaction.on_commit(
            lambda: signals.results_changed.send(sender=Game, event_id=event_id, game_id=game_id)
        )

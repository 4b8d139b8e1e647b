"""Projection: the confirmed version of a game becomes its `RoundResult` and `SeatRoundFacts`
rows (what standings and statistics read) and its `Game.status`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import fields
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import signals
from games.models import ResultVersion, RoundResult, SeatRoundFacts
from games.selectors import GameTable, game_table
from handfoot.report import SeatFacts
from handfoot.rules import ENTERED_PARTS
from league.models import Game

# The events whose results changed while `announcements_held` is open (None: not held).
_held_events: ContextVar[set[int] | None] = ContextVar("games_held_events", default=None)


@contextmanager
def announcements_held() -> Iterator[set[int]]:
    """For code that stores many results in one go (an import of past results): the games'
    `results_changed` are not announced one by one (2,000 games asked for 2,000 jobs); the
    block gives the set of events changed, which the caller announces once
    (`games.signals.results_imported`)."""
    held: set[int] = set()
    token = _held_events.set(held)
    try:
        yield held
    finally:
        _held_events.reset(token)


def _derived_status(game: Game, versions: Sequence[ResultVersion] | None) -> str:
    statuses = (
        set(game.result_versions.values_list("status", flat=True))
        if versions is None
        else {v.status for v in versions}
    )
    for status in (Game.Status.CONFIRMED, Game.Status.DISPUTED, Game.Status.ENTERED):
        if status in statuses:
            return status
    return Game.Status.PENDING


def game_status_sync(*, game: Game, versions: Sequence[ResultVersion] | None = None) -> None:
    """`Game.status` from its versions' statuses (`versions`: every version of the game as the
    caller holds them, up to date, with the game row locked; else read here)."""
    game_status_derive(game=game, versions=versions)
    game.save(update_fields=["status", "played_at"])


def game_status_derive(
    *, game: Game, versions: Sequence[ResultVersion] | None = None, now: datetime | None = None
) -> None:
    """What `game_status_sync` sets, in memory only, for a caller that saves a batch's games in
    one go (`game_played_at`, with the same `now`)."""
    game.status = _derived_status(game, versions)
    if _played(game.status) and game.played_at is None:
        game.played_at = now or timezone.now()


def game_played_at(*, status: str, now: datetime) -> Coalesce | F:
    """`Game.played_at` as `game_status_derive` sets it, for an update of games of `status`."""
    return Coalesce(F("played_at"), Value(now)) if _played(status) else F("played_at")


def _played(status: str) -> bool:
    return status != Game.Status.PENDING


def _round_results(game: Game, r: dict[str, Any]) -> list[RoundResult]:
    return [
        RoundResult(
            game=game,
            round_number=r["round"],
            side=side_number,
            score=side["score"],
            **_side_detail(r, side),
        )
        for side_number, side in enumerate(r["sides"])
    ]


def _side_detail(r: dict[str, Any], side: dict[str, Any]) -> dict[str, Any]:
    """A side's `RoundResult` columns beyond its score."""
    if r.get("detail") is False:
        # Scores only (a totals-only result): the rest is unknown, not zero, and `detail`
        # tells the statistics to leave it out.
        return {"ended_by": "", "detail": False}
    # a column per part a scorer writes (handfoot.rules.ENTERED_PARTS)
    return {
        **{part.name: side.get(part.name, part.default) for part in ENTERED_PARTS},
        "ended_by": r["ended_by"],
    }


# what a log's replay knows of each seat (`handfoot.report.SeatFacts`), but who sat there
SEAT_FACTS = tuple(f.name for f in fields(SeatFacts) if f.name not in {"seat", "player", "side"})


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


def _confirmed(game: Game, versions: Sequence[ResultVersion] | None) -> ResultVersion | None:
    if versions is None:
        return game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()
    return next(
        (v for v in sorted(versions, key=lambda v: v.number)
         if v.status == ResultVersion.Status.CONFIRMED),
        None,
    )


def result_project(
    *,
    game: Game,
    table: GameTable | None = None,
    versions: Sequence[ResultVersion] | None = None,
) -> None:
    """Replace the game's `RoundResult` and `SeatRoundFacts` rows by its confirmed version (none
    when it has none), set `Game.status`, and after commit announce
    `games.signals.results_changed` for the event (the analytics recompute it). `table`: the
    game's table as the request read it (else read here, when seat facts need its players);
    `versions`: every version of the game as the caller holds them, up to date (the game row
    locked), else read here."""
    # All or nothing with the caller's transaction (every caller runs inside one and lets an
    # error roll it back whole): no savepoint of its own, two queries fewer.
    with transaction.atomic(savepoint=False):
        RoundResult.objects.filter(game=game).delete()
        SeatRoundFacts.objects.filter(game=game).delete()
        current = _confirmed(game, versions)
        if current is not None:
            player_ids = (table or game_table(game=game)).player_ids
            RoundResult.objects.bulk_create(
                [row for r in current.rounds for row in _round_results(game, r)]
            )
            SeatRoundFacts.objects.bulk_create(
                [row for r in current.rounds for row in _seat_facts(game, r, player_ids)]
            )
        game_status_sync(game=game, versions=versions)
        event_id = game.table.rotation.event_id
        game_id = game.pk
        if (held := _held_events.get()) is not None:
            held.add(event_id)  # announced once by the caller
            return
        transaction.on_commit(
            lambda: signals.results_changed.send(sender=Game, event_id=event_id, game_id=game_id)
        )

"""Result objects shared by log replay and sheet checking (see formats.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import EngineError
from .rules import SIDE_PARTS

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Any


@dataclass(slots=True)
class SideScore:
    """A side's score in one round, with its parts."""

    clean_books: int
    dirty_books: int
    wild_books: int
    clean_bonus: int
    dirty_bonus: int
    wild_bonus: int
    red_threes: int
    red_three_points: int
    table_points: int
    held_points: int
    going_out_bonus: int
    went_out: bool

    @property
    def score(self) -> int:
        return (
            self.clean_bonus
            + self.dirty_bonus
            + self.wild_bonus
            + self.red_three_points
            + self.table_points
            + self.going_out_bonus
            - self.held_points
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "books": {
                "clean": {"count": self.clean_books, "bonus": self.clean_bonus},
                "dirty": {"count": self.dirty_books, "bonus": self.dirty_bonus},
                "wild": {"count": self.wild_books, "bonus": self.wild_bonus},
            },
            # every part of the score, as declared once (handfoot.rules.SIDE_PARTS)
            **{part.name: getattr(self, part.name) for part in SIDE_PARTS},
        }


@dataclass(slots=True)
class SeatFacts:
    """What one seat did in one round (a log's replay)."""

    seat: int
    player: str
    side: int
    turns: int = 0
    foot_turn: int | None = None
    pickups: int = 0
    cards_picked_up: int = 0
    melds_started: int = 0
    cards_laid: int = 0
    wilds_in_dirty: int = 0
    black_threes_discarded: int = 0
    cards_held: int = 0
    held_points: int = 0
    first_laydown_turn: int | None = None
    red_threes: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "side": self.side,
            "turns": self.turns,
            "foot_turn": self.foot_turn,
            "pickups": self.pickups,
            "cards_picked_up": self.cards_picked_up,
            "melds_started": self.melds_started,
            "cards_laid": self.cards_laid,
            "wilds_in_dirty": self.wilds_in_dirty,
            "black_threes_discarded": self.black_threes_discarded,
            "cards_held": self.cards_held,
            "held_points": self.held_points,
            "first_laydown_turn": self.first_laydown_turn,
            "red_threes": self.red_threes,
        }


@dataclass(slots=True)
class RoundReport:
    """One round's result: how it ended, each side's score and each seat's facts."""

    round: int
    ended_by: str  # "went_out" | "stock_out"
    went_out_seat: int | None
    sides: list[SideScore]
    seats: list[SeatFacts] = field(default_factory=list)

    @property
    def scores(self) -> list[int]:
        return [s.score for s in self.sides]

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "ended_by": self.ended_by,
            "went_out_seat": self.went_out_seat,
            "sides": [s.to_dict() for s in self.sides],
            "seats": [s.to_dict() for s in self.seats],
        }


@dataclass(slots=True)
class GameReport:
    """What replaying a log (kind "log") or checking a sheet (kind "sheet") found.

    For an invalid input `rounds` and `totals` hold the rounds that completed
    validly before the first error (possibly none).
    """

    kind: str
    valid: bool
    error: EngineError | None = None
    rounds: list[RoundReport] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "valid": self.valid,
            "error": None if self.error is None else self.error.to_dict(),
            "rounds": [r.to_dict() for r in self.rounds],
            "totals": list(self.totals),
        }


def totals_of(rounds: list[RoundReport], sides: int) -> list[int]:
    totals = [0] * sides
    for r in rounds:
        for i, s in enumerate(r.sides):
            totals[i] += s.score
    return totals

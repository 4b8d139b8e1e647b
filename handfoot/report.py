"""Result objects shared by log replay and sheet checking (see formats.md)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .errors import EngineError
from .rules import BOOK_BONUSES, SCORE_PARTS, SIDE_PARTS, PartKind

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Any


_ADDED = tuple(p.name for p in SCORE_PARTS if p.adds > 0)
_TAKEN = tuple(p.name for p in SCORE_PARTS if p.adds < 0)


def with_score_parts[T](cls: type[T]) -> type[T]:
    """`cls` as a keyword-only slots dataclass with a field for every declared part of a side's
    score (`rules.SCORE_PARTS`, in that order) before its own: a part is declared once, and a
    value can never land in another part's field."""
    own = cls.__dict__.get("__annotations__", {})
    parts = {p.name: "bool" if p.kind == PartKind.YES_NO else "int" for p in SCORE_PARTS}
    cls.__annotations__ = {**parts, **own}
    return dataclass(kw_only=True, slots=True)(cls)


@with_score_parts
class SideScore:
    """A side's score in one round, with its parts (`rules.SCORE_PARTS`), given by keyword."""

    if TYPE_CHECKING:  # the type checker's view of the fields `with_score_parts` adds

        def __init__(self, **parts: int) -> None: ...

        def __getattr__(self, name: str) -> int: ...

    @property
    def score(self) -> int:
        """The parts that add up (`ScoringPart.adds`) less those taken away."""
        added: int = sum([getattr(self, name) for name in _ADDED])
        taken: int = sum([getattr(self, name) for name in _TAKEN])
        return added - taken

    def parts(self) -> dict[str, int]:
        """Every part by name (`rules.SCORE_PARTS`)."""
        return {p.name: getattr(self, p.name) for p in SCORE_PARTS}

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "books": {
                p.book: {"count": getattr(self, p.counts), "bonus": getattr(self, p.name)}
                for p in BOOK_BONUSES
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
        return {name: getattr(self, name) for name in _SEAT_FACTS}


_SEAT_FACTS = tuple(f.name for f in fields(SeatFacts))


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

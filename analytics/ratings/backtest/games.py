"""A game as a backtest reads it: its night, its sides' players and totals, and, when known,
each round's totals per side (margin-aware systems can learn from every round)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BacktestGame:
    game_id: int
    night: int
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...] = ()

    @property
    def rated(self) -> bool:
        """Two or more sides with players (a sit-out or a walk-over teaches nothing)."""
        return sum(1 for side in self.sides if side) >= 2

    @property
    def winner(self) -> int | None:
        """The side with the highest total, None on a tie for the top."""
        best = max(self.totals)
        leaders = [i for i, total in enumerate(self.totals) if total == best]
        return leaders[0] if len(leaders) == 1 else None

    def margins(self) -> tuple[float, ...]:
        """Each side's total against the mean of the other sides' totals."""
        return side_margins(self.totals)

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for side in self.sides for p in side)


def side_margins(totals: tuple[int, ...] | tuple[float, ...]) -> tuple[float, ...]:
    count = len(totals)
    whole = sum(totals)
    return tuple(t - (whole - t) / (count - 1) for t in totals)

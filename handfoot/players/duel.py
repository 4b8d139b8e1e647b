"""Duplicate matches between two levels: each deal played twice, the sides swapped, so luck of
the cards cancels out; a mean margin per game with its 95 % confidence interval."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import fmean, stdev
from typing import Any

from ..replay import replay_log
from .base import Player
from .table import IllegalMove, PlayedGame, Table, play_game

Z95 = 1.959964  # the normal distribution's two-sided 95 % point
# Student's t two-sided 95 % points for 1..28 degrees of freedom (fewer than 30 deal pairs): with few deal pairs the normal
# point would make the interval too narrow
T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048,
)


@dataclass(frozen=True, slots=True)
class GameOutcome:
    margin: float  # mean score of a's sides minus that of b's sides
    a_won: float  # 1 a win, 0.5 a tie, 0 a loss (a's best side against b's best side)


@dataclass(frozen=True, slots=True)
class DuelResult:
    a: str
    b: str
    pair_margins: tuple[float, ...]  # per deal pair: the mean margin of its two games
    wins: tuple[float, ...]  # per game, as GameOutcome.a_won

    @property
    def games(self) -> int:
        return len(self.wins)

    @property
    def win_rate(self) -> float:
        return fmean(self.wins) if self.wins else math.nan

    @property
    def mean_margin(self) -> float:
        return fmean(self.pair_margins) if self.pair_margins else math.nan

    def interval(self) -> tuple[float, float]:
        """The 95 % confidence interval of the mean margin per game over the deal pairs'
        margins (each pair's two games share their cards, so the pair is the independent unit):
        the normal approximation from 30 pairs on, Student's t below."""
        n = len(self.pair_margins)
        if n < 2:
            return (-math.inf, math.inf)
        point = T95[n - 2] if n - 1 <= len(T95) else Z95  # by the degrees of freedom, n - 1
        half = point * stdev(self.pair_margins) / math.sqrt(n)
        return (self.mean_margin - half, self.mean_margin + half)

    def summary(self) -> dict[str, Any]:
        low, high = self.interval()
        return {
            "a": self.a, "b": self.b, "games": self.games, "deal_pairs": len(self.pair_margins),
            "a_win_rate": round(self.win_rate, 4), "mean_margin": round(self.mean_margin, 1),
            "margin_95": [round(low, 1), round(high, 1)],
        }  # fmt: skip


def outcome(totals: tuple[int, ...], a_sides: list[int]) -> GameOutcome:
    a_scores = [t for k, t in enumerate(totals) if k in a_sides]
    b_scores = [t for k, t in enumerate(totals) if k not in a_sides]
    best_a, best_b = max(a_scores), max(b_scores)
    won = 1.0 if best_a > best_b else 0.5 if best_a == best_b else 0.0
    return GameOutcome(fmean(a_scores) - fmean(b_scores), won)


def checked(game: PlayedGame) -> PlayedGame:
    """The game, once its log passes the engine's check with the same totals."""
    report = replay_log(game.log)
    if not report.valid or tuple(report.totals) != game.totals:
        raise IllegalMove(f"a duel's log does not pass the check: {report.error}")
    return game


def deal_seed(seed: int, deal: int) -> int:
    """The seed of one deal of a duel: duels of different seeds share no deal."""
    return seed * 1_000_000 + deal


def duel(
    rules: Any, players: int, a: Player, b: Player, deals: int, seed: int,
    sides: int | None = None, individual: bool = False, rounds: int | None = None,
) -> DuelResult:
    """`deals` duplicate deal pairs: a plays the even sides, then the same cards again with b
    there."""
    first = Table.by_side(rules, players, [a, b], sides, individual)
    second = Table.by_side(rules, players, [b, a], sides, individual)
    a_first = [k for k in range(first.nsides) if k % 2 == 0]
    a_second = [k for k in range(first.nsides) if k % 2 == 1]
    margins, wins = [], []
    for d in range(deals):
        s = deal_seed(seed, d)
        one = outcome(checked(play_game(first, s, rounds)).totals, a_first)
        two = outcome(checked(play_game(second, s, rounds)).totals, a_second)
        margins.append((one.margin + two.margin) / 2)
        wins += [one.a_won, two.a_won]
    return DuelResult(a.name, b.name, tuple(margins), tuple(wins))

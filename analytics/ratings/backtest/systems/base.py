"""The interface every candidate rating system implements, and the arithmetic they share."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from analytics.ratings.backtest.games import BacktestGame

SQRT2 = math.sqrt(2.0)


@dataclass(frozen=True)
class Prediction:
    """Each side's chance to win (they add up to 1) and its expected margin in points (its total
    against the mean of the other sides')."""

    win: tuple[float, ...]
    margin: tuple[float, ...]


class RatingSystem(Protocol):
    name: str

    def predict(self, game: BacktestGame) -> Prediction: ...

    def update(self, game: BacktestGame) -> None: ...

    def night_over(self, night: int) -> None: ...

    def strength(self, player: int) -> float: ...


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / SQRT2))


def shares(strengths: list[float], spread: float) -> tuple[float, ...]:
    """Each side's chance to win from strengths on a logistic scale of `spread` (two sides:
    the Elo curve; more: the same curve's softmax)."""
    top = max(strengths)
    weights = [math.exp((s - top) / spread) for s in strengths]
    whole = sum(weights)
    return tuple(w / whole for w in weights)


def pairwise_gaussian(means: list[float], variances: list[float]) -> tuple[float, ...]:
    """Each side's chance to win when side totals are independent normals: exact for two
    sides, each side against the field's best other side approximated for more."""
    if len(means) == 2:
        p = normal_cdf((means[0] - means[1]) / math.sqrt(variances[0] + variances[1]))
        return (p, 1.0 - p)
    raw = []
    for i, (mean, variance) in enumerate(zip(means, variances, strict=True)):
        p = 1.0
        for j, (other, other_variance) in enumerate(zip(means, variances, strict=True)):
            if j != i:
                p *= normal_cdf((mean - other) / math.sqrt(variance + other_variance))
        raw.append(p)
    whole = sum(raw) or 1.0
    return tuple(p / whole for p in raw)


class MarginFromChance:
    """An expected margin for a system that predicts only who wins: the points per unit of
    log-odds learnt from the games already played (least squares through the origin), so no
    game's own margin is used to predict it."""

    def __init__(self, start: float = 800.0) -> None:
        self._xy = 0.0
        self._xx = 0.0
        self._start = start

    def margins(self, win: tuple[float, ...]) -> tuple[float, ...]:
        slope = self._xy / self._xx if self._xx > 1e-9 else self._start
        return tuple(slope * _log_odds(p) for p in win)

    def learn(self, win: tuple[float, ...], margins: tuple[float, ...]) -> None:
        for p, margin in zip(win, margins, strict=True):
            x = _log_odds(p)
            self._xy += x * margin
            self._xx += x * x


def _log_odds(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))

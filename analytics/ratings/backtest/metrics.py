"""How good a system's predictions were: log-loss and Brier score of the chance it gave the
winner, how often its favourite won, calibration by deciles (when it said 70 %, how often that
side won) and the error of its expected margins; and the paired difference between two systems'
log-losses on the same games, with its 95 % interval."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from analytics.ratings.backtest.games import BacktestGame
from analytics.ratings.backtest.systems.base import Prediction

FLOOR = 1e-6  # a prediction of 0 for what happened would make the log-loss infinite
DECILES = 10


@dataclass
class Decile:
    predicted: float = 0.0
    won: int = 0
    count: int = 0

    @property
    def mean_predicted(self) -> float:
        return self.predicted / self.count if self.count else 0.0

    @property
    def won_share(self) -> float:
        return self.won / self.count if self.count else 0.0


@dataclass
class Scores:
    """One system's running scores over the games predicted (ties for the top are not scored
    for who wins, but their margins are)."""

    losses: list[float] = field(default_factory=list)  # each game's, for paired comparisons
    brier_sum: float = 0.0
    hits: int = 0
    margin_error_sum: float = 0.0
    margins: int = 0
    deciles: list[Decile] = field(default_factory=lambda: [Decile() for _ in range(DECILES)])

    def add(self, game: BacktestGame, prediction: Prediction) -> None:
        for predicted, actual in zip(prediction.margin, game.margins(), strict=True):
            self.margin_error_sum += abs(predicted - actual)
            self.margins += 1
        winner = game.winner
        if winner is None:
            return
        self.losses.append(-math.log(max(prediction.win[winner], FLOOR)))
        self.brier_sum += sum((p - (i == winner)) ** 2 for i, p in enumerate(prediction.win))
        self.hits += max(range(len(prediction.win)), key=prediction.win.__getitem__) == winner
        for i, p in enumerate(prediction.win):
            decile = self.deciles[min(int(p * DECILES), DECILES - 1)]
            decile.predicted += p
            decile.won += i == winner
            decile.count += 1

    @property
    def games(self) -> int:
        return len(self.losses)

    @property
    def log_loss(self) -> float:
        return statistics.fmean(self.losses) if self.losses else math.nan

    @property
    def brier(self) -> float:
        return self.brier_sum / self.games if self.games else math.nan

    @property
    def accuracy(self) -> float:
        return self.hits / self.games if self.games else math.nan

    @property
    def margin_error(self) -> float:
        return self.margin_error_sum / self.margins if self.margins else math.nan

    @property
    def calibration_error(self) -> float:
        """The mean gap between predicted and observed win shares, weighted by each decile's
        predictions (the expected calibration error)."""
        total = sum(d.count for d in self.deciles)
        if not total:
            return math.nan
        return sum(abs(d.mean_predicted - d.won_share) * d.count for d in self.deciles) / total


@dataclass(frozen=True)
class Difference:
    mean: float
    low: float
    high: float
    games: int


def log_loss_difference(candidate: Scores, baseline: Scores) -> Difference:
    """The candidate's log-loss less the baseline's over the same games, with a 95 % interval
    (paired: each game's difference; below zero is better)."""
    pairs = [a - b for a, b in zip(candidate.losses, baseline.losses, strict=True)]
    if len(pairs) < 2:
        return Difference(math.nan, math.nan, math.nan, len(pairs))
    mean = statistics.fmean(pairs)
    half = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs))
    return Difference(mean, mean - half, mean + half, len(pairs))


def spearman(xs: list[float], ys: list[float]) -> float:
    """Rank correlation (ties share their mean rank)."""
    if len(xs) < 2:
        return math.nan
    return statistics.correlation(_ranks(xs), _ranks(ys))


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks

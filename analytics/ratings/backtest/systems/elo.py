"""Elo for partnerships: a side's rating is its players' mean; after a game each player moves by
K times (result - expectation). The margin-aware variant scales K by how decisive the win was
(the margin-of-victory multiplier FiveThirtyEight uses: log of the margin in units plus one)."""

from __future__ import annotations

import math
from collections import defaultdict

from analytics.ratings.backtest.games import BacktestGame
from analytics.ratings.backtest.systems.base import MarginFromChance, Prediction, shares

ELO_SPREAD = 400 / math.log(10)  # the Elo curve: 400 points are ten to one


class Elo:
    def __init__(self, *, k: float = 16.0, margin_unit: float | None = None,
                 name: str = "Elo") -> None:
        self.name = name
        self.k = k
        self.margin_unit = margin_unit
        self.ratings: dict[int, float] = defaultdict(lambda: 1500.0)
        self._margins = MarginFromChance()

    def _side_ratings(self, game: BacktestGame) -> list[float]:
        return [sum(self.ratings[p] for p in side) / len(side) for side in game.sides]

    def predict(self, game: BacktestGame) -> Prediction:
        win = shares(self._side_ratings(game), ELO_SPREAD)
        return Prediction(win, self._margins.margins(win))

    def update(self, game: BacktestGame) -> None:
        win = shares(self._side_ratings(game), ELO_SPREAD)
        margins = game.margins()
        self._margins.learn(win, margins)
        winner = game.winner
        for i, side in enumerate(game.sides):
            result = 0.5 if winner is None else float(i == winner)
            step = self.k * self._multiplier(margins[i]) * (result - win[i])
            for player in side:
                self.ratings[player] += step

    def _multiplier(self, margin: float) -> float:
        if self.margin_unit is None:
            return 1.0
        return math.log(abs(margin) / self.margin_unit + 1.0) + 0.5

    def night_over(self, night: int) -> None:
        return None

    def strength(self, player: int) -> float:
        return self.ratings[player]

"""A margin model with Gaussian skills (a Kalman filter): each player's skill is a normal
belief; a side's margin, in points, is the sum of its players' skills less the other side's plus
noise. Every game (or every round, in the per-round variant) is an observation that moves the
players' means and narrows their spread exactly as Bayes' rule does for a linear Gaussian model
(players' beliefs kept independent, as TrueSkill does); between nights each spread widens a
little, so a player who improves is followed.

The scale follows the club: a margin's noise is the spread of the margins seen so far (games of
another preset or a club that scores higher need no other settings), and a player's prior spread
a fixed share of it (`SKILL_SHARE`, tuned on simulated leagues other than those it is judged on).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from analytics.ratings.backtest.games import BacktestGame, side_margins
from analytics.ratings.backtest.systems.base import Prediction, pairwise_gaussian


@dataclass
class Belief:
    mean: float
    variance: float


SKILL_SHARE = 0.24  # a player's prior spread / a game margin's noise
DRIFT_SHARE = 0.0075  # how much a player's spread widens between nights / the noise
START_NOISE_SD = 2000.0  # until the club has shown its margins
SETTLED_MARGINS = 20  # margins seen before the club's own spread is used


class GaussianMargin:
    def __init__(self, *, per_round: bool = False, name: str = "") -> None:
        self.name = name or ("Margins per round" if per_round else "Margins per game")
        self.per_round = per_round
        self.beliefs: dict[int, Belief] = {}
        self._squares = 0.0
        self._margins = 0
        self._set_scale(START_NOISE_SD)

    def _set_scale(self, noise_sd: float) -> None:
        self.noise_variance = noise_sd ** 2
        self.prior_variance = (SKILL_SHARE * noise_sd) ** 2
        self.drift_variance = (DRIFT_SHARE * noise_sd) ** 2

    def _belief(self, player: int) -> Belief:
        belief = self.beliefs.get(player)
        if belief is None:
            belief = self.beliefs[player] = Belief(0.0, self.prior_variance)
        return belief

    def _side(self, side: tuple[int, ...]) -> tuple[float, float]:
        beliefs = [self._belief(p) for p in side]
        return sum(b.mean for b in beliefs), sum(b.variance for b in beliefs)

    def predict(self, game: BacktestGame) -> Prediction:
        sides = [self._side(side) for side in game.sides]
        means = [mean for mean, _ in sides]
        noise = self.noise_variance / 2  # each side's share of a margin's noise
        win = pairwise_gaussian(means, [variance + noise for _, variance in sides])
        return Prediction(win, side_margins(tuple(means)))

    def update(self, game: BacktestGame) -> None:
        if len(game.totals) == 2:
            self._squares += (game.totals[0] - game.totals[1]) ** 2
            self._margins += 1
        observations = game.rounds if self.per_round and game.rounds else (game.totals,)
        noise = self.noise_variance / len(observations)
        for totals in observations:
            self._observe(game.sides, totals, noise)

    def _observe(self, sides: tuple[tuple[int, ...], ...], totals: tuple[int, ...],
                 noise: float) -> None:
        """Each pair of sides' margin as one observation of their skills' difference."""
        for i in range(len(sides)):
            for j in range(i + 1, len(sides)):
                self._observe_pair(sides[i], sides[j], totals[i] - totals[j], noise)

    def _observe_pair(self, a: tuple[int, ...], b: tuple[int, ...], margin: float,
                      noise: float) -> None:
        mean_a, var_a = self._side(a)
        mean_b, var_b = self._side(b)
        surprise = margin - (mean_a - mean_b)
        total_variance = var_a + var_b + noise
        for players, sign in ((a, 1.0), (b, -1.0)):
            for player in players:
                belief = self.beliefs[player]
                gain = belief.variance / total_variance
                belief.mean += sign * gain * surprise
                belief.variance *= 1.0 - gain

    def night_over(self, night: int) -> None:
        if self._margins >= SETTLED_MARGINS:
            self._set_scale(math.sqrt(self._squares / self._margins))
        for belief in self.beliefs.values():
            belief.variance = min(belief.variance + self.drift_variance, self.prior_variance)

    def strength(self, player: int) -> float:
        return self._belief(player).mean

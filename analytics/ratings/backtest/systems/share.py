"""Margins as shares of the points scored: the Gaussian margin model (`gaussian`) on a scale
every preset and club shares. A game's margin between two sides is taken as a share of the
points a side scored in it (their totals' mean size), so a 2,000-point win in a game of
8,000-point sides counts as 0.25 whatever the rules' scoring; each player's skill is a normal
belief on that scale, and the update is Bayes' rule for the linear Gaussian model (beliefs kept
independent). It needs nothing but the players' own beliefs: a game is rated from its players'
ratings alone, as the ratings job's quick path does.

Its two settings were tuned on simulated leagues other than those it is judged on."""

from __future__ import annotations

from analytics.ratings.backtest.games import BacktestGame
from analytics.ratings.backtest.systems.base import MarginFromChance, Prediction, pairwise_gaussian

PRIOR_SD = 0.08  # a new player's skill spread: the share of a side's points they add or cost
NOISE_SD = 0.33  # a game's margin share around what the players' skills make it
SMALLEST_SIDE = 500.0  # the size of a side's points below which shares would run wild

Belief = tuple[float, float]  # mean, variance
NEW: Belief = (0.0, PRIOR_SD ** 2)


def side_chances(sides: list[list[Belief]]) -> tuple[float, ...]:
    """Each side's chance to win from its players' beliefs."""
    means = [sum(m for m, _ in side) for side in sides]
    variances = [sum(v for _, v in side) + NOISE_SD ** 2 / 2 for side in sides]
    return pairwise_gaussian(means, variances)


def after_game(sides: list[list[Belief]], totals: tuple[int, ...]) -> list[list[Belief]]:
    """The players' beliefs after a game with these side totals (each pair of sides' margin
    share one observation, in order)."""
    beliefs = [list(side) for side in sides]
    size = max(sum(abs(t) for t in totals) / len(totals), SMALLEST_SIDE)
    for i in range(len(beliefs)):
        for j in range(i + 1, len(beliefs)):
            _observe(beliefs[i], beliefs[j], (totals[i] - totals[j]) / size)
    return beliefs


def _observe(a: list[Belief], b: list[Belief], share: float) -> None:
    surprise = share - (sum(m for m, _ in a) - sum(m for m, _ in b))
    total = sum(v for _, v in a) + sum(v for _, v in b) + NOISE_SD ** 2
    for side, sign in ((a, 1.0), (b, -1.0)):
        for k, (mean, variance) in enumerate(side):
            gain = variance / total
            side[k] = (mean + sign * gain * surprise, variance * (1.0 - gain))


class MarginShare:
    name = "Margins as shares"

    def __init__(self) -> None:
        self.beliefs: dict[int, Belief] = {}
        self._margins = MarginFromChance()

    def _sides(self, game: BacktestGame) -> list[list[Belief]]:
        return [[self.beliefs.get(p, NEW) for p in side] for side in game.sides]

    def predict(self, game: BacktestGame) -> Prediction:
        win = side_chances(self._sides(game))
        return Prediction(win, self._margins.margins(win))

    def update(self, game: BacktestGame) -> None:
        sides = self._sides(game)
        self._margins.learn(side_chances(sides), game.margins())
        for players, beliefs in zip(game.sides, after_game(sides, game.totals), strict=True):
            for player, belief in zip(players, beliefs, strict=True):
                self.beliefs[player] = belief

    def night_over(self, night: int) -> None:
        return None

    def strength(self, player: int) -> float:
        return self.beliefs.get(player, NEW)[0]



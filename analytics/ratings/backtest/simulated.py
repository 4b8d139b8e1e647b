"""Leagues whose players' strengths are known: each player has a hidden strength (points a round
they add to their side); each night most of them come, a few fixed pairs always play together
and everyone else changes partners every rotation; a side's round score is its players'
strengths plus noise the size Hand and Foot rounds show. Seeded: a seed is one league."""

from __future__ import annotations

import random
from dataclasses import dataclass

from analytics.ratings.backtest.games import BacktestGame

ROUND_BASE = 1500  # a side's typical round score
ROUND_NOISE_SD = 700.0  # a side's round score around what its players' strengths make it
STRENGTH_SD = 120.0  # players' strengths (points a round) around the club's average


@dataclass(frozen=True)
class League:
    games: list[BacktestGame]
    strengths: dict[int, float]


def simulated_league(*, seed: int, players: int = 32, nights: int = 30, rotations: int = 3,
                     rounds: int = 4, fixed_pairs: int = 4, attendance: float = 0.8) -> League:
    rng = random.Random(seed)
    strengths = {p: rng.gauss(0.0, STRENGTH_SD) for p in range(1, players + 1)}
    pairs = [(2 * i + 1, 2 * i + 2) for i in range(fixed_pairs)]
    singles = list(range(2 * fixed_pairs + 1, players + 1))
    games: list[BacktestGame] = []
    for night in range(nights):
        come_pairs = [pair for pair in pairs if rng.random() < attendance]
        come = [p for p in singles if rng.random() < attendance]
        for _ in range(rotations):
            sides = _sides(rng, come_pairs, come)
            for a, b in zip(sides[0::2], sides[1::2], strict=False):
                games.append(_game(rng, len(games) + 1, night, (a, b), strengths, rounds))
    return League(games, strengths)


def _sides(rng: random.Random, pairs: list[tuple[int, int]], singles: list[int]) -> list[tuple[int, ...]]:
    """This rotation's sides of two: the fixed pairs, and the others paired at random (an odd
    one out sits out); the sides in a random order, two by two to a table."""
    shuffled = singles[:]
    rng.shuffle(shuffled)
    if len(shuffled) % 2:
        shuffled.pop()
    sides: list[tuple[int, ...]] = [*pairs, *zip(shuffled[0::2], shuffled[1::2], strict=True)]
    rng.shuffle(sides)
    if len(sides) % 2:
        sides.pop()
    return sides


def _game(rng: random.Random, game_id: int, night: int, sides: tuple[tuple[int, ...], ...],
          strengths: dict[int, float], rounds: int) -> BacktestGame:
    per_round = tuple(
        tuple(round(ROUND_BASE + sum(strengths[p] for p in side) + rng.gauss(0.0, ROUND_NOISE_SD))
              for side in sides)
        for _ in range(rounds))
    totals = tuple(sum(r[i] for r in per_round) for i in range(len(sides)))
    return BacktestGame(game_id, night, sides, totals, per_round)

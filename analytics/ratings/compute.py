"""Player ratings: margins as shares of the points scored (`analytics.ratings.backtest.systems.
share`), each side's players together, games in the order played. Chosen from the backtest's
figures (docs/ratings.md): it predicted simulated leagues and the demo club better than the
OpenSkill ratings it replaced, and orders players closer to their true strengths.

Pure functions; `analytics.ratings.services.ratings_recompute` loads the games (through
`analytics.ratings.selectors`) and stores the history. `mu` is a player's skill (the share of a
side's points they add), `sigma` its spread; the leaderboard orders by the conservative
mu - 3 sigma.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from analytics.ratings.backtest.systems.share import PRIOR_SD, after_game, side_chances
from analytics.standings.compute import GameResult

MODEL_NAME = "margins-share"  # part of every rated game's fingerprint: a new model re-rates all


@dataclass(frozen=True)
class PlayerState:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


INITIAL = PlayerState(0.0, PRIOR_SD, 0)


@dataclass(frozen=True)
class RatedRow:
    """One player's rating after one game, and the win probability their side had before it."""

    position: int
    game_id: int
    player_id: int
    mu: float
    sigma: float
    games: int
    expected: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate_game(game: GameResult, state: dict[int, PlayerState],
              ) -> list[tuple[int, PlayerState, float]]:
    """Rate one game; returns each player's new state and their side's prior win probability.
    Updates `state` in place. Games with fewer than two sides with players are not rated. The
    totals as played (a handicap decides match points, never the ratings it comes from)."""
    sides = [s for s in game.sides if s.players]
    if len(sides) < 2:
        return []
    beliefs = [[_belief(state.get(p, INITIAL)) for p in side.players] for side in sides]
    expected = side_chances(beliefs)
    totals = tuple(s.total for s in sides)
    out = []
    for side, after, probability in zip(sides, after_game(beliefs, totals), expected, strict=True):
        for player_id, (mu, variance) in zip(side.players, after, strict=True):
            new = PlayerState(mu, math.sqrt(variance), state.get(player_id, INITIAL).games + 1)
            state[player_id] = new
            out.append((player_id, new, probability))
    return out


def _belief(player: PlayerState) -> tuple[float, float]:
    return player.mu, player.sigma ** 2


def rate_games(games: Iterable[GameResult], state: dict[int, PlayerState],
               first_position: int = 0) -> Iterator[RatedRow]:
    """Rate games in order from `state` (the ratings before the first of them)."""
    for position, game in enumerate(games, start=first_position):
        for player_id, new, probability in rate_game(game, state):
            yield RatedRow(position, game.game_id, player_id, new.mu, new.sigma, new.games,
                           probability)


# ----- the rating as players read it -----------------------------------------------------------

SCALE_CENTRE = 1500
SCALE_PER_MU = 2500  # a skill of 0.04 (4 % of a side's points) shows as 100 rating points
CERTAINTY_WORDS = (  # (largest sigma, words), the first that fits: shares of a new player's
    (0.30 * PRIOR_SD, "well established"),
    (0.48 * PRIOR_SD, "fairly settled"),
    (0.72 * PRIOR_SD, "still settling"),
    (float("inf"), "new: only a few games so far"),
)


def shown_rating(mu: float) -> int:
    """The rating on the familiar scale: 1500 is the starting (and typical) player, and every
    4 % of a side's points a player adds is 100 points (so a skill of 0.04 shows as 1600)."""
    return round(SCALE_CENTRE + SCALE_PER_MU * mu)


def shown_margin(sigma: float) -> int:
    """The rating's uncertainty on the same scale: two standard deviations (about 95%)."""
    return round(2 * SCALE_PER_MU * sigma)


# A player with this many rated games is never called new, whatever the sigma (in partnership
# games one game teaches the model little about each player, so sigma falls slowly).
NEW_GAMES = 10


def rating_certainty(sigma: float, games: int | None = None) -> str:
    """How sure the rating is, in words, from its sigma and (when known) the games played."""
    words = next(words for largest, words in CERTAINTY_WORDS if sigma <= largest)
    if games is not None and games >= NEW_GAMES and words == CERTAINTY_WORDS[-1][1]:
        return CERTAINTY_WORDS[-2][1]
    return words


def game_fingerprint(game: GameResult) -> str:
    """Changes whenever anything a rating depends on changes (players, sides, totals, the
    model)."""
    text = MODEL_NAME + "|" + "|".join(f"{s.players}:{s.total}" for s in game.sides)
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:16]


# ----- how sure, in words, and partners the ratings cannot tell apart -------------------------

PROVISIONAL_NIGHTS = 5  # fewer nights than this and a rating is called provisional


def rating_reliability(*, sigma: float, games: int, nights: int) -> str:
    """How far a rating can be trusted, in words: "provisional: 3 nights" until the player has
    played `PROVISIONAL_NIGHTS` nights, then how settled it is and over how many nights."""
    if nights < PROVISIONAL_NIGHTS:
        return f"provisional: {nights} night{'' if nights == 1 else 's'}"
    return f"{rating_certainty(sigma, games)}, over {nights} nights"


def pair_rating(mus: tuple[float, float], sigmas: tuple[float, float]) -> tuple[float, float]:
    """The joint figure of two players who have only ever played together: the model knows their
    sum, not how it splits, so the pair is shown as one (their mean skill and its spread)."""
    return (mus[0] + mus[1]) / 2, math.sqrt(sigmas[0] ** 2 + sigmas[1] ** 2) / 2

"""Player ratings: OpenSkill's Plackett-Luce model, each side a team, games in the order played.

Pure functions; `analytics.ratings.services.ratings_recompute` loads the games (through
`analytics.ratings.selectors`) and stores the history.
Equal side totals are a tie (equal ranks). The display value is the conservative mu - 3 sigma.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from analytics.standings.compute import GameResult

MODEL = PlackettLuce()


@dataclass(frozen=True)
class PlayerState:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


INITIAL = PlayerState(MODEL.mu, MODEL.sigma, 0)


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
              ratings: dict[int, PlackettLuceRating] | None = None,
              ) -> list[tuple[int, PlayerState, float]]:
    """Rate one game; returns each player's new state and their side's prior win probability.
    Updates `state` in place. `ratings` caches the library's rating objects between games (it
    makes creating them the costliest step). Games with fewer than two sides with players are
    not rated."""
    sides = [s for s in game.sides if s.players]
    if len(sides) < 2:
        return []
    ratings = {} if ratings is None else ratings
    for side in sides:
        for p in side.players:
            if p not in ratings:
                known = state.get(p, INITIAL)
                ratings[p] = MODEL.create_rating([known.mu, known.sigma])
    teams = [[ratings[p] for p in s.players] for s in sides]
    expected = MODEL.predict_win(teams)
    rated = MODEL.rate(teams, ranks=[-s.total for s in sides])
    out = []
    for side, team, probability in zip(sides, rated, expected, strict=True):
        for player_id, rating in zip(side.players, team, strict=True):
            new = PlayerState(rating.mu, rating.sigma, state.get(player_id, INITIAL).games + 1)
            state[player_id] = new
            ratings[player_id] = rating
            out.append((player_id, new, probability))
    return out


def rate_games(games: Iterable[GameResult], state: dict[int, PlayerState],
               first_position: int = 0) -> Iterator[RatedRow]:
    """Rate games in order from `state` (the ratings before the first of them)."""
    ratings: dict[int, PlackettLuceRating] = {}
    for position, game in enumerate(games, start=first_position):
        for player_id, new, probability in rate_game(game, state, ratings):
            yield RatedRow(position, game.game_id, player_id, new.mu, new.sigma, new.games,
                           probability)


# ----- the rating as players read it -----------------------------------------------------------

SCALE_CENTRE = 1500
SCALE_PER_MU = 40  # 1 OpenSkill skill unit = 40 rating points; the default sigma is ±333
CERTAINTY_WORDS = (  # (largest sigma, words), the first that fits
    (2.5, "well established"),
    (4.0, "fairly settled"),
    (6.0, "still settling"),
    (float("inf"), "new: only a few games so far"),
)


def shown_rating(mu: float) -> int:
    """The rating on the familiar scale: 1500 is the starting (and typical) player, and every
    OpenSkill skill unit above or below it is 40 points (so μ 27.5 shows as 1600)."""
    return round(SCALE_CENTRE + SCALE_PER_MU * (mu - MODEL.mu))


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
    """Changes whenever anything a rating depends on changes (players, sides, totals)."""
    text = "|".join(f"{s.players}:{s.total}" for s in game.sides)
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:16]

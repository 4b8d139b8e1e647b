"""The candidate systems the backtest compares, by the key the job and the command name them,
and the one the club's ratings use (`CHOSEN`, chosen from the figures in docs/ratings.md)."""

from __future__ import annotations

from collections.abc import Callable

from analytics.ratings.backtest.systems.base import RatingSystem
from analytics.ratings.backtest.systems.elo import Elo
from analytics.ratings.backtest.systems.gaussian import GaussianMargin
from analytics.ratings.backtest.systems.library import Glicko2, OpenSkill, ThroughTime
from analytics.ratings.backtest.systems.share import MarginShare

CANDIDATES: dict[str, Callable[[], RatingSystem]] = {
    "openskill": OpenSkill,
    "elo": lambda: Elo(),
    "elo-margins": lambda: Elo(margin_unit=500, name="Elo with margins"),
    "glicko2": Glicko2,
    "through-time": lambda: ThroughTime(),
    "margins-game": lambda: GaussianMargin(),
    "margins-round": lambda: GaussianMargin(per_round=True),
    "margins-share": MarginShare,
}
BASELINE = "openskill"  # today's ratings: every other candidate is measured against them
CHOSEN = "margins-share"


def candidate(key: str) -> RatingSystem:
    """A fresh system of the candidate `key` (a KeyError for an unknown one)."""
    return CANDIDATES[key]()

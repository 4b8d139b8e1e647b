"""The backtest: games in time order; before each, every system predicts it; after it, every
system learns it; at each night's end every system closes the night. Scores per system, and,
when the players' true strengths are known, how well each system orders them after given
numbers of nights."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from analytics.ratings.backtest.games import BacktestGame
from analytics.ratings.backtest.metrics import Scores, spearman
from analytics.ratings.backtest.systems.base import RatingSystem


@dataclass
class Backtest:
    scores: dict[str, Scores]
    # system name → nights played → rank correlation with the true strengths
    recovery: dict[str, dict[int, float]] = field(default_factory=dict)
    games: int = 0
    nights: int = 0


def backtest(games: Iterable[BacktestGame], systems: Sequence[RatingSystem], *,
             truth: dict[int, float] | None = None, recovery_at: Sequence[int] = (),
             progress: Callable[[int], None] | None = None,
             score_from_night: int = 0) -> Backtest:
    """Replay `games` (sorted by night, then as played). Predictions of games before night
    `score_from_night` are not scored (a warm-up)."""
    result = Backtest({s.name: Scores() for s in systems})
    night: int | None = None
    for game in games:
        if not game.rated:
            continue
        if night is not None and game.night != night:
            _close_night(systems, night, result, truth, recovery_at)
        night = game.night
        for system in systems:
            if game.night >= score_from_night:
                result.scores[system.name].add(game, system.predict(game))
            system.update(game)
        result.games += 1
        if progress is not None:
            progress(result.games)
    if night is not None:
        _close_night(systems, night, result, truth, recovery_at)
    return result


def _close_night(systems: Sequence[RatingSystem], night: int, result: Backtest,
                 truth: dict[int, float] | None, recovery_at: Sequence[int]) -> None:
    for system in systems:
        system.night_over(night)
    result.nights += 1
    if truth and result.nights in recovery_at:
        players = sorted(truth)
        for system in systems:
            estimates = [system.strength(p) for p in players]
            result.recovery.setdefault(system.name, {})[result.nights] = spearman(
                estimates, [truth[p] for p in players])

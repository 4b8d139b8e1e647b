"""A backtest's scores as JSON (a job's parts are stored as JSON) and back: one candidate's
figures per part, then the comparison the page and the command show."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analytics.ratings.backtest.metrics import Decile, Scores, log_loss_difference


def scores_to_json(scores: Scores) -> dict[str, Any]:
    return {
        "losses": [round(x, 5) for x in scores.losses],
        "brier_sum": scores.brier_sum,
        "hits": scores.hits,
        "margin_error_sum": scores.margin_error_sum,
        "margins": scores.margins,
        "deciles": [[d.predicted, d.won, d.count] for d in scores.deciles],
    }


def scores_from_json(data: dict[str, Any]) -> Scores:
    return Scores(losses=list(data["losses"]), brier_sum=data["brier_sum"], hits=data["hits"],
                  margin_error_sum=data["margin_error_sum"], margins=data["margins"],
                  deciles=[Decile(p, w, c) for p, w, c in data["deciles"]])


@dataclass(frozen=True)
class CandidateLine:
    key: str
    name: str
    games: int
    log_loss: float
    brier: float
    accuracy: float
    margin_error: float
    calibration_error: float
    # The log-loss less the baseline's, with its 95 % interval (None for the baseline).
    against_baseline: tuple[float, float, float] | None
    calibration: list[tuple[float, float, int]]  # per decile: mean predicted, share won, count


def comparison(parts: dict[str, tuple[str, Scores]], baseline: str) -> list[CandidateLine]:
    """Each candidate's line (`parts`: key → (name, scores)), best log-loss first."""
    base = parts[baseline][1] if baseline in parts else None
    lines = []
    for key, (name, scores) in parts.items():
        against = None
        if base is not None and key != baseline:
            diff = log_loss_difference(scores, base)
            against = (diff.mean, diff.low, diff.high)
        lines.append(CandidateLine(
            key, name, scores.games, scores.log_loss, scores.brier, scores.accuracy,
            scores.margin_error, scores.calibration_error, against,
            [(d.mean_predicted, d.won_share, d.count) for d in scores.deciles]))
    return sorted(lines, key=lambda line: line.log_loss)

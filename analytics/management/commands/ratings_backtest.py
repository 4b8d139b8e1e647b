"""How well each candidate rating system predicts a club's games (`--club`), or simulated
leagues whose players' strengths are known (`--simulated`): the figures of docs/ratings.md."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from analytics.ratings.backtest.candidates import CANDIDATES, candidate
from analytics.ratings.backtest.run import backtest
from analytics.ratings.backtest.simulated import simulated_league
from analytics.ratings.backtests import (
    backtest_summary,
    candidate_output,
    candidate_scores,
    club_backtest_games,
)
from league.models import Club

RECOVERY_NIGHTS = (4, 12, 30)


def _seeds(text: str) -> range:
    first, _, last = text.partition("-")
    try:
        start, stop = int(first), int(last or first)
    except ValueError:
        raise CommandError(f"--seeds takes a seed or a range like 100-119, not {text!r}.") from None
    if not 0 <= start <= stop < start + 1000:
        raise CommandError("--seeds: from 0 up, at most 1,000 seeds.")
    return range(start, stop + 1)


class Command(BaseCommand):
    help = ("Replay a club's confirmed games (or simulated leagues) in order and score how well "
            "each candidate rating system predicted every game before it was played.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="the club's slug")
        parser.add_argument("--simulated", action="store_true",
                            help="simulated leagues with known strengths instead of a club")
        parser.add_argument("--seeds", default="100-119",
                            help="the simulated leagues' seeds, e.g. 100-119 (default)")
        parser.add_argument("--nights", type=int, default=30, help="nights a league (1-500)")
        parser.add_argument("--players", type=int, default=32, help="players a league (8-2000)")

    def handle(self, *args: Any, club: str | None = None, simulated: bool = False,
               seeds: str = "100-119", nights: int = 30, players: int = 32, **options: Any) -> None:
        if simulated == bool(club):
            raise CommandError("Name a club (--club SLUG) or ask for --simulated leagues.")
        if not 1 <= nights <= 500 or not 8 <= players <= 2000:
            raise CommandError("--nights takes 1-500 and --players 8-2000.")
        if club:
            self._club(club)
        else:
            self._simulated(_seeds(seeds), nights, players)

    def _club(self, slug: str) -> None:
        found = Club.objects.filter(slug=slug).first()
        if found is None:
            raise CommandError(f"No club with the slug {slug!r}.")
        games = club_backtest_games(club_id=found.pk)
        outputs = []
        with tqdm(total=len(games) * len(CANDIDATES), unit="games", desc="backtest") as bar:
            for key in CANDIDATES:
                outputs.append(candidate_scores(games=games, key=key,
                                                progress=lambda _done: bar.update(1)))
        summary = backtest_summary(outputs)
        self.stdout.write(f"{found.name}: {summary['games']} games predicted\n")
        self._table(summary["lines"])

    def _table(self, lines: list[dict[str, Any]]) -> None:
        self.stdout.write(f"{'system':24s} {'log-loss':>8s} {'Brier':>6s} {'right':>6s} "
                          f"{'margin':>7s} {'calib.':>6s}  log-loss vs today (95 %)")
        for line in lines:
            against = line["against_baseline"]
            words = ("(today)" if against is None
                     else f"{against[0]:+.4f} ({against[1]:+.4f} to {against[2]:+.4f})")
            self.stdout.write(
                f"{line['name']:24s} {line['log_loss']:8.4f} {line['brier']:6.3f} "
                f"{line['accuracy']:6.1%} {line['margin_error']:7.0f} "
                f"{line['calibration_error']:6.3f}  {words}")

    def _simulated(self, seeds: range, nights: int, players: int) -> None:
        outputs: dict[str, list[dict[str, Any]]] = defaultdict(list)
        recovery: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        for seed in tqdm(seeds, unit="leagues", desc="backtest"):
            league = simulated_league(seed=seed, nights=nights, players=players)
            systems = {key: candidate(key) for key in CANDIDATES}
            result = backtest(league.games, list(systems.values()), truth=league.strengths,
                              recovery_at=RECOVERY_NIGHTS, score_from_night=1)
            for key, system in systems.items():
                outputs[key].append(candidate_output(key, system.name, result.scores[system.name]))
                for night, rho in result.recovery.get(system.name, {}).items():
                    recovery[system.name][night].append(rho)
        merged = [merge_outputs(parts) for parts in outputs.values()]
        summary = backtest_summary(merged)
        self.stdout.write(f"{len(seeds)} simulated leagues, {summary['games']} games predicted\n")
        self._table(summary["lines"])
        self.stdout.write("\nRank correlation with the true strengths after "
                          + ", ".join(str(n) for n in RECOVERY_NIGHTS) + " nights (mean):")
        for name, by_night in recovery.items():
            figures = "  ".join(f"{statistics.fmean(by_night[n]):.3f}" if by_night.get(n)
                                else "  -  " for n in RECOVERY_NIGHTS)
            self.stdout.write(f"{name:24s} {figures}")


def merge_outputs(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One candidate's scores over several leagues, as one output."""
    first = parts[0]
    scores = {
        "losses": [x for p in parts for x in p["scores"]["losses"]],
        "brier_sum": math.fsum(p["scores"]["brier_sum"] for p in parts),
        "hits": sum(p["scores"]["hits"] for p in parts),
        "margin_error_sum": math.fsum(p["scores"]["margin_error_sum"] for p in parts),
        "margins": sum(p["scores"]["margins"] for p in parts),
        "deciles": [[sum(p["scores"]["deciles"][i][k] for p in parts) for k in range(3)]
                    for i in range(len(first["scores"]["deciles"]))],
    }
    return {"key": first["key"], "name": first["name"], "scores": scores}

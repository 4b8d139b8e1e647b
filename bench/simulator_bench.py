"""Simulator benchmark: every preset, table size and strategy over many seeds, with no exception.

Run: .venv/bin/python bench/simulator_bench.py [--seeds 10000] [--first-seed 0] [--processes 2]
                                               [--rounds R] [--presets classic,pagat]

For each preset of handfoot.rules, each table the preset allows (2 to 12 players as far as its
decks go, the engine's own header check deciding: individual play, two partnerships of 4 or 6,
three of 6, and 4 players individually) and each strategy of the simulator, simulates the games
of seeds FIRST..FIRST+SEEDS-1 in a multiprocessing pool and replays each log, which must be
valid. Counts the exceptions and invalid logs per case, prints the first failing seed of each
with its traceback, then a table and the totals against the target 0.

With BENCH_ENGINE=DIR in the environment the engine is imported from DIR, a copy compiled by
bench/compile_engine.py that was checked to play the same games: about twice as fast.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

# BENCH_ENGINE: a compiled copy of the engine made by bench/compile_engine.py (same games, faster)
ENGINE = os.environ.get("BENCH_ENGINE") or str(Path(__file__).resolve().parents[1])
sys.path.insert(0, ENGINE)

from handfoot import state as engine_state  # noqa: E402
from handfoot.errors import EngineError  # noqa: E402
from handfoot.replay import read_table, replay_log  # noqa: E402
from handfoot.rules import MAX_PLAYERS, PRESETS  # noqa: E402
from handfoot.simulate import STRATEGIES, simulate_game  # noqa: E402

CHUNK = 25  # seeds per task handed to a worker


@dataclass(frozen=True, slots=True)
class Case:
    preset: str
    players: int
    sides: int | None
    individual: bool
    strategy: str

    @property
    def table(self) -> str:
        if self.individual or self.players not in (4, 6):
            return f"{self.players} alone"
        return f"{self.players} in {self.sides or 2} sides"


@dataclass(slots=True)
class Outcome:
    games: int = 0
    exceptions: int = 0
    invalid: int = 0
    first_seed: int | None = None
    first_failure: str = ""
    cpu: float = 0.0

    def add(self, other: Outcome) -> None:
        self.games += other.games
        self.exceptions += other.exceptions
        self.invalid += other.invalid
        self.cpu += other.cpu
        if other.first_seed is not None and (
            self.first_seed is None or other.first_seed < self.first_seed
        ):
            self.first_seed, self.first_failure = other.first_seed, other.first_failure


def _allowed(preset: str, players: int, sides: int | None, individual: bool) -> bool:
    """Whether the engine accepts this table for the preset (its own header check)."""
    header = {"format": "hand-and-foot-log/1", "rules": preset, "rounds": [],
              "seats": [f"p{i + 1}" for i in range(players)],
              "play": "individual" if individual or players not in (4, 6) else "partnerships"}
    if sides is not None:
        header["sides"] = sides
    try:
        read_table(header)
    except EngineError:
        return False
    return True


def cases(presets: list[str]) -> list[Case]:
    tables: list[tuple[int, int | None, bool]] = [(n, None, False) for n in range(2, MAX_PLAYERS + 1)]
    tables += [(4, None, True), (6, 3, False)]
    tables.sort(key=lambda t: (t[0], t[2], t[1] or 0))
    return [
        Case(preset, n, sides, individual, strategy)
        for preset in presets
        for n, sides, individual in tables
        if _allowed(preset, n, sides, individual)
        for strategy in STRATEGIES
    ]


def run_seeds(task: tuple[Case, int, int, int | None]) -> tuple[Case, Outcome]:
    """Simulate and replay the seeds start..stop-1 of one case (runs in a pool worker)."""
    case, start, stop, rounds = task
    out = Outcome()
    cpu = time.process_time()
    for seed in range(start, stop):
        out.games += 1
        try:
            log = simulate_game(case.preset, case.players, sides=case.sides, seed=seed,
                                rounds=rounds, individual=case.individual, strategy=case.strategy)
        except Exception:
            out.exceptions += 1
            failure = traceback.format_exc()
        else:
            report = replay_log(log)
            if report.valid:
                continue
            out.invalid += 1
            failure = f"the simulated log does not replay as valid: {report.error!r}\n"
        if out.first_seed is None:
            out.first_seed, out.first_failure = seed, failure
    out.cpu = time.process_time() - cpu
    return case, out


def _verdict(ok: bool) -> str:
    return "ok" if ok else "BELOW TARGET"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=10_000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=None, help="rounds per game (default: all)")
    parser.add_argument("--presets", default=",".join(PRESETS))
    args = parser.parse_args(argv)

    todo = cases(args.presets.split(","))
    results = {case: Outcome() for case in todo}
    end = args.first_seed + args.seeds
    tasks = [(case, s, min(s + CHUNK, end), args.rounds)
             for case in todo for s in range(args.first_seed, end, CHUNK)]
    print(f"simulator benchmark: {len(todo)} cases (preset x table x strategy), {args.seeds} seeds "
          f"each from {args.first_seed}, {len(tasks)} tasks on {args.processes} processes")
    if os.environ.get("BENCH_ENGINE"):
        print(f"engine: the compiled copy of bench/compile_engine.py ({engine_state.__file__})")
    wall = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        for case, out in pool.imap_unordered(run_seeds, tasks):
            results[case].add(out)
    wall = time.perf_counter() - wall

    print(f"{'preset':<10} {'table':<14} {'strategy':<8} {'games':>7} {'exceptions':>10} "
          f"{'invalid':>7} {'CPU s':>8}")
    for case in todo:
        r = results[case]
        print(f"{case.preset:<10} {case.table:<14} {case.strategy:<8} {r.games:>7} "
              f"{r.exceptions:>10} {r.invalid:>7} {r.cpu:>8.1f}")
    for case in todo:
        r = results[case]
        if r.first_seed is not None:
            print(f"\nfirst failure of {case.preset}, {case.table}, {case.strategy}: seed "
                  f"{r.first_seed}\n{r.first_failure}")
    games = sum(r.games for r in results.values())
    exceptions = sum(r.exceptions for r in results.values())
    invalid = sum(r.invalid for r in results.values())
    cpu = sum(r.cpu for r in results.values())
    print(f"{games:,} games in {wall:.1f} s wall, {cpu:.1f} s CPU in the workers")
    print(f"simulator exceptions: {exceptions} (target 0: {_verdict(exceptions == 0)})")
    print(f"simulated logs that do not replay as valid: {invalid} (target 0: {_verdict(invalid == 0)})")
    print(f"{exceptions} exceptions (target 0)")
    return 0 if exceptions == 0 and invalid == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

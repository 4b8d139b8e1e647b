"""The computer players' benchmark (issue 44): how long each level takes to decide, and a small
ladder of duplicate matches between the levels.

Run: .venv/bin/python bench/bots_bench.py [--deals 2] [--rounds 1] [--seed 1]
                                          [--levels random,greedy,club,expert]
                                          [--configs classic/4,classic/6,pagat/4,...]
                                          [--decisions-only] [--ladder-only] [--legality N]

Decision time: every 3rd position of seeded greedy games (classic, 4 players, rounds 1 of seeds
1 and 2), the same positions for every level, decided in this one process (one core): median,
90th percentile and most, in milliseconds. A searching level's budget is counted in worlds, not
time, so its decisions are the same on any machine; only their time is this machine's.

Ladder: each pair of levels on each table (preset/players; 6 players as two sides of three) in
DEALS duplicate deal pairs of ROUNDS rounds (each deal played twice, the sides swapped): the
first level's win rate over the games and its mean margin per game with the 95 % interval
(normal approximation over the deal pairs; Student's t below 30 pairs). Every log passes the
engine's check. The load average (`uptime`) is printed before and after: other work on the machine slows the times.

--legality N instead plays N one-round games per table of a searching player of 2 worlds
against greedy, each checked by the engine, and counts illegal moves (target 0).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path
from statistics import median, quantiles

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from handfoot.moves import apply_move  # noqa: E402
from handfoot.players.duel import checked, duel  # noqa: E402
from handfoot.players.levels import LEVELS, level  # noqa: E402
from handfoot.players.memory import TableMemory  # noqa: E402
from handfoot.players.search import SearchPlayer  # noqa: E402
from handfoot.players.table import (  # noqa: E402
    IllegalMove,
    Table,
    deal_rng,
    dealt_state,
    decide,
    play_game,
    seat_rng,
)
from handfoot.players.view import SeatView, view_of  # noqa: E402
from handfoot.simulate import deal_cards  # noqa: E402

CONFIGS = ("classic/4", "classic/6", "pagat/4", "six-deck/4", "canasta/4", "eleven/4")


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def sample_views(seeds: tuple[int, ...] = (1, 2), every: int = 3) -> list[SeatView]:
    """The views of the seat to act at every `every`-th position of greedy games."""
    table = Table.of("classic", 4, [level("greedy")])
    views = []
    for seed in seeds:
        deal = deal_cards(table.rules, 4, deal_rng(seed, 1))
        state = dealt_state(table, 1, 3, deal)
        rngs = [seat_rng(seed, 1, s) for s in range(4)]
        memory = TableMemory.empty(4)
        i = 0
        while not state.over:
            if i % every == 0:
                views.append(view_of(state, state.turn, memory))
            seat = state.turn
            move = decide(table, state, memory, (0, 0), rngs)
            memory = memory.after(state, seat, move)
            apply_move(state, seat, move)
            i += 1
    return views


def decision_times(names: list[str]) -> None:
    views = sample_views()
    print(f"Decision time, {len(views)} positions of classic with 4 players, one core (ms):")
    print(f"  {'level':8} {'median':>8} {'p90':>8} {'most':>8}")
    for name in names:
        player = level(name)
        times = []
        for i, view in enumerate(views):
            start = time.perf_counter()
            player.choose(view, random.Random(i))
            times.append((time.perf_counter() - start) * 1000)
        p90 = quantiles(times, n=10)[-1]
        print(f"  {name:8} {median(times):8.1f} {p90:8.1f} {max(times):8.1f}", flush=True)


def ladder(names: list[str], configs: list[str], deals: int, rounds: int, seed: int) -> None:
    print(f"Ladder: {deals} duplicate deal pairs of {rounds} round(s) per match, seed {seed}")
    print(f"  {'table':12} {'a':7} {'b':7} {'games':>5} {'a wins':>7} {'margin/game':>12} "
          f"{'95 % interval':>20} {'s':>6}")  # fmt: skip
    for config in configs:
        preset, players = config.split("/")
        for a, b in combinations(names, 2):
            start = time.perf_counter()
            result = duel(preset, int(players), level(a), level(b), deals, seed, rounds=rounds)
            low, high = result.interval()
            print(f"  {config:12} {a:7} {b:7} {result.games:5d} {result.win_rate:7.0%} "
                  f"{result.mean_margin:12.0f} {f'{low:.0f} .. {high:.0f}':>20} "
                  f"{time.perf_counter() - start:6.0f}", flush=True)  # fmt: skip


def legality(games: int, worlds: int) -> None:
    """`games` one-round games per table of a searching player of `worlds` worlds (the budget
    changes which moves are tried, not which are legal) against greedy: illegal moves found."""
    player = SearchPlayer(f"search-{worlds}", worlds)
    print(f"Legality: {games} one-round games per table, {player.name} and greedy")
    for config in CONFIGS:
        preset, players = config.split("/")
        table = Table.of(preset, int(players), [player, level("greedy")])
        illegal = 0
        start = time.perf_counter()
        for seed in range(games):
            try:
                checked(play_game(table, seed, rounds=1))
            except IllegalMove as err:
                illegal += 1
                print(f"  {config} seed {seed}: {err}")
        print(f"  {config:12} games {games}  illegal {illegal}  "
              f"{time.perf_counter() - start:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--decisions-only", action="store_true")
    parser.add_argument("--ladder-only", action="store_true")
    parser.add_argument("--legality", type=int, default=0, metavar="GAMES",
                        help="instead: GAMES one-round games per table of a small search, checked")
    args = parser.parse_args()
    names = args.levels.split(",")
    print(uptime(), flush=True)
    if args.legality:
        legality(args.legality, worlds=2)
        print(uptime())
        return
    if not args.ladder_only:
        decision_times(names)
    if not args.decisions_only:
        ladder(names, args.configs.split(","), args.deals, args.rounds, args.seed)
    print(uptime())


if __name__ == "__main__":
    main()

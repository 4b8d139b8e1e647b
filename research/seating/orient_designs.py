"""Offline: orient the tables of the shipped Wh(4n) designs to the fewest one-way pairs.

A pair of players who oppose twice is *one-way* when the same one of them feeds the other both
times. Reversing a table (a, b, c, d) -> (a, d, c, b) keeps the partners and reverses who feeds
whom on its four opponent pairs, so each pair gives a constraint "table t reversed XOR table u
reversed = c" and the fewest one-way pairs is the fewest violated constraints (a frustration
index). Simulated annealing over single-table reversals, starting from the developed
orientation (after the best of the 2^n orientations of the base tables); prints the base
tables so oriented and ``FLIPS`` entries (hex bitmask, bit k = table k of the developed design
in rotation-major order) for ``league/seating/designs_data.py``.

    .venv/bin/python -m research.seating.orient_designs designs.txt --seconds 20

With ``--cpsat SECONDS`` (OR-Tools, not a project dependency: run it with the interpreter of a
separate venv, e.g. ``/tmp/ortools/bin/python``) the annealed orientation is then the hint of an
exact 0/1 model (one variable per developed table, one "one-way" variable per opponent pair,
minimise their sum), solved by CP-SAT within the time given; it returns the better of the two
and says whether the optimum was proved.
"""

from __future__ import annotations

import argparse
import ast
import math
import random
import sys
import time
from pathlib import Path

from league.seating.designs import develop


def best_base_orientation(v: int, base: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Reverse base tables (all 2^n ways) for the fewest classes {d, -d} fed one way."""
    m, inf = v - 1, v - 1
    best, best_bad = base, None
    for mask in range(1 << len(base)):
        tables = [(a, d, c, b) if mask >> k & 1 else (a, b, c, d)
                  for k, (a, b, c, d) in enumerate(base)]
        fed = [0] * m
        for t in tables:
            for k in range(4):
                x, y = t[k], t[(k + 1) % 4]
                if inf not in (x, y):
                    fed[(y - x) % m] += 1
        bad = sum(1 for d in range(1, (m + 1) // 2) if (fed[d] == 0) != (fed[m - d] == 0))
        if best_bad is None or bad < best_bad:
            best, best_bad = tables, bad
    return best


def constraints(
    v: int, base: list[tuple[int, ...]]
) -> tuple[list[tuple[int, ...]], list[tuple[int, int, int]]]:
    tables = [t for rotation in develop(v, base) for t in rotation]
    seen: dict[tuple[int, int], tuple[int, int]] = {}
    edges = []
    for k, (a, b, c, d) in enumerate(tables):
        for x, y in ((a, b), (b, c), (c, d), (d, a)):
            key, forward = ((x, y), 1) if x < y else ((y, x), 0)
            if key in seen:
                u, f = seen[key]
                edges.append((u, k, f ^ forward))  # one-way when the flips differ by this
            else:
                seen[key] = (k, forward)
    return tables, edges


def anneal(n_tables: int, edges: list[tuple[int, int, int]], seconds: float, rng: random.Random) -> tuple[int, list[int]]:
    incident: list[list[tuple[int, int]]] = [[] for _ in range(n_tables)]
    for u, k, same in edges:
        incident[u].append((k, same))
        incident[k].append((u, same))
    flip = [0] * n_tables

    def bad_at(t: int) -> int:  # one-way pairs through table t
        return sum(1 for o, same in incident[t] if (flip[t] ^ flip[o]) == same)

    cost = sum(1 for u, k, same in edges if (flip[u] ^ flip[k]) == same)
    best, best_flip = cost, flip[:]
    deadline, temp = time.monotonic() + seconds, 1.5
    it = 0
    while time.monotonic() < deadline:
        it += 1
        t = rng.randrange(n_tables)
        before = bad_at(t)
        after = len(incident[t]) - before
        delta = after - before
        if delta <= 0 or rng.random() < math.exp(-delta / temp):
            flip[t] ^= 1
            cost += delta
            if cost < best:
                best, best_flip = cost, flip[:]
        if it % 5000 == 0:
            temp = max(0.2, temp * 0.97)
            if temp == 0.2 and it % 200000 == 0:
                temp = 1.5
    return best, best_flip


def exact(n_tables: int, edges: list[tuple[int, int, int]], hint: list[int], seconds: float) -> tuple[int, list[int], bool]:
    """Fewest one-way pairs by CP-SAT, from the hint ``hint``: (best, flips, proved optimal)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    flip = [model.NewBoolVar(f"f{t}") for t in range(n_tables)]
    model.Add(flip[0] == 0)  # reversing every table changes nothing
    bad = []
    for u, k, same in edges:
        one_way = model.NewBoolVar("")
        # one-way exactly when flip[u] xor flip[k] == same
        model.AddBoolXOr([flip[u], flip[k], one_way.Not() if same else one_way])
        bad.append(one_way)
    model.Minimize(sum(bad))
    for t, f in enumerate(hint):
        model.AddHint(flip[t], f ^ hint[0])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return 1 << 30, hint, False
    return int(solver.ObjectiveValue()), [solver.Value(f) for f in flip], status == cp_model.OPTIMAL


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file", help="a Python dict literal {v: [base tables]} of Wh(4n)")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpsat", type=float, default=0, help="seconds for the exact model")
    args = parser.parse_args()
    designs = ast.literal_eval(Path(args.file).read_text())
    for v, base in sorted(designs.items()):
        base = best_base_orientation(v, [tuple(t) for t in base])
        print(f"    {v}: {base},")
        tables, edges = constraints(v, base)
        start = sum(1 for u, k, same in edges if same == 0)
        best, flip = anneal(len(tables), edges, args.seconds, random.Random(v + 1000 * args.seed))
        proved = False
        if args.cpsat:
            exact_best, exact_flip, proved = exact(len(tables), edges, flip, args.cpsat)
            if exact_best < best:
                best, flip = exact_best, exact_flip
        mask = sum(1 << k for k, f in enumerate(flip) if f)
        note = " (optimal)" if proved else ""
        print(f"# v={v}: {start} one-way pairs as developed, {best} oriented{note}", file=sys.stderr)
        print(f"    {v}: {mask:#x},")


if __name__ == "__main__":
    main()

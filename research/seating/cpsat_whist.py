"""Offline: base tables of whist tournaments by constraint programming (OR-Tools CP-SAT).

Not a project dependency: ``python -m venv /tmp/ortools && /tmp/ortools/bin/pip install -r research/seating/requirements.txt``
then ``/tmp/ortools/bin/python research/seating/cpsat_whist.py 33 45 57 --seconds 300``.

* v = 4n + 1: Z-cyclic ORDERED design over Z_v. The base tables are a permutation of Z_v minus 0;
  the partner differences (c - a, a - c, d - b, b - d) and the feeds differences (b - a, c - b,
  d - c, a - d, next minus current clockwise) are each all different, i.e. each non-zero residue
  once: partners once, and every player feeds every other player once.
* v = 4n: 1-rotational design over Z_{v-1} plus infinity (printed as v - 1, seated first at the
  first table). Partner differences all different; the feeds differences fall in each class
  {d, -d} exactly twice (opponents twice). Orientation is left to research.seating.orient_designs.

Tables are rotated so their smallest point comes first, and sorted (symmetry breaking).
Prints the base tables as a Python list.
"""

from __future__ import annotations

import argparse
import sys

from ortools.sat.python import cp_model


def mod_diff(model: cp_model.CpModel, hi: cp_model.IntVar, lo: cp_model.IntVar, m: int):
    """A variable equal to (hi - lo) mod m, for hi != lo in [0, m)."""
    d = model.NewIntVar(1, m - 1, "")
    wrap = model.NewBoolVar("")
    model.Add(d == hi - lo + m * wrap)
    return d


def build(v: int) -> tuple[cp_model.CpModel, list[list[cp_model.IntVar]]]:
    model = cp_model.CpModel()
    four_n = v % 4 == 0
    m = v - 1 if four_n else v
    n = v // 4
    lo = 0 if four_n else 1
    x = [[model.NewIntVar(lo, m - 1, f"x{t}{k}") for k in range(4)] for t in range(n)]
    if four_n:
        x[0][0] = model.NewConstant(m)  # infinity
    flat = [p for t in x for p in t]
    model.AddAllDifferent(flat)
    partners, feeds = [], []
    for t, (a, b, c, d) in enumerate(x):
        inf_table = four_n and t == 0
        if not inf_table:
            for k in (1, 2, 3):
                model.Add(x[t][0] < x[t][k])
            if t + 1 < n:
                model.Add(x[t][0] < x[t + 1][0])
        for u, w in ((a, c), (b, d)):
            if inf_table and u is a:
                continue
            pd = mod_diff(model, w, u, m)
            partners += [pd, m - pd]
        for k in range(4):
            cur, nxt = x[t][k], x[t][(k + 1) % 4]
            if inf_table and (k == 0 or k == 3):
                continue
            feeds.append(mod_diff(model, nxt, cur, m))
    pvars = []
    for expr in partners:
        if isinstance(expr, cp_model.IntVar):
            pvars.append(expr)
        else:
            var = model.NewIntVar(1, m - 1, "")
            model.Add(var == expr)
            pvars.append(var)
    model.AddAllDifferent(pvars)
    if not four_n:
        model.AddAllDifferent(feeds)
    else:
        _classes_twice(model, feeds, m)
    return model, x


def _classes_twice(model: cp_model.CpModel, feeds: list, m: int) -> None:
    """Each class {d, -d} exactly twice among the feeds differences (opponents twice)."""
    half = (m - 1) // 2
    members: dict[int, list] = {c: [] for c in range(1, half + 1)}
    for f in feeds:
        for c in range(1, half + 1):
            for value in (c, m - c):
                hit = model.NewBoolVar("")
                model.Add(f == value).OnlyEnforceIf(hit)
                model.Add(f != value).OnlyEnforceIf(hit.Not())
                members[c].append(hit)
    for bools in members.values():
        model.Add(sum(bools) == 2)


def solve(v: int, seconds: float, workers: int) -> list[tuple[int, ...]] | None:
    model, x = build(v)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = v
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return [tuple(int(solver.Value(p)) for p in t) for t in x]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for v in args.sizes:
        tables = solve(v, args.seconds, args.workers)
        if tables is None:
            print(f"# {v}: not found", file=sys.stderr)
        else:
            print(f"    {v}: {tables},", flush=True)


if __name__ == "__main__":
    main()

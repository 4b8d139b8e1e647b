"""Whist tournament designs Wh(v): every pair partners once and opponents twice.

A table is a 4-tuple ``(a, b, c, d)`` in clockwise seat order: partners ``a``-``c`` and
``b``-``d``; opponents ``a``-``b``, ``b``-``c``, ``c``-``d``, ``d``-``a``. Players are 0..v-1.

Constructions (see docs/seating.md):

* v = 4n + 1 prime: Moore's (Baker's) cyclic design over Z_v. With a primitive root x and
  e = x**n (a fourth root of unity), the base tables are (x^i, x^i e, -x^i, -x^i e) for
  i < n; developing them modulo v gives v rotations, player r sitting out rotation r.
* v = 4n + 1 otherwise: Z-cyclic design over Z_v from base tables found by a search.
* v = 4n: 1-rotational design over Z_{v-1} plus a fixed point "infinity" (player v-1), from
  base tables found by a search; v - 1 rotations.

The base tables of the required sizes were found offline by :func:`search_base_tables` and are
shipped in :mod:`designs_data`; ``tests/league/test_seating_designs.py`` checks every one.
"""

from __future__ import annotations

import random
import time
from functools import cache

from .designs_data import BASE_TABLES

Table = tuple[int, int, int, int]
PARTNER_SEATS = ((0, 2), (1, 3))
OPPONENT_SEATS = ((0, 1), (1, 2), (2, 3), (3, 0))


def is_prime(n: int) -> bool:
    return n > 1 and all(n % k for k in range(2, int(n**0.5) + 1))


def _primitive_root(p: int) -> int:
    factors = {q for q in range(2, p) if (p - 1) % q == 0 and is_prime(q)}
    return next(g for g in range(2, p) if all(pow(g, (p - 1) // q, p) != 1 for q in factors))


def moore_base_tables(p: int) -> list[Table]:
    """Base tables of the cyclic Wh(p), p = 4n + 1 prime (Moore 1896 / Baker 1975)."""
    n = (p - 1) // 4
    x = _primitive_root(p)
    e = pow(x, n, p)
    tables = []
    for i in range(n):
        a = pow(x, i, p)
        tables.append((a, a * e % p, -a % p, -a * e % p))
    return tables


def develop(v: int, base: list[Table]) -> list[list[Table]]:
    """All rotations of the design developed from its base tables.

    v = 4n + 1: modulo v (v rotations; rotation r leaves out player r).
    v = 4n: modulo v - 1, player v - 1 (infinity) fixed (v - 1 rotations).
    """
    m = v if v % 4 == 1 else v - 1
    inf = v - 1 if v % 4 == 0 else None

    def shift(x: int, r: int) -> int:
        return x if x == inf else (x + r) % m

    return [[tuple(shift(x, r) for x in t) for t in base] for r in range(m)]


@cache
def base_tables(v: int, search_seconds: float = 0.0) -> tuple[Table, ...] | None:
    """Base tables of a known Wh(v), or None (optionally searching for a while)."""
    if v in BASE_TABLES:
        return tuple(BASE_TABLES[v])
    if v % 4 == 1 and is_prime(v):
        return tuple(moore_base_tables(v))
    if search_seconds > 0 and v % 4 in (0, 1) and v >= 5:
        found = search_base_tables(v, random.Random(v), search_seconds)
        return tuple(found) if found else None
    return None


def whist_design(v: int, search_seconds: float = 0.0) -> list[list[Table]] | None:
    """The rotations of a Wh(v) on players 0..v-1, or None when none is known."""
    if v == 9:  # no Z-cyclic Wh(9) exists: Moore's construction over GF(9) instead
        return gf9_design()
    base = base_tables(v, search_seconds)
    return develop(v, list(base)) if base else None


def gf9_design() -> list[list[Table]]:
    """Moore's Wh(9) over GF(9) = Z_3[i] (i*i = -1); element a + b*i is player a + 3*b.

    Primitive element x = 1 + i, e = x**2 = 2i; base tables (x^j, x^j e, -x^j, -x^j e), j < 2,
    developed over the additive group of GF(9): rotation g leaves out player g.
    """

    def add(u: int, w: int) -> int:
        return (u % 3 + w % 3) % 3 + 3 * ((u // 3 + w // 3) % 3)

    one, i_, two, two_i = 1, 3, 2, 6
    one_i, one_2i, two_2i, two_i1 = 4, 7, 8, 5  # 1+i, 1+2i, 2+2i, 2+i
    base = [(one, two_i, two, i_), (one_i, one_2i, two_2i, two_i1)]
    return [[tuple(add(x, g) for x in t) for t in base] for g in range(9)]


# --- search for base tables ------------------------------------------------------------------


def search_base_tables(v: int, rng: random.Random, seconds: float) -> list[Table] | None:
    """Hill-climb (with random restarts) over arrangements of the base tables.

    The cost counts how far the multiset of partner differences is from "every non-zero
    residue once" and the opponent differences from "every non-zero residue twice"; a cost of 0
    is a (Z-cyclic or 1-rotational) whist design.
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = _climb(v, rng, deadline)
        if found:
            return found
    return None


def _climb(v: int, rng: random.Random, deadline: float) -> list[Table] | None:
    m = v if v % 4 == 1 else v - 1
    inf = -1
    points = list(range(1, m)) if v % 4 == 1 else [*range(m), inf]
    rng.shuffle(points)
    pairs = _pairs_by_position(len(points))
    target = {"p": 1, "o": 2}
    counts = {"p": [0] * m, "o": [0] * m}

    def diffs(i: int, j: int) -> tuple[int, int] | None:
        a, b = points[i], points[j]
        if a == inf or b == inf:
            return None
        return (a - b) % m, (b - a) % m

    def apply(kind: str, i: int, j: int, sign: int) -> int:
        d = diffs(i, j)
        if d is None:
            return 0
        cost = 0
        arr, t = counts[kind], target[kind]
        for x in d:
            before = abs(arr[x] - t)
            arr[x] += sign
            cost += abs(arr[x] - t) - before
        return cost

    cost = sum(apply(k, i, j, 1) for k, i, j in pairs["all"]) + sum(
        target[k] * (m - 1) for k in target
    )
    stall = 0
    while cost and stall < 20000:
        if stall % 1024 == 0 and time.monotonic() > deadline:
            return None
        i, j = rng.sample(range(len(points)), 2)
        touched = set(pairs[i]) | set(pairs[j])
        delta = sum(apply(k, a, b, -1) for k, a, b in touched)
        points[i], points[j] = points[j], points[i]
        delta += sum(apply(k, a, b, 1) for k, a, b in touched)
        if delta <= 0:
            cost += delta
            stall = 0 if delta < 0 else stall + 1
        else:  # undo
            for k, a, b in touched:
                apply(k, a, b, -1)
            points[i], points[j] = points[j], points[i]
            for k, a, b in touched:
                apply(k, a, b, 1)
            stall += 1
    if cost:
        return None
    fixed = [m if x == inf else x for x in points]
    return [tuple(fixed[k : k + 4]) for k in range(0, len(fixed), 4)]


def _pairs_by_position(size: int) -> dict:
    """Pairs (kind, i, j) of flat positions, indexed by position and under "all"."""
    out: dict = {"all": []}
    for t in range(0, size, 4):
        for kind, seats in (("p", PARTNER_SEATS), ("o", OPPONENT_SEATS)):
            for a, b in seats:
                out["all"].append((kind, t + a, t + b))
    for pos in range(size):
        out[pos] = [p for p in out["all"] if pos in p[1:]]
    return out

"""Offline: Z-cyclic *ordered* whist tournaments OWh(v), v = 4n + 1, from nearly self-conjugate
base tables.

A table (a, b, -a, -b) over Z_v has partner differences +-2a, +-2b and feeds differences (next
minus current) +-(b - a), +-(a + b): the classes ({d, -d}) [a - b] and [a + b] once in each
direction. Two free tables on the points +-u1..+-u4 are arranged so that their partner
differences are the classes [2u1]..[2u4] and their eight feeds differences are four classes F,
each once in each direction. If the other classes pair up as {[a], [b]} with [a + b], [a - b]
and F covering every class once, the design is ordered: partners once, and every player feeds
every other player exactly once. (Without free tables the sum of the squares of all classes
would have to be 0 mod v, which fails when 3 divides v, e.g. 21, 33, 57.)

    .venv/bin/python research/seating/ordered_search.py SECONDS 33 57 [--unordered]

With ``--unordered`` the free tables need only put each of their classes twice (opponents
twice): a Z-cyclic Wh(v) that is ordered except on the free tables' classes.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from itertools import permutations

ORDERED = "--unordered" not in sys.argv


def cls(x: int, m: int) -> int:
    x %= m
    return min(x, m - x)


def free_parts(v: int, u: tuple[int, ...]):
    want = {cls(2 * x, v) for x in u}
    if len(want) != 4:
        return
    points = [s * x % v for x in u for s in (1, -1)]
    first = min(points)
    for p in permutations(points):
        if p[0] != first or p[4] != min(p[4:]):
            continue
        t1, t2 = p[:4], p[4:]
        partner = {cls(t[0] - t[2], v) for t in (t1, t2)} | {cls(t[1] - t[3], v) for t in (t1, t2)}
        if partner != want:
            continue
        feeds = [(t[(k + 1) % 4] - t[k]) % v for t in (t1, t2) for k in range(4)]
        classes = Counter(cls(f, v) for f in feeds)
        if any(n != 2 for n in classes.values()):
            continue  # opponents twice
        if ORDERED and (len(set(feeds)) != 8 or any((v - f) % v not in feeds for f in feeds)):
            continue  # and once in each direction
        yield (t1, t2), set(classes)


def match(v: int, free: set[int], used: set[int], rng: random.Random, deadline: float):
    pairs: list[tuple[int, int]] = []
    nodes = [0]

    def dfs() -> bool:
        nodes[0] += 1
        if nodes[0] % 5000 == 0 and time.monotonic() > deadline:
            raise TimeoutError
        if not free:
            return True
        a = min(free)
        free.discard(a)
        options = list(free)
        rng.shuffle(options)
        for b in options:
            s, d = cls(a + b, v), cls(a - b, v)
            if s == 0 or d == 0 or s == d or s in used or d in used:
                continue
            free.discard(b)
            used.update((s, d))
            pairs.append((a, b))
            if dfs():
                return True
            pairs.pop()
            used.difference_update((s, d))
            free.add(b)
        free.add(a)
        return False

    try:
        return pairs if dfs() else None
    except TimeoutError:
        return None


def search(v: int, rng: random.Random, seconds: float) -> list[tuple[int, ...]] | None:
    classes = list(range(1, (v - 1) // 2 + 1))
    squares = sum(c * c for c in classes)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        u = tuple(rng.sample(classes, 4))
        for tables, f_classes in free_parts(v, u):
            if (squares - 2 * sum(x * x for x in u) + sum(f * f for f in f_classes)) % v:
                continue  # sum of squares: S = 2 sum u^2 - sum f^2 (mod v) is necessary
            pairs = match(v, set(classes) - set(u), set(f_classes), rng, time.monotonic() + 0.5)
            if pairs is not None:
                return list(tables) + [(a, b, v - a, v - b) for a, b in pairs]
    return None


def main() -> None:
    seconds = float(sys.argv[1])
    for v in (int(a) for a in sys.argv[2:] if a.isdigit()):
        tables = search(v, random.Random(v), seconds)
        print(f"    {v}: {tables}," if tables else f"# {v}: not found", flush=True)


if __name__ == "__main__":
    main()

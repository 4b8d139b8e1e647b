"""Offline: 1-rotational whist tournaments Wh(4n) from (nearly) patterned starters, oriented.

Over Z_m, m = 4n - 1, plus infinity. Most base tables are (x, y, -x, -y): partners {x, -x} and
{y, -y} (partner differences +-2x, +-2y), opponents in the classes [x - y] and [x + y] (a class
is {d, -d}), twice each and once in each direction of play. The rest of the points, 0 and three
classes [u1], [u2], [u3], make the infinity table (inf, p0, p1, p2) and one free table
(p3, p4, p5, p6), arranged so their partner differences are the classes [2u1], [2u2], [2u3] and
their six opponent pairs fall twice in each of three classes F. If the classes [x_i - y_i],
[x_i + y_i] and F are every class once, this is a Wh(4n) (partners once, opponents twice),
and only the free part can feed a class one way (often a single class: v - 1 one-way pairs).

Sums of squares: (a + b)^2 + (a - b)^2 = 2(a^2 + b^2), so with S the sum of c^2 over all
classes, a solution needs S = 2(u1^2 + u2^2 + u3^2) - (sum of f^2 over F) (mod m); free parts
failing this are skipped. (The purely patterned form, with infinity table (inf, y, 0, -y),
needs S = y^2, which fails for every prime m > 3 as S = 0 there; hence the free table.)

    .venv/bin/python research/seating/patterned_search.py SECONDS 36 44 48
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from itertools import permutations


def cls(x: int, m: int) -> int:
    x %= m
    return min(x, m - x)


def free_parts(m: int, u: tuple[int, int, int]):
    """Arrangements of 0, +-u1, +-u2, +-u3 into the infinity table and one free table."""
    want = {cls(2 * x, m) for x in u}
    points = [0] + [s * x % m for x in u for s in (1, -1)]
    for p in permutations(points):
        if p[3] != min(p[3:]):  # rotations of the free table are the same table
            continue
        partner = {cls(p[0] - p[2], m), cls(p[3] - p[5], m), cls(p[4] - p[6], m)}
        if partner != want:
            continue
        edges = [(p[0], p[1]), (p[1], p[2])] + [(p[3 + k], p[3 + (k + 1) % 4]) for k in range(4)]
        count = Counter(cls(a - b, m) for a, b in edges)
        if 0 in count or any(c != 2 for c in count.values()):
            continue
        yield p, set(count), edges


def one_way_classes(edges: list[tuple[int, int]], m: int) -> int:
    fed: Counter = Counter((b - a) % m for a, b in edges)
    return sum(1 for d in range(1, (m + 1) // 2) if fed[d] + fed[m - d] and not (fed[d] and fed[m - d]))


def match(m: int, free: set[int], used: set[int], rng: random.Random, deadline: float):
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
            s, d = cls(a + b, m), cls(a - b, m)
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
    m = v - 1
    classes = list(range(1, (m - 1) // 2 + 1))
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        u = tuple(rng.sample(classes, 3))
        total = sum(c * c for c in classes) - 2 * sum(x * x for x in u)
        parts = [
            part for part in free_parts(m, u)
            if (total + sum(f * f for f in part[1])) % m == 0  # sum of squares (see below)
        ]
        parts.sort(key=lambda part: one_way_classes(part[2], m))
        for p, f_classes, _ in parts[:3]:
            rest = set(classes) - set(u)
            pairs = match(m, rest, set(f_classes), rng, time.monotonic() + 0.5)
            if pairs is not None:
                return [(m, p[0], p[1], p[2]), tuple(p[3:])] + [
                    (a, b, m - a, m - b) for a, b in pairs
                ]
    return None


def main() -> None:
    for v in map(int, sys.argv[2:]):
        tables = search(v, random.Random(v), float(sys.argv[1]))
        if tables:
            print(f"    {v}: {tables},", flush=True)
        else:
            print(f"# {v}: not found", file=sys.stderr)


if __name__ == "__main__":
    main()

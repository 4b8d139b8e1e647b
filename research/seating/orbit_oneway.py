"""Offline: a 1-rotational Wh(4n) with a single class fed one way, invariant under a multiplier.

Over Z_m (m = v - 1) plus infinity, the base rotation is the infinity table (inf, b, 0, d) and
n - 1 tables covering the rest; developing it mod m gives a whist tournament when the partner
differences hit every class {g, -g} once and the *feeds* differences (next minus current,
clockwise) hit every non-zero element once, except `special` twice and -special never: then
exactly one class is fed one way (v - 1 one-way pairs, the least a 1-rotational Wh(4n) can have,
see docs/seating.md). The feeds differences of the infinity table are -b and d, and all of them
sum to d - b, so d - b = 2 special.

A unit h of Z_m that fixes special, b and d lets the search look only at base rotations that
multiplication by h maps to itself (table for table, orientation kept): stage 1 draws a random
starter made of whole orbits of partner pairs (their classes {g, -g} each hit once), stage 2
seats the pairs by whole orbits of tables, an exact cover of the pairs and of the feeds
differences. Every choice then fixes |h| tables at once. With h = 1 it is the plain search of
``research/seating/starter_cover.c`` mode 2 (which is far faster for that). For Wh(64) a unit of order 3
fixing only 0, 21 and 42 makes it quick (a solution every few dozen starters, seconds):

    python3 research/seating/orbit_oneway.py 64 --h 58 --special 21 --b 42 --d 21

For a prime v - 1 no unit but 1 fixes special, so the multiplier cannot help there; for
v - 1 = 55 the only candidates (h = 34, of order 2, fixing the multiples of 5) gave nothing in
10 minutes.

Prints the base tables as a Python list (for league/seating/designs_data.py, verified by
tests/league/test_seating_designs.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter


def normal(table: tuple[int, ...]) -> tuple[int, ...]:
    """The same clockwise table, starting from its least player."""
    k = table.index(min(table))
    return table[k:] + table[:k]


class Problem:
    """The base rotation less the infinity table, invariant under x -> h x (mod m)."""

    def __init__(self, v: int, h: int, special: int, b: int, d: int) -> None:
        self.m = m = v - 1
        self.h = h % m
        self.special, self.b, self.d = special % m, b % m, d % m
        if (self.d - self.b) % m != (2 * self.special) % m:
            sys.exit("d - b must be 2 special (the feeds differences sum to d - b)")
        if any((x * self.h) % m != x for x in (self.special, self.b, self.d)):
            sys.exit("h must fix special, b and d")
        self.powers = [1]
        while (self.powers[-1] * self.h) % m != 1:
            self.powers.append((self.powers[-1] * self.h) % m)
        self.inf_class = self.cls(self.d - self.b)
        self.elements = [x for x in range(m) if x not in (0, self.b, self.d)]
        # every non-zero difference fed once, special twice and -special never, less the
        # infinity table's own feeds -b and d
        self.need = [0] + [1] * (m - 1)
        self.need[self.special] += 1
        self.need[(-self.special) % m] -= 1
        for g in ((-self.b) % m, self.d):
            self.need[g] -= 1
        if min(self.need) < 0:
            sys.exit("the infinity table feeds -special or special three times")

    def cls(self, g: int) -> int:
        g %= self.m
        return min(g, self.m - g)

    def images(self, pair: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [tuple((x * p) % self.m for x in pair) for p in self.powers]

    def random_starter(self, rng: random.Random, budget: int = 20000) -> list[tuple[int, int]] | None:
        """Partner pairs, mapped to each other by h, whose classes {g, -g} are each hit once."""
        free = set(self.elements)
        used_class: set[int] = {self.inf_class}
        pairs: list[tuple[int, int]] = []
        steps = [budget]

        def dfs() -> bool:
            steps[0] -= 1
            if steps[0] < 0:
                return False
            if not free:
                return True
            x = min(free)
            candidates = sorted(free - {x})
            rng.shuffle(candidates)
            for y in candidates:
                orbit = {frozenset(p) for p in self.images((x, y))}
                members = [e for p in orbit for e in p]
                classes = [self.cls(max(p) - min(p)) for p in orbit]
                if (len(set(members)) != len(members) or not set(members) <= free
                        or len(set(classes)) != len(classes) or used_class & set(classes)):
                    continue
                free.difference_update(members)
                used_class.update(classes)
                added = [tuple(sorted(p)) for p in orbit]
                pairs.extend(added)  # type: ignore[arg-type]
                if dfs():
                    return True
                del pairs[-len(added):]
                used_class.difference_update(classes)
                free.update(members)
            return False

        return pairs if dfs() else None

    def table_orbits(self, pairs: list[tuple[int, int]]) -> list[tuple[frozenset[int], list[int], list[tuple[int, ...]]]]:
        """Every orbit of tables made of two starter pairs: (pairs covered, feeds, tables)."""
        m = self.m
        index = {p: i for i, p in enumerate(pairs)}
        seen: set[frozenset[tuple[int, ...]]] = set()
        out = []
        for i, (a, c) in enumerate(pairs):
            for j in range(i + 1, len(pairs)):
                for b, d in (pairs[j], pairs[j][::-1]):
                    tables = {normal(t) for t in self.images((a, b, c, d))}
                    key = frozenset(tables)
                    if key in seen:
                        continue
                    seen.add(key)
                    members = [x for t in tables for x in t]
                    if len(set(members)) != len(members):
                        continue  # two tables of the orbit share a player
                    feeds = [(t[(s + 1) % 4] - t[s]) % m for t in tables for s in range(4)]
                    if any(n > self.need[g] for g, n in Counter(feeds).items()):
                        continue
                    covered = frozenset(index[tuple(sorted((t[s], t[s + 2])))] for t in tables for s in (0, 1))
                    out.append((covered, feeds, sorted(tables)))
        return out

    def tables(self, pairs: list[tuple[int, int]], node_limit: int = 20000) -> list[tuple[int, ...]] | None:
        """Seat the starter's pairs by orbits of tables so that every feeds difference is hit once."""
        search = _Cover(self.table_orbits(pairs), len(pairs), list(self.need), node_limit)
        if not search.solve():
            return None
        return [(self.m, self.b, 0, self.d)] + [t for o in search.chosen for t in search.options[o][2]]


class _Cover:
    """Depth-first exact cover: every pair once, every feeds difference as often as needed;
    branches on the uncovered pair with the fewest table orbits still possible."""

    def __init__(self, options: list, n_pairs: int, need: list[int], node_limit: int) -> None:
        self.options = [(covered, Counter(feeds), tables) for covered, feeds, tables in options]
        self.by_pair: list[list[int]] = [[] for _ in range(n_pairs)]
        for o, (covered, _, _) in enumerate(self.options):
            for i in covered:
                self.by_pair[i].append(o)
        self.covered = [False] * n_pairs
        self.need = need
        self.chosen: list[int] = []
        self.nodes_left = node_limit

    def live(self, o: int) -> bool:
        covered, feeds, _ = self.options[o]
        return not any(self.covered[i] for i in covered) and all(self.need[g] >= n for g, n in feeds.items())

    def apply(self, o: int, sign: int) -> None:
        covered, feeds, _ = self.options[o]
        for i in covered:
            self.covered[i] = sign > 0
        for g, n in feeds.items():
            self.need[g] -= sign * n

    def solve(self) -> bool:
        self.nodes_left -= 1
        if self.nodes_left < 0:
            return False
        best: list[int] | None = None
        for i, done in enumerate(self.covered):
            if not done:
                here = [o for o in self.by_pair[i] if self.live(o)]
                if best is None or len(here) < len(best):
                    best = here
        if best is None:
            return True
        for o in best:
            self.apply(o, 1)
            self.chosen.append(o)
            if self.solve():
                return True
            self.chosen.pop()
            self.apply(o, -1)
        return False


def check(v: int, base: list[tuple[int, int, int, int]]) -> int:
    """Partners once, opponents twice over the developed design; return the one-way pairs."""
    m = v - 1
    part: dict[frozenset, int] = {}
    feeds: dict[tuple[int, int], int] = {}
    for r in range(m):
        seen = set()
        for t in base:
            t = tuple(x if x == m else (x + r) % m for x in t)
            seen.update(t)
            for p in (frozenset((t[0], t[2])), frozenset((t[1], t[3]))):
                part[p] = part.get(p, 0) + 1
            for s in range(4):
                feeds[(t[s], t[(s + 1) % 4])] = feeds.get((t[s], t[(s + 1) % 4]), 0) + 1
        if seen != set(range(v)):
            sys.exit(f"rotation {r} does not seat every player once")
    if len(part) != v * (v - 1) // 2 or set(part.values()) != {1}:
        sys.exit("not every pair partners exactly once")
    one_way = 0
    for x in range(v):
        for y in range(x + 1, v):
            a, b = feeds.get((x, y), 0), feeds.get((y, x), 0)
            if a + b != 2:
                sys.exit(f"players {x} and {y} oppose {a + b} times, not twice")
            one_way += a == 2 or b == 2
    return one_way


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("v", type=int)
    parser.add_argument("--h", type=int, required=True)
    parser.add_argument("--special", type=int, required=True)
    parser.add_argument("--b", type=int, required=True)
    parser.add_argument("--d", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=600)
    args = parser.parse_args()
    problem = Problem(args.v, args.h, args.special, args.b, args.d)
    rng = random.Random(args.seed)
    end = time.monotonic() + args.seconds
    starters = 0
    while time.monotonic() < end:
        pairs = problem.random_starter(rng)
        if pairs is None:
            continue
        starters += 1
        base = problem.tables(pairs)
        if base is None:
            continue
        one_way = check(args.v, base)
        print(f"# v={args.v}: starter {starters}, {one_way} one-way pairs", file=sys.stderr)
        print(base)
        return
    sys.exit(f"v={args.v}: none in {starters} starters")


if __name__ == "__main__":
    main()

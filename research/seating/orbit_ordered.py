"""Offline: ordered Z-cyclic Wh(v) for v = 3p (p prime, 4 | v - 1, 3 | p - 1; here 57) from multiplier
orbits, by two exact covers (Knuth's Algorithm X).

Over Z_v, 0 sits out. H = {1, h, h^2} with h = 1 (mod 3) of order 3 mod p is a group of units
fixing exactly the multiples of p (p, 2p); it splits the other non-zero elements into orbits of
3. If a base table T has its four points, its partner differences +-(a - c), +-(b - d) and its
feeds differences (next minus current) in distinct orbits, then T, hT, h^2 T contribute whole
orbits of each. The starter is two *free* tables on p, 2p and two orbits (their partner and
feeds differences must be p, 2p and whole orbits) plus orbit triples T, hT, h^2 T covering the
other orbits: an exact cover over orbits of points, partner differences and feeds differences.
Every non-zero difference then occurs once as a partner difference and once as a feeds
difference: every pair partners once, and every player feeds every other player exactly once.
(A random starter with a plain exact cover, research/seating/starter_cover.c, finds 33 but not 57.)

    .venv/bin/python research/seating/orbit_ordered.py 57 SECONDS
"""

from __future__ import annotations

import random
import sys
import time
from itertools import combinations, permutations, product


class Cover:
    """Algorithm X on dicts of sets (Knuth), options tried in a random order."""

    def __init__(self, items, options: dict, rng: random.Random) -> None:
        self.options = options
        self.cols: dict = {i: set() for i in items}
        for name, its in options.items():
            for i in its:
                self.cols[i].add(name)
        self.order = {name: rng.random() for name in options}
        self.solution: list = []
        self.nodes = 0

    def select(self, r):
        out = []
        for j in self.options[r]:
            for i in self.cols[j]:
                for k in self.options[i]:
                    if k != j:
                        self.cols[k].discard(i)
            out.append(self.cols.pop(j))
        return out

    def deselect(self, r, out) -> None:
        for j in reversed(self.options[r]):
            self.cols[j] = out.pop()
            for i in self.cols[j]:
                for k in self.options[i]:
                    if k != j:
                        self.cols[k].add(i)

    def search(self, budget: int) -> bool:
        self.nodes += 1
        if self.nodes > budget:
            raise TimeoutError
        if not self.cols:
            return True
        c = min(self.cols, key=lambda c: len(self.cols[c]))
        for r in sorted(self.cols[c], key=self.order.__getitem__):
            self.solution.append(r)
            out = self.select(r)
            if self.search(budget):
                return True
            self.deselect(r, out)
            self.solution.pop()
        return False


def exact_cover(items, options: dict, budget: int, rng: random.Random):
    """One exact cover, or None when there is none or it takes over ``budget`` nodes."""
    cover = Cover(items, options, rng)
    try:
        return list(cover.solution) if cover.search(budget) else None
    except TimeoutError:
        return None


def feeds(t):
    return [t[(k + 1) % 4] - t[k] for k in range(4)]


class Orbits:
    """The orbits of H = {1, h, h^2} on Z_v minus 0, p and 2p."""

    def __init__(self, v: int) -> None:
        self.v = v
        p = v // 3
        h = next(h for h in range(2, v) if h % 3 == 1 and h % p and pow(h, 3, p) == 1)
        self.group = [1, h, h * h % v]
        self.fixed = {p, 2 * p}
        self.orbits: list[tuple[int, ...]] = []
        self.orbit_of: dict[int, int] = {}
        for x in range(1, v):
            if x not in self.fixed and x not in self.orbit_of:
                orbit = tuple(sorted(x * g % v for g in self.group))
                for y in orbit:
                    self.orbit_of[y] = len(self.orbits)
                self.orbits.append(orbit)

    def free_part(self, t1, t2):
        """(partner orbits, feeds orbits) of two free tables, or None when they do not fit."""
        v, fixed = self.v, self.fixed
        pd = [(t[0] - t[2]) % v for t in (t1, t2)] + [(t[1] - t[3]) % v for t in (t1, t2)]
        pd += [-x % v for x in pd]
        fd = [x % v for t in (t1, t2) for x in feeds(t)]
        if len(set(pd)) < 8 or len(set(fd)) < 8 or not (fixed <= set(pd) and fixed <= set(fd)):
            return None
        po = [self.orbit_of[x] for x in pd if x not in fixed]
        fo = [self.orbit_of[x] for x in fd if x not in fixed]
        if any(po.count(o) != 3 for o in po) or any(fo.count(o) != 3 for o in fo):
            return None
        return set(po), set(fo)

    def free_parts(self):
        """Two tables on p, 2p and two orbits, with whole orbits of differences."""
        out = []
        for o1, o2 in combinations(range(len(self.orbits)), 2):
            pts = sorted(self.fixed | set(self.orbits[o1]) | set(self.orbits[o2]))
            first = pts[0]
            for a_partner in pts[1:]:
                rest = [x for x in pts if x not in (first, a_partner)]
                for q in permutations(rest):
                    t1, t2 = (first, q[0], a_partner, q[1]), (q[2], q[3], q[4], q[5])
                    fit = self.free_part(t1, t2)
                    if fit:
                        out.append(((t1, t2), {o1, o2}, fit[0], fit[1]))
        return out

    def orbit_table(self, t, free_po, free_fo):
        """The partner and feeds orbits of base table t, or None when they are not 4 + 4 new."""
        v = self.v
        a, b, c, d = t
        pd, fd = [a - c, c - a, b - d, d - b], feeds(t)
        if any(x % v in self.fixed for x in pd + fd):
            return None
        po = {self.orbit_of[x % v] for x in pd}
        fo = {self.orbit_of[x % v] for x in fd}
        if len(po) < 4 or len(fo) < 4 or po & free_po or fo & free_fo:
            return None
        return po, fo

    def options(self, free_pts, free_po, free_fo) -> dict:
        options = {}
        pts_orbits = [o for o in range(len(self.orbits)) if o not in free_pts]
        for quad in combinations(pts_orbits, 4):
            a = self.orbits[quad[0]][0]
            for perm in permutations(quad[1:]):
                for b, c, d in product(*(self.orbits[o] for o in perm)):
                    fit = self.orbit_table((a, b, c, d), free_po, free_fo)
                    if fit:
                        options[(a, b, c, d)] = tuple(
                            [("x", o) for o in quad] + [("p", o) for o in fit[0]]
                            + [("f", o) for o in fit[1]])
        return options


def main() -> None:
    v, seconds = int(sys.argv[1]), float(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else v)
    orb = Orbits(v)
    n_orb = len(orb.orbits)
    free_parts = orb.free_parts()
    print(f"# v={v}: {n_orb} orbits, {len(free_parts)} free parts", file=sys.stderr)
    rng.shuffle(free_parts)
    end = time.monotonic() + seconds
    for tries, (free_tables, free_pts, free_po, free_fo) in enumerate(free_parts):
        if time.monotonic() > end:
            break
        options = orb.options(free_pts, free_po, free_fo)
        items = [("x", o) for o in range(n_orb) if o not in free_pts]
        items += [("p", o) for o in range(n_orb) if o not in free_po]
        items += [("f", o) for o in range(n_orb) if o not in free_fo]
        sol = exact_cover(items, options, 20000, rng)
        if sol:
            tables = [tuple(x * g % v for x in t) for t in sol for g in orb.group]
            tables += [tuple(t) for t in free_tables]
            print(f"# v={v}: free part {tries + 1}", file=sys.stderr)
            print(f"    {v}: {tables},")
            return
    print(f"# v={v}: not found", file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    main()

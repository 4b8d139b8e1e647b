"""Offline: a 1-rotational Wh(4^k) from the field GF(4^k) (here 64 = 4^3), no search.

Players are the elements of GF(4^k), rotation i (i = 0 .. 4^k - 2) seats the cosets of the line
alpha^i GF(4) (alpha primitive), and two players at a table are partners when they differ by
alpha^i. Every pair {x, y} is at one table in the three rotations i with y - x in
alpha^i GF(4)* = {alpha^i, alpha^(i + r), alpha^(i + 2r)} (r = (4^k - 1) / 3), and partners in
exactly one of them (GF(4)* = {1, w, w^2}): partners once, opponents twice. In characteristic 2
"differ by alpha^i" pairs up each coset whatever its representative.

Rotation i is alpha^i times rotation 0, so with log coordinates (alpha^j -> j, 0 -> infinity) the
design is 1-rotational over Z_{4^k - 1}: rotation 0 (the cosets of GF(4)) is its base tables,
printed for ``league/seating/designs_data.py``.

The same four players meet three times (partners once in each of the three ways), and at three
tables of the same four players some pair is always fed one way: every line gives 3 one-way pairs,
3 * (number of lines) in all (1008 for 64), whatever the orientation.

    .venv/bin/python research/seating/affine_whist.py 6   # GF(2^6) = GF(64), polynomial x^6 + x + 1
"""

from __future__ import annotations

import sys

PRIMITIVE = {2: 0b111, 4: 0b10011, 6: 0b1000011}  # x^2+x+1, x^4+x+1, x^6+x+1


def base_tables(bits: int) -> list[tuple[int, int, int, int]]:
    poly = PRIMITIVE[bits]
    size = 1 << bits

    def mul(a: int, b: int) -> int:
        out = 0
        while b:
            if b & 1:
                out ^= a
            b >>= 1
            a <<= 1
            if a & size:
                a ^= poly
        return out

    powers = [1]
    for _ in range(size - 2):
        powers.append(mul(powers[-1], 2))
    if len(set(powers)) != size - 1:
        raise SystemExit(f"x is not primitive for GF({size})")
    log = {x: i for i, x in enumerate(powers)}
    r = (size - 1) // 3
    w, w2 = powers[r], powers[2 * r]  # GF(4)* = {1, w, w^2}
    inf = size - 1
    seen: set[int] = set()
    tables = []
    for x in range(size):
        if x in seen:
            continue
        coset = (x, x ^ w, x ^ 1, x ^ w2)  # partners x, x + 1 and x + w, x + w^2
        seen.update(coset)
        tables.append(tuple(inf if y == 0 else log[y] for y in coset))
    return tables


if __name__ == "__main__":
    bits = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    print(f"    {1 << bits}: {base_tables(bits)},")

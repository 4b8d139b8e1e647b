"""Base tables of whist tournaments Wh(v) found offline by ``tools/whist_search.c``
(simulated annealing over swaps of two points; see its header and docs/seating.md), and table
reversals found by ``tools/orient_designs.py``.

v = 4n: 1-rotational over Z_{v-1}, player v - 1 is the fixed point (infinity); the base tables
are oriented so that the feeds differences miss only one pair {d, -d} (v - 1 one-way pairs, or
the fewest found); ``FLIPS[v]`` (hex, bit k = table k of the developed design, rotation-major)
marks developed tables to reverse, which lowers the one-way pairs further.
v = 4n + 1 (21, 33, 45, 57: neither a prime nor a prime square): Z-cyclic over Z_v, player 0
left out of the base rotation, ordered (every player feeds every other player once).
Each table (a, b, c, d) is in clockwise seat order: partners a-c and b-d; a feeds b, b feeds c,
c feeds d, d feeds a. Every entry is verified by tests/league/test_seating_designs.py.
"""

# group moduli of designs that are not developed over the cyclic group Z_v or Z_{v-1}
GROUPS: dict[int, tuple[int, ...]] = {}

BASE_TABLES: dict[int, list[tuple[int, int, int, int]]] = {
    4: [
        (2, 3, 0, 1),
    ],
    8: [
        (6, 3, 7, 4), (2, 5, 0, 1),
    ],
    12: [
        (6, 10, 11, 5), (7, 4, 3, 1), (2, 9, 0, 8),
    ],
    16: [
        (14, 8, 13, 11), (12, 4, 6, 15), (3, 0, 7, 2), (1, 10, 9, 5),
    ],
    21: [
        (13, 12, 20, 17), (4, 9, 7, 10), (5, 14, 18, 3), (15, 6, 19, 8), (11, 1, 2, 16),
    ],
}

FLIPS: dict[int, str] = {
}

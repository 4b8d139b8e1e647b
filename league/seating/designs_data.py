"""Base tables of Wh(v) found offline by a seeded hill-climb (``designs.search_base_tables``;
Wh(32) by the same algorithm compiled in C, as the Python one is slow at that size).

v = 4n: 1-rotational over Z_{v-1}, player v - 1 is the fixed point (infinity).
v = 4n + 1: Z-cyclic over Z_v, player 0 left out of the base rotation.
Each table (a, b, c, d) is in seat order: partners a-c and b-d. Every entry is verified by
tests/league/test_seating_designs.py.
"""

BASE_TABLES: dict[int, list[tuple[int, int, int, int]]] = {
    8: [(5, 1, 6, 7), (0, 2, 3, 4)],
    12: [(8, 10, 4, 7), (5, 11, 6, 1), (2, 3, 0, 9)],
    16: [(1, 11, 7, 0), (9, 12, 6, 14), (2, 8, 10, 13), (15, 4, 3, 5)],
    20: [(14, 12, 6, 15), (2, 18, 4, 5), (9, 1, 8, 13), (17, 10, 19, 0), (3, 16, 7, 11)],
    21: [(3, 13, 10, 15), (2, 17, 18, 11), (5, 9, 6, 19), (16, 14, 12, 1), (20, 4, 8, 7)],
    24: [
        (18, 9, 23, 10), (16, 11, 7, 17), (21, 15, 1, 3),
        (0, 6, 2, 13), (12, 19, 22, 14), (20, 4, 5, 8),
    ],
    28: [
        (17, 14, 8, 21), (2, 20, 13, 27), (11, 9, 25, 10), (12, 4, 18, 7),
        (3, 24, 15, 5), (26, 6, 1, 16), (0, 19, 22, 23),
    ],
    32: [
        (21, 18, 23, 14), (9, 19, 17, 28), (20, 6, 10, 13), (30, 29, 4, 12),
        (3, 15, 0, 16), (31, 25, 8, 7), (11, 22, 27, 2), (26, 5, 1, 24),
    ],
}

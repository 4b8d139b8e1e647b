"""Base tables of whist tournaments Wh(v) found offline (see docs/seating.md and ``tools/``).

v = 4n: 1-rotational over Z_{v-1}, player v - 1 is the fixed point (infinity). Found by
``tools/patterned_search.py`` (28, 36, 40: nearly patterned starters) or by the hill-climb
``tools/whist_search.c`` (the others), then oriented by ``tools/orient_designs.py``: the base
tables take the best of their 2^n orientations, and ``FLIPS[v]`` (hex, bit k = table k of the
developed design in rotation-major order) marks developed tables to reverse, which lowers the
one-way pairs further.
v = 21, 33: Z-cyclic over Z_v, player 0 left out of the base rotation, ordered (every player
feeds every other player once); 21 by OR-Tools CP-SAT (``tools/cpsat_whist.py``), 33 by
``tools/starter_cover.c`` (a random starter, then an exact cover seating its partner pairs).
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
        (7, 0, 1, 5), (2, 3, 6, 4),
    ],
    12: [
        (4, 7, 2, 6), (9, 5, 11, 10), (3, 8, 0, 1),
    ],
    16: [
        (4, 9, 1, 2), (0, 8, 6, 12), (7, 11, 5, 10), (14, 13, 15, 3),
    ],
    20: [
        (1, 15, 19, 17), (9, 13, 2, 3), (14, 6, 8, 5), (10, 16, 7, 12), (4, 0, 18, 11),
    ],
    21: [
        (1, 18, 16, 7), (2, 11, 3, 19), (4, 10, 20, 17), (5, 12, 14, 15), (6, 9, 8, 13),
    ],
    24: [
        (18, 10, 23, 9), (16, 11, 7, 17), (21, 3, 1, 15), (0, 13, 2, 6), (12, 14, 22, 19),
        (20, 4, 5, 8),
    ],
    28: [
        (27, 3, 0, 24), (1, 13, 26, 14), (2, 8, 25, 19), (4, 5, 23, 22), (6, 10, 21, 17),
        (7, 12, 20, 15), (9, 11, 18, 16),
    ],
    32: [
        (21, 18, 23, 14), (9, 28, 17, 19), (20, 6, 10, 13), (30, 12, 4, 29), (3, 15, 0, 16),
        (31, 25, 8, 7), (11, 22, 27, 2), (26, 5, 1, 24),
    ],
    33: [
        (23, 26, 13, 5), (15, 22, 6, 19), (14, 2, 3, 8), (28, 11, 10, 24), (30, 25, 16, 18),
        (9, 7, 1, 12), (31, 17, 32, 21), (20, 29, 4, 27),
    ],
    36: [
        (35, 0, 10, 15), (5, 25, 30, 20), (1, 8, 34, 27), (2, 14, 33, 21), (3, 11, 32, 24),
        (4, 7, 31, 28), (6, 12, 29, 23), (9, 13, 26, 22), (16, 17, 19, 18),
    ],
    40: [
        (39, 13, 0, 26), (1, 4, 38, 35), (2, 10, 37, 29), (3, 12, 36, 27), (5, 15, 34, 24),
        (6, 17, 33, 22), (7, 11, 32, 28), (8, 14, 31, 25), (9, 16, 30, 23), (18, 19, 21, 20),
    ],
    44: [
        (43, 35, 0, 42), (19, 32, 34, 8), (12, 27, 38, 26), (15, 7, 36, 5), (40, 25, 30, 31),
        (3, 9, 28, 6), (1, 23, 39, 37), (10, 33, 14, 20), (2, 22, 18, 11), (13, 17, 4, 29),
        (41, 24, 21, 16),
    ],
    48: [
        (47, 42, 0, 26), (27, 9, 2, 37), (1, 45, 10, 24), (11, 18, 7, 16), (28, 36, 39, 22),
        (19, 44, 43, 15), (29, 46, 17, 33), (41, 8, 21, 5), (3, 35, 20, 30), (31, 32, 23, 25),
        (12, 34, 13, 40), (6, 4, 38, 14),
    ],
    56: [
        (55, 24, 0, 19), (31, 43, 6, 26), (51, 34, 41, 12), (49, 9, 15, 38), (40, 28, 46, 42),
        (35, 8, 39, 48), (3, 13, 27, 2), (5, 18, 4, 37), (44, 33, 36, 10), (7, 52, 53, 45),
        (30, 25, 50, 22), (17, 21, 1, 23), (20, 11, 47, 54), (16, 32, 29, 14),
    ],
    60: [
        (59, 30, 0, 40), (39, 57, 9, 13), (35, 7, 53, 8), (4, 20, 27, 58), (37, 43, 41, 18),
        (11, 45, 3, 2), (17, 19, 29, 21), (51, 24, 44, 56), (16, 54, 38, 1), (6, 36, 26, 50),
        (15, 23, 32, 12), (42, 25, 14, 49), (34, 22, 47, 48), (10, 31, 5, 28), (55, 52, 46, 33),
    ],
    # GF(64): the cosets of GF(4) in log coordinates (tools/affine_whist.py)
    64: [
        (63, 21, 0, 42), (1, 60, 6, 29), (2, 58, 12, 57), (7, 59, 26, 20), (3, 30, 32, 46),
        (13, 61, 35, 10), (8, 43, 48, 39), (27, 22, 18, 50), (4, 51, 24, 53), (33, 23, 16, 15),
        (14, 40, 52, 55), (36, 44, 54, 37), (9, 11, 45, 25), (49, 62, 38, 5), (28, 47, 41, 17),
        (19, 31, 56, 34),
    ],
}

FLIPS: dict[int, str] = {
    8: (
        "828"
    ),
    20: (
        "502c8781e1724912c5110641"
    ),
    28: (
        "152ad5ab52a54ab52ad5ab52a54ab56ad4a952a55ab56a54"
    ),
    32: (
        "f1d35a0ca4a5f7d35a0c84a4f7db5b4e0c24b7d35b5a28a5f5f35b0a0ca4b4"
    ),
    36: (
        "69b4fa7d369b4da7d269b4fa7d36974fa7d3e974ba4d26934ba6d26974ba6d26934ba5d269f4da6"
    ),
}

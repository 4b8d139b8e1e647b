"""Base tables of whist tournaments Wh(v) found offline (see docs/seating.md).

Provenance: the programs that found them are in ``research/seating/`` (outside the product,
with their README, the search diary and their requirements); none of them runs here.
v = 4n: 1-rotational over Z_{v-1}, player v - 1 is the fixed point (infinity). Found by
``patterned_search.py`` (28, 40: nearly patterned starters), the hill-climb
``whist_search.c`` (4, 8, 12, 16, 24), ``starter_cover.c`` (20 to 60: a random
starter, then an exact cover seating its partner pairs; for 44, 48, 52 its mode 2, which
demands a single class fed one way) or ``orbit_oneway.py`` (64: the same search among
base rotations that multiplication by 58 maps to themselves:
``orbit_oneway.py 64 --h 58 --special 21 --b 42 --d 21``). Then oriented by
``orient_designs.py``: the base tables take the best of their 2^n orientations, and
``FLIPS[v]`` (hex, bit k = table k of the developed design in rotation-major order) marks
developed tables to reverse, which lowers the one-way pairs further.
v = 21, 33, 57: Z-cyclic over Z_v, player 0 left out of the base rotation. 21 (OR-Tools CP-SAT,
``cpsat_whist.py``) and 33 (``starter_cover.c``) are ordered (every player feeds every
other player once); so is 57 (``starter_cover.c 57 98765 1200``, ordered mode, starter 1170).
The other v = 4n + 1 from 5 to 61 are constructed, not stored (Moore's construction,
``league.seating.designs``).
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
        (19, 17, 0, 2), (7, 13, 8, 16), (1, 14, 10, 9), (18, 4, 11, 15), (5, 6, 3, 12),
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
        (31, 4, 0, 8), (18, 24, 26, 6), (28, 1, 16, 23), (21, 15, 7, 20), (2, 12, 9, 11),
        (5, 25, 3, 22), (30, 17, 10, 27), (29, 19, 14, 13),
    ],
    33: [
        (23, 26, 13, 5), (15, 22, 6, 19), (14, 2, 3, 8), (28, 11, 10, 24), (30, 25, 16, 18),
        (9, 7, 1, 12), (31, 17, 32, 21), (20, 29, 4, 27),
    ],
    36: [
        (35, 20, 0, 18), (6, 32, 17, 31), (25, 1, 30, 29), (26, 33, 11, 23), (24, 21, 7, 5),
        (15, 3, 28, 34), (2, 19, 8, 10), (12, 16, 9, 4), (14, 13, 22, 27),
    ],
    40: [
        (39, 13, 0, 26), (1, 4, 38, 35), (2, 10, 37, 29), (3, 12, 36, 27), (5, 15, 34, 24),
        (6, 17, 33, 22), (7, 11, 32, 28), (8, 14, 31, 25), (9, 16, 30, 23), (18, 19, 21, 20),
    ],
    44: [
        (43, 19, 0, 21), (38, 10, 41, 16), (28, 31, 32, 17), (6, 12, 1, 24), (23, 15, 13, 7),
        (39, 9, 14, 22), (11, 40, 37, 4), (42, 35, 18, 8), (36, 5, 25, 27), (26, 2, 3, 30),
        (29, 33, 20, 34),
    ],
    48: [
        (47, 2, 0, 4), (37, 27, 16, 44), (17, 11, 20, 35), (7, 21, 32, 29), (42, 5, 28, 24),
        (38, 43, 45, 25), (8, 3, 9, 39), (14, 15, 23, 30), (13, 46, 33, 12), (26, 1, 36, 6),
        (34, 19, 40, 31), (22, 41, 18, 10),
    ],
    52: [
        (51, 7, 0, 9), (31, 38, 4, 49), (35, 46, 47, 1), (8, 3, 18, 41), (16, 24, 25, 45),
        (14, 20, 39, 23), (42, 30, 27, 2), (29, 10, 22, 43), (11, 21, 6, 37), (44, 48, 40, 17),
        (33, 36, 32, 19), (34, 13, 15, 5), (12, 28, 26, 50),
    ],
    56: [
        (55, 46, 0, 45), (40, 28, 11, 10), (7, 22, 48, 50), (14, 34, 44, 25), (6, 29, 13, 42),
        (41, 52, 49, 47), (27, 51, 3, 35), (21, 8, 36, 18), (1, 5, 54, 16), (39, 53, 33, 17),
        (9, 43, 30, 31), (2, 23, 19, 26), (15, 20, 38, 24), (37, 32, 4, 12),
    ],
    57: [
        (5, 55, 23, 11), (12, 18, 26, 46), (35, 27, 10, 22), (8, 40, 2, 4), (15, 25, 52, 36),
        (32, 33, 49, 6), (53, 42, 41, 19), (56, 51, 48, 9), (43, 24, 39, 21), (1, 31, 3, 47),
        (28, 37, 54, 30), (29, 34, 20, 44), (50, 14, 17, 13), (7, 38, 45, 16),
    ],
    60: [
        (59, 30, 0, 40), (39, 57, 9, 13), (35, 7, 53, 8), (4, 20, 27, 58), (37, 43, 41, 18),
        (11, 45, 3, 2), (17, 19, 29, 21), (51, 24, 44, 56), (16, 54, 38, 1), (6, 36, 26, 50),
        (15, 23, 32, 12), (42, 25, 14, 49), (34, 22, 47, 48), (10, 31, 5, 28), (55, 52, 46, 33),
    ],
    # invariant under multiplication by 58 (research/seating/orbit_oneway.py 64 --h 58 --special 21 --b 42 --d 21)
    64: [
        (63, 42, 0, 21), (1, 15, 61, 41), (10, 47, 58, 51), (13, 17, 25, 60), (7, 22, 40, 45),
        (16, 52, 27, 28), (46, 55, 54, 49), (4, 6, 18, 35), (9, 56, 37, 24), (14, 43, 33, 36),
        (2, 12, 19, 11), (3, 31, 8, 53), (23, 50, 48, 34), (5, 39, 59, 29), (20, 44, 38, 57),
        (26, 32, 62, 30),
    ],
}

FLIPS: dict[int, str] = {
    8: (
        "828"
    ),
    20: (
        "108001080210002100021"
    ),
    28: (
        "152ad5ab52a54ab52ad5ab52a54ab56ad4a952a55ab56a54"
    ),
    56: (
        "235ba96ebd2af4bfc8eb018bcf3b7eadeaf583dceaf3abc6f7117df0d7eb57f5dd55f85e6d71b6c27989f22f"
        "c83e2138d6e35bad4abd2bf0bec8e2d38bcfbb7eade2f71fdcead3abc66f5935fcd7bd7775dc57fb5c6df196"
        "e27d8bf22f885a252"
    ),
    60: (
        "230a465520010052b2a900080291954a2080008ca859048006214acaa400200a46552002004a32a964120011"
        "85432090008429195480040148caa410400046552c82400210a46512001085232a904180111954b2080008ca"
        "8191480042148caa400200a46552082000232a964100"
    ),
}

"""Whist tournament designs Wh(v): every pair partners once and opponents twice.

A table is a 4-tuple ``(a, b, c, d)`` in clockwise seat order: partners ``a``-``c`` and
``b``-``d``; opponents ``a``-``b``, ``b``-``c``, ``c``-``d``, ``d``-``a``. Play goes clockwise,
so ``a`` feeds ``b`` (``b`` picks up what ``a`` discards), ``b`` feeds ``c``, ``c`` feeds ``d``
and ``d`` feeds ``a``. Players are 0..v-1.

Every design here is developed from base tables over an abelian group ``G`` (given by its
moduli, elements numbered in mixed radix); there is one for every v = 0, 1 (mod 4) from 4 to 64:

* v = 4n + 1, |G| = v: the base tables cover G minus 0; developing them gives v rotations,
  rotation g leaving out player g. For v = q a prime or the square of a prime (5, 9, 13, 17,
  25, 29, 37, 41, 49, 53, 61) Moore's construction over GF(q); for 45 the same over the ring
  GF(9) x GF(5); for 21, 33 and 57 base tables over Z_v found offline. All are
  *ordered*: the "feeds" differences (next minus current around each table) cover G minus 0
  once, so every player feeds every other player exactly once.
* v = 4n, |G| = v - 1: 1-rotational designs over Z_{v-1} plus a fixed point "infinity"
  (player v - 1); v - 1 rotations. Base tables found offline, oriented so that few classes {d, -d} of feeds differences are fed one way
  (at least one always is: the feeds differences of all tables sum to a partner difference,
  never 0). Reversing single developed tables (``FLIPS``, found offline by
  ``research/seating/orient_designs.py``) lowers the one-way pairs further.

The base tables are shipped in :mod:`designs_data` (see there and ``research/seating/`` for how each was
found); nothing searches at run time, and ``tests/league/test_seating_designs.py`` checks every
one.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .designs_data import BASE_TABLES, FLIPS, GROUPS

Table = tuple[int, int, int, int]
PARTNER_SEATS = ((0, 2), (1, 3))
OPPONENT_SEATS = ((0, 1), (1, 2), (2, 3), (3, 0))


def is_prime(n: int) -> bool:
    return n > 1 and all(n % k for k in range(2, int(n**0.5) + 1))


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with q = p**k for k in (1, 2), else None."""
    if is_prime(q):
        return q, 1
    root = round(q**0.5)
    return (root, 2) if root * root == q and is_prime(root) else None


# --- the finite field GF(p) or GF(p^2), elements numbered a*p + b for a + b*t ------------------


class Field:
    """GF(p) (k = 1) or GF(p^2) = GF(p)[t] / (t^2 - r), r a non-residue (k = 2)."""

    def __init__(self, p: int, k: int) -> None:
        self.p, self.k = p, k
        self.q = p**k
        self.r = next(r for r in range(2, p) if pow(r, (p - 1) // 2, p) == p - 1) if k == 2 else 0

    def mul(self, x: int, y: int) -> int:
        p = self.p
        if self.k == 1:
            return x * y % p
        a, b, c, d = x // p, x % p, y // p, y % p  # x = b + a t, y = d + c t
        const = (b * d + a * c * self.r) % p
        lin = (a * d + b * c) % p
        return lin * p + const

    def neg(self, x: int) -> int:
        p = self.p
        return ((-(x // p)) % p) * p + (-(x % p)) % p if self.k == 2 else -x % p

    def power(self, x: int, e: int) -> int:
        out = 1
        for _ in range(e):
            out = self.mul(out, x)
        return out

    def primitive(self) -> int:
        for x in range(2, self.q):
            y, order = x, 1
            while y != 1:
                y, order = self.mul(y, x), order + 1
            if order == self.q - 1:
                return x
        raise ValueError(f"no primitive element in GF({self.q})")

    @property
    def moduli(self) -> tuple[int, ...]:
        return (self.p,) * self.k


def moore_base_tables(q: int) -> list[Table]:
    """Base tables of Moore's ordered Wh(q), q = 4n + 1 a prime or the square of a prime.

    With a primitive element x and e = x^n (so e^2 = -1): tables (x^i, x^i e, -x^i, -x^i e),
    i < n. Partner differences 2x^i<e> and feeds differences x^i (e - 1)<e> each run over every
    non-zero element once.
    """
    p, k = prime_power(q) or (0, 0)
    if k == 0 or q % 4 != 1:
        raise ValueError(f"Moore's construction needs a prime or prime square 4n + 1, not {q}")
    field = Field(p, k)
    n = (q - 1) // 4
    x = field.primitive()
    e = field.power(x, n)
    tables = []
    a = 1
    for _ in range(n):
        ae = field.mul(a, e)
        tables.append((a, ae, field.neg(a), field.neg(ae)))
        a = field.mul(a, x)
    return tables


def product_moore_base_tables(fields: tuple[tuple[int, int], ...]) -> tuple[list[Table], tuple[int, ...]]:
    """Moore's construction over the ring R = GF(q1) x GF(q2) x ..., every q_i = 4k + 1 odd.

    With e = (e1, e2, ...), e_i^2 = -1 in GF(q_i): multiplying by <e> = {1, e, -1, -e} moves
    every non-zero element (e - 1 is a unit, so e r = r only for r = 0), so orbit
    representatives x give base tables (x, xe, -x, -xe) on all of R minus 0; partner
    differences 2x<e> and feeds differences x(e - 1)<e> cover R minus 0 once (2 and e - 1 are
    units): an ordered design on |R| players (e.g. 45 = GF(9) x GF(5)).
    Returns the tables (elements in mixed radix over the fields' moduli) and the moduli.
    """
    rings = [Field(p, k) for p, k in fields]
    es = [ring.power(ring.primitive(), (ring.q - 1) // 4) for ring in rings]
    sizes = [ring.q for ring in rings]

    def split(x: int) -> list[int]:
        out = []
        for q in reversed(sizes):
            out.append(x % q)
            x //= q
        return out[::-1]

    def join(parts: list[int]) -> int:
        x = 0
        for q, part in zip(sizes, parts, strict=True):
            x = x * q + part
        return x

    def times(x: int, ys: list[int]) -> int:
        return join([r.mul(a, b) for r, a, b in zip(rings, split(x), ys, strict=True)])

    def neg(x: int) -> int:
        return join([r.neg(a) for r, a in zip(rings, split(x), strict=True)])

    total = 1
    for q in sizes:
        total *= q
    seen: set[int] = set()
    tables = []
    for x in range(1, total):
        if x in seen:
            continue
        xe = times(x, es)
        table = (x, xe, neg(x), neg(xe))
        seen.update(table)
        tables.append(table)
    moduli = tuple(m for ring in rings for m in ring.moduli)
    return tables, moduli


# fields of the rings used for v = 4n + 1 that is neither a prime nor a prime square
PRODUCT_RINGS: dict[int, tuple[tuple[int, int], ...]] = {45: ((3, 2), (5, 1))}


# --- development --------------------------------------------------------------------------------


def group_add(x: int, y: int, moduli: tuple[int, ...]) -> int:
    """Sum in Z_m1 x Z_m2 x ... of elements numbered in mixed radix (last modulus lowest)."""
    out, scale = 0, 1
    for m in reversed(moduli):
        out += ((x % m + y % m) % m) * scale
        x, y, scale = x // m, y // m, scale * m
    return out


def develop(v: int, base: list[Table], moduli: tuple[int, ...] | None = None) -> list[list[Table]]:
    """All rotations of the design developed from its base tables over the group ``moduli``
    (default Z_v for v = 4n + 1, Z_{v-1} for v = 4n, whose point v - 1 stays fixed)."""
    order = v if v % 4 == 1 else v - 1
    moduli = moduli or (order,)
    inf = v - 1 if v % 4 == 0 else None

    def shift(x: int, g: int) -> int:
        return x if x == inf else group_add(x, g, moduli)

    return [[_table(shift(x, g) for x in t) for t in base] for g in range(order)]


def _table(seats: Iterable[int]) -> Table:
    a, b, c, d = seats
    return (a, b, c, d)


@cache
def design_source(v: int) -> tuple[tuple[int, ...], tuple[Table, ...]] | None:
    """(group moduli, base tables) of the shipped Wh(v), or None when v has none."""
    if v in BASE_TABLES:
        order = v if v % 4 == 1 else v - 1
        return GROUPS.get(v, (order,)), tuple(BASE_TABLES[v])
    pk = prime_power(v)
    if v % 4 == 1 and pk:
        return (pk[0],) * pk[1], tuple(moore_base_tables(v))
    if v in PRODUCT_RINGS:
        tables, moduli = product_moore_base_tables(PRODUCT_RINGS[v])
        return moduli, tuple(tables)
    return None


@cache
def _design(v: int) -> tuple[tuple[Table, ...], ...] | None:
    source = design_source(v)
    if source is None:
        return None
    moduli, base = source
    rotations = develop(v, list(base), moduli)
    return tuple(tuple(r) for r in reorient(rotations, int(FLIPS.get(v, "0"), 16)))


def reorient(rotations: list[list[Table]], mask: int) -> list[list[Table]]:
    """Reverse table k (rotation-major order) when bit k of ``mask`` is set: (a, b, c, d) ->
    (a, d, c, b) keeps the partners and reverses who feeds whom at that table."""
    out, k = [], 0
    for rotation in rotations:
        row = []
        for a, b, c, d in rotation:
            row.append((a, d, c, b) if mask >> k & 1 else (a, b, c, d))
            k += 1
        out.append(row)
    return out


def whist_design(v: int) -> list[list[Table]] | None:
    """The rotations of a Wh(v) on players 0..v-1, or None when none is shipped."""
    design = _design(v)
    return [list(r) for r in design] if design else None

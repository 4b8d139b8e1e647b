"""Exact whist tournament designs Wh(v) for every v = 0, 1 (mod 4) from 4 to 64.

Pure Python (run with -p no:django). Every shipped design is developed and checked here: each
pair partners exactly once and opposes exactly twice, each player sits out once when v = 4n + 1,
and for v = 4n + 1 the design is *ordered* (every player feeds, i.e. sits immediately before in
clockwise play order, every other player exactly once). For v = 4n the one-way pairs are pinned.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from league.seating import quality_report
from league.seating.designs import (
    Field,
    develop,
    moore_base_tables,
    product_moore_base_tables,
    whist_design,
)
from league.seating.designs_data import BASE_TABLES

from .seating_helpers import (
    deal_spread,
    opponent_counts,
    partner_counts,
    rotating,
)

# every v = 0, 1 (mod 4) up to 64 has a shipped design (docs/seating.md, "Exact designs")
ALL_V = [v for v in range(4, 65) if v % 4 in (0, 1)]
# counts with no design (not 0, 1 mod 4, or above 64): the planner uses the local search
NO_DESIGN = [6, 7, 10, 11, 65, 68]
# one-way pairs of the shipped Wh(4n) (every Wh(4n + 1) is ordered: none), as
# oriented (the goal for 4n is at most v)
ONE_WAY = {4: 3, 8: 8, 12: 11, 16: 15, 20: 3, 24: 23, 28: 9, 32: 31, 36: 35, 40: 39, 44: 43,
    48: 47, 52: 51, 56: 212, 60: 219, 64: 63}


def check_whist(v: int, rotations) -> Counter:
    """Assert partners exactly once, opponents exactly twice, sit-outs; return the feeds."""
    part, opp, out, feeds = Counter(), Counter(), Counter(), Counter()
    for rotation in rotations:
        seated = [x for t in rotation for x in t]
        assert len(seated) == len(set(seated)) and set(seated) <= set(range(v))
        out.update(set(range(v)) - set(seated))
        for a, b, c, d in rotation:
            part.update([frozenset((a, c)), frozenset((b, d))])
            for x, y in ((a, b), (b, c), (c, d), (d, a)):
                opp[frozenset((x, y))] += 1
                feeds[(x, y)] += 1
    for pair in combinations(range(v), 2):
        assert part[frozenset(pair)] == 1, pair
        assert opp[frozenset(pair)] == 2, pair
    if v % 4 == 1:
        assert len(rotations) == v and all(out[p] == 1 for p in range(v))
    else:
        assert len(rotations) == v - 1 and not out
    return feeds


def one_way_pairs(v: int, feeds: Counter) -> int:
    return sum(1 for x, y in combinations(range(v), 2) if (feeds[(x, y)] == 0) != (feeds[(y, x)] == 0))


@pytest.mark.parametrize("v", ALL_V)
def test_every_design_from_4_to_64_is_shipped_and_exact(v):
    feeds = check_whist(v, whist_design(v))
    if v in ONE_WAY:
        assert one_way_pairs(v, feeds) == ONE_WAY[v]
    else:  # ordered: every player feeds every other player exactly once
        assert v % 4 == 1
        assert all(feeds[(x, y)] == 1 for x in range(v) for y in range(v) if x != y)


@pytest.mark.parametrize("v", NO_DESIGN)
def test_counts_without_a_design_are_planned_by_the_search(v):
    assert whist_design(v) is None
    plans = rotating(v, 3, seed=1)
    assert quality_report(plans, range(1, v + 1))["partner_repeats"] == 0


@pytest.mark.parametrize("v", sorted(BASE_TABLES))
def test_shipped_base_tables_develop_into_whist_designs(v):
    check_whist(v, develop(v, BASE_TABLES[v]))


@pytest.mark.parametrize("q", [5, 9, 13, 17, 25, 29, 37, 41, 49, 53, 61, 73, 89, 121])
def test_moore_construction_over_finite_fields_is_ordered(q):
    p = round(q**0.5) if q in (9, 25, 49, 121) else q
    moduli = (p,) * (1 if p == q else 2)
    feeds = check_whist(q, develop(q, moore_base_tables(q), moduli))
    assert set(feeds.values()) == {1} and len(feeds) == q * (q - 1)


def test_field_arithmetic_of_gf49():
    field = Field(7, 2)
    x = field.primitive()
    powers = {field.power(x, k) for k in range(48)}
    assert powers == set(range(1, 49))  # a primitive element generates every non-zero element
    assert field.mul(field.power(x, 12), field.power(x, 12)) == field.neg(1)  # e*e = -1


def test_every_design_is_shipped():
    # How fast they are looked up and developed: bench/seating_bench.py (make bench).
    for v in ALL_V:
        assert whist_design(v) is not None


@pytest.mark.parametrize("v", [4, 8, 12, 16, 21, 25, 32, 33, 36, 44, 45, 49, 57, 61, 64])
def test_full_event_is_an_exact_whist_tournament(v):
    full = v - 1 if v % 4 == 0 else v
    plans = rotating(v, full, seed=v)
    assert len(plans) == full
    report = quality_report(plans, range(1, v + 1))
    assert report["partner_repeats"] == 0
    assert report["opponent_min"] == report["opponent_max"] == 2
    expected_out = 1 if v % 4 == 1 else 0
    assert set(report["sit_outs"].values()) == {expected_out}
    assert deal_spread(plans, range(1, v + 1)) <= 1


def test_exact_wh61_is_ordered():
    plans = rotating(61, 61, seed=7)
    assert set(opponent_counts(plans, range(1, 62))) == {2}
    assert set(partner_counts(plans, range(1, 62))) == {1}
    report = quality_report(plans, range(1, 62))
    assert report["one_way_pairs"] == 0 and report["feed_max"] == 1
    assert set(report["feed_spread"].values()) == {0}


@pytest.mark.parametrize("v,k", [(8, 3), (12, 5), (13, 6), (20, 7), (21, 10), (32, 10), (45, 4)])
def test_shorter_event_is_a_design_prefix(v, k):
    plans = rotating(v, k, seed=3)
    players = range(1, v + 1)
    assert max(partner_counts(plans, players)) == 1
    assert max(opponent_counts(plans, players)) <= 2
    assert deal_spread(plans, players) <= 1
    full = rotating(v, v - 1 if v % 4 == 0 else v, seed=3)
    assert [[t.sides for t in p.tables] for p in plans] == [
        [t.sides for t in p.tables] for p in full[:k]
    ]


def test_moore_construction_over_a_product_of_fields_is_ordered():
    tables, moduli = product_moore_base_tables(((3, 2), (5, 1)))  # GF(9) x GF(5): 45 players
    feeds = check_whist(45, develop(45, tables, moduli))
    assert set(feeds.values()) == {1} and len(feeds) == 45 * 44

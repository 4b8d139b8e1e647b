"""Exact whist tournament designs Wh(v) (pure Python: run with -p no:django)."""

from __future__ import annotations

import time

import pytest

from league.seating import quality_report
from league.seating.designs import develop, moore_base_tables, whist_design
from league.seating.designs_data import BASE_TABLES

from .seating_helpers import (
    deal_spread,
    opponent_counts,
    partner_counts,
    rotating,
)

FOUR_N = [8, 12, 16, 20, 24, 28, 32]
FOUR_N_PLUS_ONE = [5, 9, 13, 17, 21]


def assert_whist(v: int, rotations) -> None:
    """Partners exactly once, opponents exactly twice; 4n+1: each player out exactly once."""
    from collections import Counter
    from itertools import combinations

    part, opp, out = Counter(), Counter(), Counter()
    for rotation in rotations:
        seated = [x for t in rotation for x in t]
        assert len(seated) == len(set(seated))
        out.update(set(range(v)) - set(seated))
        for a, b, c, d in rotation:
            part.update([frozenset((a, c)), frozenset((b, d))])
            opp.update(frozenset(p) for p in ((a, b), (b, c), (c, d), (d, a)))
    for pair in combinations(range(v), 2):
        assert part[frozenset(pair)] == 1, pair
        assert opp[frozenset(pair)] == 2, pair
    if v % 4 == 1:
        assert len(rotations) == v and all(out[p] == 1 for p in range(v))
    else:
        assert len(rotations) == v - 1 and not out


@pytest.mark.parametrize("v", sorted(BASE_TABLES))
def test_every_shipped_base_table_develops_into_a_whist_design(v):
    assert_whist(v, develop(v, BASE_TABLES[v]))


@pytest.mark.parametrize("p", [5, 13, 17, 29, 37, 41, 53])
def test_moore_construction_for_primes(p):
    assert_whist(p, develop(p, moore_base_tables(p)))


def test_gf9_design():
    assert_whist(9, whist_design(9))


@pytest.mark.parametrize("v", FOUR_N + FOUR_N_PLUS_ONE)
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


def test_exact_wh32_is_fast():
    start = time.perf_counter()
    plans = rotating(32, 31, seed=7)
    assert time.perf_counter() - start < 10
    assert set(opponent_counts(plans, range(1, 33))) == {2}
    assert set(partner_counts(plans, range(1, 33))) == {1}


@pytest.mark.parametrize("v,k", [(8, 3), (12, 5), (13, 6), (20, 7), (21, 10), (32, 10)])
def test_shorter_event_is_a_design_prefix(v, k):
    plans = rotating(v, k, seed=3)
    players = range(1, v + 1)
    assert max(partner_counts(plans, players)) == 1
    opp = opponent_counts(plans, players)
    assert max(opp) <= 2
    assert deal_spread(plans, players) <= 1
    # the prefix of the full event with the same seed
    assert plans == rotating(v, v - 1 if v % 4 == 0 else v, seed=3)[:k] or _same_tables(
        plans, rotating(v, v - 1 if v % 4 == 0 else v, seed=3)[:k]
    )


def _same_tables(a, b) -> bool:
    return [[t.sides for t in p.tables] for p in a] == [[t.sides for t in p.tables] for p in b]

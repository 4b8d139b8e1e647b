"""Fixed partnerships: Swiss, round robin (Berger tables), progressive. Pure Python."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest

from league.seating import SeatingRequest, plan_rotations, validate_rotation
from league.seating.fixed import berger_rounds

from .seating_helpers import deal_spread


def sides_of(n_sides: int) -> tuple[tuple[int, int], ...]:
    return tuple((2 * k + 1, 2 * k + 2) for k in range(n_sides))


def request(fmt: str, n_sides: int, rotations: int, **kw) -> SeatingRequest:
    pairs = sides_of(n_sides)
    players = tuple(p for s in pairs for p in s)
    return SeatingRequest(fmt, players, pairs, rotations=rotations, **kw)


def meetings(plans) -> Counter:
    met: Counter = Counter()
    for plan in plans:
        for t in plan.tables:
            met.update(frozenset(pair) for pair in combinations(t.sides, 2))
    return met


def play(req: SeatingRequest, scores) -> list:
    """Plan one rotation at a time; ``scores(side, rotation)`` gives each side's score."""
    played, points = [], []
    for r in range(req.rotations):
        nxt = plan_rotations(replace(req, played=tuple(played), points=tuple(points)))
        assert len(nxt) == 1
        validate_rotation(nxt[0], req.players, (4, 6))
        played.append(nxt[0])
        points.append({p: scores(t_side, r) for t in nxt[0].tables for t_side in t.sides
                       for p in t_side})
    return played


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12])
def test_berger_tables_every_pair_once(n):
    rounds = berger_rounds(n)
    assert len(rounds) == n - 1
    pairs = Counter(frozenset(p) for r in rounds for p in r)
    assert len(pairs) == n * (n - 1) // 2 and set(pairs.values()) == {1}
    assert all(sorted(x for p in r for x in p) == list(range(n)) for r in rounds)


@pytest.mark.parametrize("n_sides", [4, 6, 8, 5, 7])
def test_round_robin_every_pair_of_sides_meets_once(n_sides):
    rotations = n_sides - 1 if n_sides % 2 == 0 else n_sides
    plans = plan_rotations(request("round_robin", n_sides, rotations, seed=2))
    assert len(plans) == rotations
    met = meetings(plans)
    assert len(met) == n_sides * (n_sides - 1) // 2 and set(met.values()) == {1}
    byes = Counter(p for plan in plans for p in plan.sit_out)
    if n_sides % 2:  # odd: one side has a bye each rotation, each side once
        assert all(len(plan.sit_out) == 2 for plan in plans)
        assert set(byes.values()) == {1} and len(byes) == 2 * n_sides
    else:
        assert not byes
    for plan in plans:
        validate_rotation(plan, range(1, 2 * n_sides + 1))


def test_round_robin_replan_keeps_played_and_continues():
    req = request("round_robin", 6, 5, seed=4)
    full = plan_rotations(req)
    rest = plan_rotations(replace(req, played=tuple(full[:2])))
    assert [[t.sides for t in p.tables] for p in rest] == [
        [t.sides for t in p.tables] for p in full[2:]
    ]


def test_round_robin_after_withdrawal_avoids_rematches():
    req = request("round_robin", 8, 7, seed=4)
    full = plan_rotations(req)
    played = tuple(full[:2])
    left = sides_of(8)[:-1]  # the last partnership withdraws
    players = tuple(p for s in left for p in s)
    rest = plan_rotations(replace(req, partnerships=left, players=players, played=played))
    assert len(rest) == 5
    for plan in rest:
        validate_rotation(plan, players)
    met = meetings(list(played) + rest)
    assert max(met.values()) == 1


def test_swiss_pairs_equal_records_and_avoids_rematches():
    # side k always scores 100 * k: records separate cleanly
    plans = play(request("swiss", 8, 3, seed=1), lambda side, r: 100 * side[0])
    assert max(meetings(plans).values()) == 1
    wins: Counter = Counter()
    for r, plan in enumerate(plans):
        if r:  # sides at a table have the same number of wins so far
            for t in plan.tables:
                a, b = t.sides
                assert wins[a] == wins[b]
        for t in plan.tables:
            wins[max(t.sides, key=lambda s: s[0])] += 1


def test_swiss_odd_sides_byes_rotate():
    plans = play(request("swiss", 5, 5, seed=3), lambda side, r: (side[0] * 37 + r) % 11)
    byes = Counter(plan.sit_out for plan in plans)
    assert len(byes) == 5 and set(byes.values()) == {1}


def test_swiss_odd_sides_at_table_of_six():
    req = request("swiss", 5, 2, seed=3, odd_handling="table_of_six", six_sides=3)
    plans = play(req, lambda side, r: side[0])
    for plan in plans:
        assert not plan.sit_out
        assert sorted(len(t.sides) for t in plan.tables) == [2, 3]


def test_progressive_winners_up_losers_down():
    req = request("progressive", 8, 2, seed=5)
    first = plan_rotations(req)[0]
    points = {p: (p + 1) // 2 * 10 for p in range(1, 17)}  # both partners: their side's score
    won = {max(t.sides) for t in first.tables}
    nxt = plan_rotations(replace(req, played=(first,), points=(points,)))[0]
    where = {s: k for k, t in enumerate(first.tables) for s in t.sides}
    now = {s: k for k, t in enumerate(nxt.tables) for s in t.sides}
    last = len(first.tables) - 1
    for side, k in where.items():
        if side in won:
            assert now[side] == max(k - 1, 0)
        else:
            assert now[side] == min(k + 1, last)


def test_fixed_formats_reproducible_and_dealers_balanced():
    req = request("round_robin", 8, 7, seed=8)
    assert plan_rotations(req) == plan_rotations(req)
    assert deal_spread(plan_rotations(req), range(1, 17)) <= 1

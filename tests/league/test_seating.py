"""Rotating partners for any count, seats, dealers, re-planning, reproducibility, validation.

Pure Python: ``pytest tests/league/test_seating*.py -p no:django``.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from league.seating import (
    RotationPlan,
    SeatingError,
    SeatingRequest,
    TablePlan,
    plan_rotations,
    quality_report,
    validate_rotation,
)
from league.seating.seats import seat_order

from .seating_helpers import (
    deal_spread,
    rotating,
    sit_out_order_fair,
)


@pytest.mark.parametrize("n", [10, 14, 18, 22])
def test_other_counts_with_sit_outs(n):
    rounds = n - 1
    plans = rotating(n, rounds, seed=1)
    players = range(1, n + 1)
    report = quality_report(plans, players)
    # n(n-1)/2 pairs; each rotation makes n//4*2 partnerships: no repeat needed before that
    assert report["partner_repeats"] == 0
    assert report["opponent_max"] - report["opponent_min"] <= 3
    sits = report["sit_outs"].values()
    assert max(sits) - min(sits) <= 1
    assert sit_out_order_fair(plans, players)
    assert all(len(p.sit_out) == n % 4 for p in plans)
    assert deal_spread(plans, players) <= 1


@pytest.mark.parametrize("n,sides", [(10, 2), (14, 3), (18, 2), (22, 3)])
def test_other_counts_with_tables_of_six(n, sides):
    plans = rotating(n, 5, seed=2, odd_handling="table_of_six", six_sides=sides)
    for plan in plans:
        assert not plan.sit_out
        assert sorted(len(t.seats) for t in plan.tables) == [4] * ((n - 6) // 4) + [6]
        six = next(t for t in plan.tables if len(t.seats) == 6)
        assert len(six.sides) == sides
    if sides == 3:  # three sides of two: partner repeats avoidable over 5 rotations
        assert quality_report(plans, range(1, n + 1))["partner_repeats"] == 0
    assert deal_spread(plans, range(1, n + 1)) <= 1


def test_odd_count_with_tables_of_six_sits_one_out_fairly():
    plans = rotating(15, 15, seed=4, table_size=6)
    assert all(len(p.sit_out) == 1 for p in plans)
    assert set(quality_report(plans, range(1, 16))["sit_outs"].values()) == {1}


def test_seats_alternate_sides_and_partners_sit_opposite():
    sides = ((1, 2, 3), (4, 5, 6))
    assert seat_order(sides) == (1, 4, 2, 5, 3, 6)
    for plan in rotating(22, 3, seed=5, table_size=6, six_sides=3):
        for t in plan.tables:
            k = len(t.sides)
            assert all(t.seats[s] in t.sides[s % k] for s in range(len(t.seats)))
            if len(t.seats) == 4:  # seat s and s+2 are partners: opposite
                assert {t.seats[0], t.seats[2]} in ({*t.sides[0]}, {*t.sides[1]})


def test_same_seed_same_plan_other_seed_other_plan():
    assert rotating(18, 6, seed=11) == rotating(18, 6, seed=11)
    assert rotating(18, 6, seed=11) != rotating(18, 6, seed=12)
    assert rotating(16, 15, seed=1) != rotating(16, 15, seed=2)


def test_two_hundred_players_ten_rotations_fast_and_clean():
    start = time.process_time()  # CPU time: a loaded machine must not fail the test
    plans = plan_rotations(_request(200, 10, seed=1))
    assert time.process_time() - start < 0.5
    report = quality_report(plans, range(1, 201))
    assert report["partner_repeats"] == 0
    assert report["opponent_max"] <= 1
    assert deal_spread(plans, range(1, 201)) <= 1


def _request(n: int, rotations: int, **kw) -> SeatingRequest:
    return SeatingRequest("rotating", tuple(range(1, n + 1)), rotations=rotations, **kw)


def test_replanning_with_same_players_continues_the_design():
    full = plan_rotations(_request(13, 13, seed=9))
    rest = plan_rotations(_request(13, 13, seed=9, played=tuple(full[:4])))
    assert [[t.sides for t in p.tables] for p in rest] == [
        [t.sides for t in p.tables] for p in full[4:]
    ]
    assert quality_report(full[:4] + rest, range(1, 14))["opponent_max"] == 2


def test_withdrawal_replans_remaining_rotations_only():
    first = plan_rotations(_request(16, 8, seed=3))
    played = tuple(first[:3])
    left = tuple(p for p in range(1, 17) if p != 7)
    rest = plan_rotations(replace(_request(16, 8, seed=3), players=left, played=played))
    assert len(rest) == 5
    for plan in rest:
        validate_rotation(plan, left)
        assert 7 not in {p for t in plan.tables for p in t.seats}
    whole = list(played) + rest
    assert whole[:3] == first[:3]
    assert quality_report(whole, left)["partner_repeats"] == 0


def test_late_arrival_sits_out_first_under_fewest_sit_outs_then_everyone_in_turn():
    """Fewest sit-outs first: arriving late is not a sit-out, and among equals the latest
    arrival sits out, so nobody who came on time sits out to seat the latecomer."""
    first = plan_rotations(_request(12, 6, seed=3))
    played = tuple(first[:2])
    now = tuple(range(1, 14))  # player 13 arrives after rotation 2
    rest = plan_rotations(replace(_request(12, 6, seed=3), players=now, played=played))
    for plan in rest:
        validate_rotation(plan, now)
    outs = [p for plan in rest for p in plan.sit_out]
    assert outs[0] == 13 and len(outs) == len(set(outs)) == 4
    assert quality_report(list(played) + rest, now)["partner_repeats"] == 0


def test_validate_refuses_player_seated_twice():
    t1 = TablePlan((1, 2, 3, 4), ((1, 3), (2, 4)), 1)
    t2 = TablePlan((5, 6, 7, 1), ((5, 7), (6, 1)), 5)
    with pytest.raises(SeatingError, match="Player.*1 placed more than once"):
        validate_rotation(RotationPlan((t1, t2)), range(1, 8))


def test_validate_refuses_incomplete_table():
    t1 = TablePlan((1, 2, 3, 4), ((1, 3), (2, 4)), 1)
    t2 = TablePlan((5, 6, 7), ((5, 7), (6,)), 5)
    with pytest.raises(SeatingError, match="Table 2 has 3 players"):
        validate_rotation(RotationPlan((t1, t2)), range(1, 8))


def test_validate_refuses_unknown_and_missing_players():
    t1 = TablePlan((1, 2, 3, 99), ((1, 3), (2, 99)), 1)
    with pytest.raises(SeatingError, match="99 are not entered"):
        validate_rotation(RotationPlan((t1,), (4,)), range(1, 5))
    t1 = TablePlan((1, 2, 3, 4), ((1, 3), (2, 4)), 1)
    with pytest.raises(SeatingError, match="5 are neither seated nor sitting out"):
        validate_rotation(RotationPlan((t1,)), range(1, 6))


def test_validate_refuses_partners_side_by_side_and_absent_dealer():
    bad = TablePlan((1, 3, 2, 4), ((1, 3), (2, 4)), 1)
    with pytest.raises(SeatingError, match="alternate seats"):
        validate_rotation(RotationPlan((bad,)), range(1, 5))
    bad = TablePlan((1, 2, 3, 4), ((1, 3), (2, 4)), 9)
    with pytest.raises(SeatingError, match="first dealer"):
        validate_rotation(RotationPlan((bad,)), range(1, 5))


def test_validate_accepts_a_directors_swap():
    plan = rotating(8, 1, seed=1)[0]
    a, b = plan.tables
    x, y = a.sides[0][0], b.sides[0][0]

    def swap(t: TablePlan) -> TablePlan:
        sides = tuple(tuple({x: y, y: x}.get(p, p) for p in s) for s in t.sides)
        dealer = {x: y, y: x}.get(t.first_dealer, t.first_dealer)
        return TablePlan(seat_order(sides), sides, dealer)

    validate_rotation(RotationPlan((swap(a), swap(b))), range(1, 9))


@pytest.mark.parametrize(
    "kw,message",
    [
        ({"rotations": 0}, "at least one rotation"),
        ({"table_size": 5}, "4 or 6"),
        ({"format": "knockout"}, "Unknown format"),
        ({"players": (1, 2, 3)}, "At least 4 players"),
    ],
)
def test_bad_requests_are_refused_clearly(kw, message):
    with pytest.raises(SeatingError, match=message):
        plan_rotations(replace(_request(8, 3), **kw))

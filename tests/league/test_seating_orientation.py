"""Who feeds whom: table orientation and the feeds figures of the quality report.

Play is clockwise, so the player in seat s feeds (is picked up after by) the player in seat
s + 1. Pure Python: run with -p no:django.
"""

from __future__ import annotations

from collections import Counter

import pytest

from league.seating import RotationPlan, TablePlan, quality_report
from league.seating.orient import count_feeds, feed_pairs, orient_table, orientations, seat_order

from .seating_helpers import rotating


def test_feeds_follow_clockwise_play():
    assert feed_pairs((1, 2, 3, 4)) == [(1, 2), (2, 3), (3, 4), (4, 1)]


def test_a_table_of_four_is_turned_round_to_avoid_feeding_the_same_player_twice():
    feeds = Counter({(1, 2): 1})
    assert seat_order(orient_table(((1, 3), (2, 4)), feeds)) == (1, 4, 3, 2)
    assert seat_order(orient_table(((1, 3), (2, 4)), Counter())) == (1, 2, 3, 4)  # kept


@pytest.mark.parametrize("sides", [((1, 2, 3), (4, 5, 6)), ((1, 2), (3, 4), (5, 6))])
def test_a_table_of_six_keeps_sides_alternating_and_finds_fresh_feeds(sides):
    options = orientations(sides)
    for option in options:
        seats = seat_order(option)
        k = len(option)
        assert {frozenset(seats[s::k]) for s in range(k)} == {frozenset(s) for s in sides}
    feeds = count_feeds([seat_order(sides)])  # everyone fed their right-hand neighbour once
    best = orient_table(sides, feeds)
    assert all(feeds[pair] == 0 for pair in feed_pairs(seat_order(best)))


@pytest.mark.parametrize("n,rotations,kw", [(10, 9, {}), (18, 17, {}), (14, 9, {"table_size": 6})])
def test_searched_schedules_take_the_least_used_orientation_at_every_table(n, rotations, kw):
    plans = rotating(n, rotations, seed=4, **kw)
    feeds: Counter = Counter()
    for plan in plans:
        for table in plan.tables:
            cost = {
                seat_order(o): sum(feeds[p] for p in feed_pairs(seat_order(o)))
                for o in orientations(table.sides)
            }
            assert cost[table.seats] == min(cost.values())
        feeds.update(count_feeds(t.seats for t in plan.tables))


def test_report_counts_one_way_pairs_and_feed_spread():
    t1 = TablePlan((1, 2, 3, 4), ((1, 3), (2, 4)), 1)
    t2 = TablePlan((1, 2, 3, 4), ((1, 3), (2, 4)), 2)  # same direction again: all one way
    report = quality_report([RotationPlan((t1,)), RotationPlan((t2,))], range(1, 5))
    assert report["one_way_pairs"] == 4 and report["feed_max"] == 2
    assert report["feed_spread"] == {1: 2, 2: 2, 3: 2, 4: 2}  # fed one player twice, two never
    t2 = TablePlan((1, 4, 3, 2), ((1, 3), (4, 2)), 2)  # turned round: every pair both ways
    report = quality_report([RotationPlan((t1,)), RotationPlan((t2,))], range(1, 5))
    assert report["one_way_pairs"] == 0 and report["feed_max"] == 1


def test_two_hundred_players_nobody_feeds_anyone_twice():
    report = quality_report(rotating(200, 10, seed=1), range(1, 201))
    assert report["opponent_max"] == 1 and report["feed_max"] == 1

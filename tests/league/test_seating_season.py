"""Season-aware seating: a night planned against the season's earlier nights (pure Python)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from league.seating import SeatingRequest, plan_rotations, quality_report
from league.seating.report import pair_counts
from league.seating.season import DECAY, PARTNER, season_weights


def night(players, rotations: int, seed: int, season=()):
    request = SeatingRequest(
        "rotating", tuple(players), rotations=rotations, seed=seed, season=tuple(season)
    )
    return tuple(plan_rotations(request))


def partnerships(plans) -> set[frozenset]:
    return {frozenset(side) for plan in plans for t in plan.tables for side in t.sides}


def test_recent_nights_weigh_more():
    first = night(range(1, 9), 1, seed=1)
    second = night(range(1, 9), 1, seed=2)
    weights = season_weights([first, second])
    for pair in partnerships(second) - partnerships(first):
        assert weights.partners[tuple(sorted(pair))] == pytest.approx(PARTNER)
    for pair in partnerships(first) - partnerships(second):
        assert weights.partners[tuple(sorted(pair))] == pytest.approx(PARTNER * DECAY)


@pytest.mark.parametrize("n", [8, 10, 13, 18])
def test_a_night_avoids_the_partners_of_the_night_before(n):
    players = range(1, n + 1)
    first = night(players, 3, seed=1)
    alone = night(players, 3, seed=2)
    aware = night(players, 3, seed=2, season=[first])
    assert partnerships(aware).isdisjoint(partnerships(first))
    assert len(partnerships(alone) & partnerships(first)) > 0 or n > 13
    report = quality_report(aware, players)
    assert report["partner_repeats"] == 0  # still no repeat within the night


def test_whoever_attends_is_seated_and_earlier_sit_outs_count():
    first = night(range(1, 11), 2, seed=1)  # two of ten sit out each rotation
    sat = {p for plan in first for p in plan.sit_out}
    tonight = night(range(1, 11), 2, seed=3, season=[first])
    assert sat.isdisjoint({p for plan in tonight for p in plan.sit_out})
    present = (1, 2, 4, 5, 7, 8, 9, 11, 12)  # 11, 12 are new tonight
    later = night(present, 2, seed=4, season=[first, tonight])
    for plan in later:
        assert sorted([p for t in plan.tables for p in t.seats] + list(plan.sit_out)) == sorted(present)


def test_a_short_season_mixes_partners_more_than_night_by_night():
    rng = random.Random(7)
    nights = [tuple(m for m in range(1, 17) if rng.random() < 0.75) for _ in range(5)]
    played = {False: [], True: []}
    for k, present in enumerate(nights, start=1):
        for aware in (False, True):
            season = played[aware] if aware else []
            played[aware].append(night(present, 3, seed=k, season=season))
    together = {pair for p in nights for pair in combinations(sorted(p), 2)}
    never, repeats = {}, {}
    for aware in (False, True):
        partners, _ = pair_counts([plan for n in played[aware] for plan in n])
        never[aware] = sum(1 for pair in together if pair not in partners)
        repeats[aware] = sum(c - 1 for c in partners.values())
    assert never[True] < never[False] and repeats[True] * 3 <= repeats[False]


def test_a_whole_design_night_stays_exact_in_a_season():
    first = night(range(1, 14), 4, seed=1)
    full = night(range(1, 14), 13, seed=2, season=[first])
    report = quality_report(full, range(1, 14))
    assert report["partner_repeats"] == 0 and report["opponent_min"] == report["opponent_max"] == 2
    assert report["one_way_pairs"] == 0

"""Helpers for the seating tests (pure Python, no database)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from league.seating import RotationPlan, SeatingRequest, plan_rotations, validate_rotation
from league.seating.report import pair_counts


def rotating(n: int, rotations: int, **kw) -> list[RotationPlan]:
    players = tuple(range(1, n + 1))
    plans = plan_rotations(SeatingRequest("rotating", players, rotations=rotations, **kw))
    for plan in plans:
        validate_rotation(plan, players, (4, 6))
    return plans


def opponent_counts(plans: list[RotationPlan], players) -> list[int]:
    _, opp = pair_counts(plans)
    return [opp.get(p, 0) for p in combinations(sorted(players), 2)]


def partner_counts(plans: list[RotationPlan], players) -> list[int]:
    part, _ = pair_counts(plans)
    return [part.get(p, 0) for p in combinations(sorted(players), 2)]


def deal_spread(plans: list[RotationPlan], players) -> int:
    deals = Counter(t.first_dealer for p in plans for t in p.tables)
    counts = [deals.get(p, 0) for p in players]
    return max(counts) - min(counts)


def sit_out_order_fair(plans: list[RotationPlan], players) -> bool:
    """Nobody sits out twice before everyone has sat out once (per round of sit-outs)."""
    seen: Counter = Counter()
    for plan in plans:
        for p in plan.sit_out:
            if seen[p] > min(seen[q] for q in players):
                return False
            seen[p] += 1
    return True


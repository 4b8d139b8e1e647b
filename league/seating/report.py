"""Quality figures of a schedule: partner repeats, opponent spread, sit-outs and deals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from .types import RotationPlan


def pair_counts(plans: Sequence[RotationPlan]) -> tuple[Counter, Counter]:
    """(partner counts, opponent counts) keyed by sorted player pairs."""
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for plan in plans:
        for table in plan.tables:
            for side in table.sides:
                partners.update(_pair(a, b) for a, b in combinations(side, 2))
            for s1, s2 in combinations(table.sides, 2):
                opponents.update(_pair(a, b) for a in s1 for b in s2)
    return partners, opponents


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def quality_report(plans: Sequence[RotationPlan], players: Iterable[int]) -> dict:
    """{"partner_repeats", "opponent_min", "opponent_max", "sit_outs", "deals"}.

    ``partner_repeats`` counts partnerships beyond the first for every pair; ``opponent_min`` and
    ``opponent_max`` range over every pair of the given players (0 if a pair never met);
    ``sit_outs`` and ``deals`` (first deals of games) are per player.
    """
    ids = sorted(set(players))
    partners, opponents = pair_counts(plans)
    meet = [opponents.get(pair, 0) for pair in combinations(ids, 2)]
    sit_outs = Counter(p for plan in plans for p in plan.sit_out)
    deals = Counter(t.first_dealer for plan in plans for t in plan.tables)
    return {
        "partner_repeats": sum(n - 1 for n in partners.values() if n > 1),
        "opponent_min": min(meet, default=0),
        "opponent_max": max(meet, default=0),
        "sit_outs": {p: sit_outs.get(p, 0) for p in ids},
        "deals": {p: deals.get(p, 0) for p in ids},
    }

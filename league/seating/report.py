"""Quality figures of a schedule: partner repeats, opponent spread, sit-outs and deals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from .orient import count_feeds
from .types import RotationPlan


def pair_counts(plans: Sequence[RotationPlan]) -> tuple[Counter[tuple[int, int]], Counter[tuple[int, int]]]:
    """(partner counts, opponent counts) keyed by sorted player pairs."""
    partners: Counter[tuple[int, int]] = Counter()
    opponents: Counter[tuple[int, int]] = Counter()
    for plan in plans:
        for table in plan.tables:
            for side in table.sides:
                partners.update(_pair(a, b) for a, b in combinations(side, 2))
            for s1, s2 in combinations(table.sides, 2):
                opponents.update(_pair(a, b) for a in s1 for b in s2)
    return partners, opponents


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def quality_report(plans: Sequence[RotationPlan], players: Iterable[int]) -> dict[str, Any]:
    """{"partner_repeats", "opponent_min", "opponent_max", "one_way_pairs", "feed_max",
    "sit_outs", "deals", "feed_spread"}.

    ``partner_repeats`` counts partnerships beyond the first for every pair; ``opponent_min`` and
    ``opponent_max`` range over every pair of the given players (0 if a pair never met).
    Player x *feeds* y when y sits immediately after x in clockwise play order (y picks up x's
    discards): ``one_way_pairs`` counts the pairs where one fed the other and never the other
    way round, ``feed_max`` is the most times anyone fed the same player. Per player:
    ``sit_outs``, ``deals`` (first deals of games) and ``feed_spread`` (the most minus the fewest
    times they fed one of the other players; 0 in an ordered whist tournament).
    """
    ids = sorted(set(players))
    partners, opponents = pair_counts(plans)
    meet = [opponents.get(pair, 0) for pair in combinations(ids, 2)]
    sit_outs = Counter(p for plan in plans for p in plan.sit_out)
    deals = Counter(t.first_dealer for plan in plans for t in plan.tables)
    feeds = count_feeds(t.seats for plan in plans for t in plan.tables)
    return {
        "partner_repeats": sum(n - 1 for n in partners.values() if n > 1),
        "opponent_min": min(meet, default=0),
        "opponent_max": max(meet, default=0),
        "one_way_pairs": sum(
            1 for a, b in combinations(ids, 2) if (feeds[(a, b)] > 0) != (feeds[(b, a)] > 0)
        ),
        "feed_max": max((feeds[(a, b)] for a in ids for b in ids if a != b), default=0),
        "sit_outs": {p: sit_outs.get(p, 0) for p in ids},
        "deals": {p: deals.get(p, 0) for p in ids},
        "feed_spread": {p: _spread(feeds, p, ids) for p in ids},
    }


def _spread(feeds: Counter[tuple[int, int]], p: int, ids: list[int]) -> int:
    fed = [feeds[(p, q)] for q in ids if q != p]
    return max(fed) - min(fed) if fed else 0

"""A season's earlier nights as weights for the next night's seating.

Each earlier night counts with weight ``DECAY ** (k - 1)`` when it was ``k`` nights ago (the
last night 1, the one before 0.7, ...), so recent partnerships and meetings count more than old
ones but none is forgotten. Planning a night then adds, for every new partnership, the weighted
number of times the pair partnered earlier in the season times ``PARTNER`` (and likewise for
opponents, with the smaller ``OPPONENT``): pairs who never partnered come first, then those who
partnered longest ago. Sit-outs of earlier nights count too: whoever sat out more sits out less.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .types import RotationPlan

DECAY = 0.7
PARTNER = 100.0  # cost of partnering again someone partnered last night (within a night: 10**6)
OPPONENT = 0.5  # cost of meeting again an opponent met last night (within a night: 1 a meeting)


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass
class SeasonWeights:
    partners: dict[tuple[int, int], float] = field(default_factory=dict)
    opponents: dict[tuple[int, int], float] = field(default_factory=dict)
    sit_outs: Counter[int] = field(default_factory=Counter)

    def __bool__(self) -> bool:
        return bool(self.partners or self.opponents)


def season_weights(season: Sequence[Sequence[RotationPlan]]) -> SeasonWeights:
    """Weighted partner/opponent costs from the earlier nights (oldest first)."""
    weights = SeasonWeights()
    n = len(season)
    for age, night in enumerate(season):
        w = DECAY ** (n - 1 - age)
        for plan in night:
            weights.sit_outs.update(plan.sit_out)
            for table in plan.tables:
                for side in table.sides:
                    for a, b in combinations(side, 2):
                        k = _key(a, b)
                        weights.partners[k] = weights.partners.get(k, 0.0) + PARTNER * w
                for s1, s2 in combinations(table.sides, 2):
                    for a in s1:
                        for b in s2:
                            k = _key(a, b)
                            weights.opponents[k] = weights.opponents.get(k, 0.0) + OPPONENT * w
    return weights

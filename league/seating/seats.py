"""Seat order (partners opposite) and first dealers balanced over the event."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .orient import Sides, count_feeds, feed_pairs, orient_table, seat_order
from .types import RotationPlan, TablePlan

__all__ = ["Sides", "build_rotations", "seat_order"]


def deal_counts(played: Sequence[RotationPlan]) -> Counter[int]:
    return Counter(t.first_dealer for plan in played for t in plan.tables)


def build_rotations(
    planned: Sequence[tuple[list[Sides], Sequence[int]]],
    played: Sequence[RotationPlan],
    rng: random.Random,
    keep_orientation: int = 0,
) -> list[RotationPlan]:
    """Turn (tables as sides, sit-outs) into RotationPlans with balanced first dealers.

    The first ``keep_orientation`` planned rotations (a design's) keep their seat order; the
    others are oriented greedily against the feeds so far (see :mod:`orient`). First deals
    already made in ``played`` count; the new dealers are chosen greedily (fewest deals so far)
    and then balanced with improving paths (see :func:`balance_dealers`).
    """
    planned = _oriented(planned, played, keep_orientation)
    counts = deal_counts(played)
    dealers: list[list[int]] = []
    for tables, _ in planned:
        row = []
        for sides in tables:
            seats = [p for side in sides for p in side]
            low = min(counts[p] for p in seats)
            pick = rng.choice(sorted(p for p in seats if counts[p] == low))
            counts[pick] += 1
            row.append(pick)
        dealers.append(row)
    flat_tables = [seat_order(s) for tables, _ in planned for s in tables]
    flat_dealers = [d for row in dealers for d in row]
    balance_dealers(flat_tables, flat_dealers, counts)
    out, k = [], 0
    for tables, sit_out in planned:
        plans = []
        for sides in tables:
            plans.append(TablePlan(seat_order(sides), tuple(sides), flat_dealers[k]))
            k += 1
        out.append(RotationPlan(tuple(plans), tuple(sorted(sit_out))))
    return out


def _oriented(
    planned: Sequence[tuple[list[Sides], Sequence[int]]],
    played: Sequence[RotationPlan],
    keep: int,
) -> list[tuple[list[Sides], Sequence[int]]]:
    feeds = count_feeds(t.seats for plan in played for t in plan.tables)
    out = []
    for k, (tables, sit_out) in enumerate(planned):
        if k >= keep:
            tables = [orient_table(sides, feeds) for sides in tables]
        for sides in tables:
            feeds.update(feed_pairs(seat_order(sides)))
        out.append((tables, sit_out))
    return out


def balance_dealers(tables: list[tuple[int, ...]], dealers: list[int], counts: Counter[int]) -> None:
    """Move first deals along improving paths until no player with c deals can hand one on
    (through a chain of tables) to a player with at most c - 2 deals.

    A path p -> q -> r means: p gives a table they deal to q, q gives one of theirs to r; only
    the ends change count. With no such path left, max - min is as small as the seating allows.
    """
    improved = True
    while improved:
        improved = False
        for p in sorted(counts, key=lambda x: -counts[x]):
            path = _improving_path(p, tables, dealers, counts)
            if path:
                for t, new in path:
                    counts[dealers[t]] -= 1
                    counts[new] += 1
                    dealers[t] = new
                improved = True


def _improving_path(
    start: int, tables: list[tuple[int, ...]], dealers: list[int], counts: Counter[int]
) -> list[tuple[int, int]] | None:
    deals_of: dict[int, list[int]] = {}
    for t, d in enumerate(dealers):
        deals_of.setdefault(d, []).append(t)
    limit = counts[start] - 2
    frontier = [start]
    came: dict[int, tuple[int, int] | None] = {start: None}
    while frontier:
        nxt = []
        for p in frontier:
            for t in deals_of.get(p, []):
                for q in tables[t]:
                    if q in came:
                        continue
                    came[q] = (t, p)
                    if counts[q] <= limit:
                        return _unwind(q, came)
                    nxt.append(q)
        frontier = nxt
    return None


def _unwind(end: int, came: dict[int, tuple[int, int] | None]) -> list[tuple[int, int]]:
    path, q = [], end
    while (step := came[q]) is not None:
        t, p = step
        path.append((t, q))
        q = p
    return path

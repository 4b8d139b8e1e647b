"""Who feeds whom: the orientation of each table.

Play goes clockwise, so the player in seat ``s`` feeds the player in seat ``s + 1`` (the next
player picks up what they discard). At a table of four, reversing the seat order
``(a, b, c, d) -> (a, d, c, b)`` keeps the partners opposite and reverses who feeds whom; at a
table of six the sides' members (and the sides) can be ordered in several ways.

Designs carry their own orientation (see :mod:`designs`). Every other rotation is oriented
greedily against the feeds so far: each table takes the seat order whose "x feeds y" pairs have
happened least (ties keep the order given), so nobody feeds the same opponent twice while
another orientation avoids it, and a pair that met one way tends to meet the other way next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import permutations, product

Sides = tuple[tuple[int, ...], ...]


def feed_pairs(seats: Sequence[int]) -> list[tuple[int, int]]:
    """(x, y) for each x seated immediately before y in clockwise play order."""
    n = len(seats)
    return [(seats[i], seats[(i + 1) % n]) for i in range(n)]


def seat_order(sides: Sides) -> tuple[int, ...]:
    """Clockwise seats with the sides alternating: seat s belongs to side s % len(sides)."""
    k = len(sides)
    return tuple(sides[s % k][s // k] for s in range(sum(len(x) for x in sides)))


def count_feeds(tables: Iterable[Sequence[int]]) -> Counter[tuple[int, int]]:
    feeds: Counter[tuple[int, int]] = Counter()
    for seats in tables:
        feeds.update(feed_pairs(seats))
    return feeds


def orientations(sides: Sides) -> list[Sides]:
    """The ways to seat these sides (the given order first)."""
    if len(sides) == 2 and all(len(s) == 2 for s in sides):
        (a, c), (b, d) = sides
        return [sides, ((a, c), (d, b))]
    out = []
    for order in permutations(sides):
        for members in product(*(permutations(side) for side in order)):
            out.append(tuple(members))
    return out


def orient_table(sides: Sides, feeds: Counter[tuple[int, int]]) -> Sides:
    """The orientation whose feeds pairs have happened least so far."""
    best, best_cost = sides, None
    for option in orientations(sides):
        cost = sum(feeds[pair] for pair in feed_pairs(seat_order(option)))
        if best_cost is None or cost < best_cost:
            best, best_cost = option, cost
            if cost == 0:
                break
    return best

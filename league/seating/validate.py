"""Validation of a proposed rotation (e.g. after a director swapped players by hand)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .types import RotationPlan, SeatingError, TablePlan


def validate_rotation(
    plan: RotationPlan, players: Iterable[int], table_sizes: Iterable[int] = (4,)
) -> None:
    """Refuse a rotation that cannot be played; return None when it is fine.

    ``players`` are the active entrants of the rotation: each must be seated exactly once or
    sit out. ``table_sizes`` are the table sizes the event allows (4, or 4 and 6).
    """
    entrants = set(players)
    sizes = set(table_sizes)
    if not plan.tables:
        raise SeatingError("The rotation has no tables.")
    for number, table in enumerate(plan.tables, start=1):
        _check_table(number, table, sizes)
    _check_everyone_once(plan, entrants)


def _check_table(number: int, table: TablePlan, sizes: set[int]) -> None:
    size = len(table.seats)
    if size not in sizes:
        allowed = " or ".join(str(s) for s in sorted(sizes))
        raise SeatingError(
            f"Table {number} has {size} players but tables must have {allowed}: "
            "the table is incomplete or overfull."
        )
    n_sides = len(table.sides)
    if n_sides < 2 or size % n_sides:
        raise SeatingError(f"Table {number} must have at least two sides of equal size.")
    for k, side in enumerate(table.sides):
        if tuple(side) != tuple(table.seats[k::n_sides]):
            raise SeatingError(
                f"Table {number}: side {k + 1} must sit in alternate seats "
                "(partners opposite each other)."
            )
    if table.first_dealer not in table.seats:
        raise SeatingError(
            f"Table {number}: the first dealer (player {table.first_dealer}) is not at the table."
        )


def _check_everyone_once(plan: RotationPlan, entrants: set[int]) -> None:
    placed = [p for t in plan.tables for p in t.seats] + list(plan.sit_out)
    twice = sorted(p for p, n in Counter(placed).items() if n > 1)
    if twice:
        raise SeatingError(
            "Player(s) " + ", ".join(map(str, twice)) + " placed more than once in the rotation."
        )
    unknown = sorted(set(placed) - entrants)
    if unknown:
        raise SeatingError(
            "Player(s) " + ", ".join(map(str, unknown)) + " are not entered in this event."
        )
    missing = sorted(entrants - set(placed))
    if missing:
        raise SeatingError(
            "Player(s) " + ", ".join(map(str, missing)) + " are neither seated nor sitting out."
        )

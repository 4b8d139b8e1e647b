"""How the planner keeps seating wishes (rotating partners).

* *Must not be partners* / *must not meet*: a pair costs ``WISH_WEIGHT`` when they partner (or,
  for "not meet", sit at one table), a thousand times a partner repeat, so the search breaks a
  wish only when no seating keeps it.
* *Must not sit out* / *keeps one seat all night*: they sit out only when everybody else is
  seated already; a player who keeps a seat never leaves their table (their position is pinned
  in the search), and afterwards the tables are renumbered and turned (a turn keeps who
  partners, meets and feeds whom) so that they sit at their table and seat.
* *Should partner once this season*: a preference. While the pair has not partnered (tonight,
  or on an earlier night the request holds), partnering them saves ``PARTNER_ONCE_BONUS``: less
  than a partner repeat (1,000,000) and than partnering last night's partner again (100), more
  than an uneven opponent count (1 a meeting).

With a hard wish among the night's players no whist design is used (a design partners every
pair once and seats everyone in turn).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .types import RotationPlan, TablePlan, Wish

WISH_WEIGHT = 1_000_000_000
PARTNER_ONCE_BONUS = 50.0


def active_wishes(wishes: Iterable[Wish], players: Iterable[int]) -> tuple[Wish, ...]:
    """The wishes that concern tonight's players (a pair wish needs both of them here)."""
    here = set(players)
    return tuple(w for w in wishes if w.player in here and (w.other is None or w.other in here))


def stays_seated(wishes: Iterable[Wish]) -> frozenset[int]:
    return frozenset(w.player for w in wishes if w.kind in ("no_sit_out", "fixed_seat"))


def fixed_seat_wishes(wishes: Iterable[Wish]) -> list[Wish]:
    """Fixed seats by table, then seat, the first wish of a player only."""
    seen: set[int] = set()
    out = []
    for wish in sorted((w for w in wishes if w.kind == "fixed_seat"),
                       key=lambda w: (w.table or 1, w.seat or 1, w.player)):
        if wish.player not in seen:
            seen.add(wish.player)
            out.append(wish)
    return out


def turned(table: TablePlan, player: int, seat: int) -> TablePlan:
    """The table turned so that `player` sits in seat `seat` (from 0): the same clockwise
    order, so the same partners, opponents and feeds."""
    n = len(table.seats)
    shift = (table.seats.index(player) - seat) % n
    seats = table.seats[shift:] + table.seats[:shift]
    k = len(table.sides)
    return TablePlan(seats, tuple(seats[s::k] for s in range(k)), table.first_dealer)


def place_fixed_seats(plan: RotationPlan, wishes: Sequence[Wish]) -> RotationPlan:
    """Renumber and turn the tables so that each player keeping a seat sits at it (when their
    table number exists and the table has that seat; the first wish for a table wins)."""
    fixed = fixed_seat_wishes(wishes)
    if not fixed:
        return plan
    rest = list(plan.tables)
    slots: dict[int, TablePlan] = {}
    for wish in fixed:
        number, seat = (wish.table or 1) - 1, (wish.seat or 1) - 1
        at = next((t for t in rest if wish.player in t.seats), None)
        if at is None or number in slots or number >= len(plan.tables):
            continue
        rest.remove(at)
        slots[number] = turned(at, wish.player, seat) if seat < len(at.seats) else at
    others = iter(rest)
    tables = tuple(slots[k] if k in slots else next(others) for k in range(len(plan.tables)))
    return RotationPlan(tables, plan.sit_out)

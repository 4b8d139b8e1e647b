"""Rotating partners: whist designs when they exist, otherwise a seeded local search.

Costs: a repeated partnership costs ``PARTNER_WEIGHT`` times the number of earlier
partnerships (so it is avoided whenever possible); meeting an opponent again costs the number of
earlier meetings, which keeps the opponent counts as even as possible (it minimises the sum of
their squares). With a season (``request.season``) the earlier nights add their weighted costs
(see :mod:`season`) to the local search, which then plans nights shorter than a whole design
too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from .designs import Table, whist_design
from .season import SeasonWeights, season_weights
from .seats import Sides, build_rotations
from .shapes import rotating_shape, split_sides
from .types import HARD_WISHES, RotationPlan, SeatingError, SeatingRequest, Wish
from .wish_rules import (
    PARTNER_ONCE_BONUS,
    WISH_WEIGHT,
    active_wishes,
    fixed_seat_wishes,
    place_fixed_seats,
    stays_seated,
)

# seating structure, ignoring seat order, side order and dealers: sorted tables, sorted sit-outs
Shape = tuple[list[list[tuple[int, ...]]], list[int]]

PARTNER_WEIGHT = 1_000_000
RESTARTS = 6  # fresh starts of the local search while a partner repeat remains


def plan_rotating(request: SeatingRequest) -> list[RotationPlan]:
    players = sorted(set(request.players))
    entry_order = {p: i for i, p in enumerate(request.players)}
    if len(players) != len(request.players):
        raise SeatingError("A player is listed twice in the request.")
    remaining = request.rotations - len(request.played)
    if remaining <= 0:
        return []
    sizes, n_sit = rotating_shape(len(players), request)
    rng = random.Random(request.seed)
    season = season_weights(request.season)
    wishes = active_wishes(request.wishes, players)
    # a whole design partners every pair once and seats everyone in turn: no design for hard wishes
    design = (_from_design(players, request, rng, season, wishes) or []
              if request.sit_out_rule != "seat_order"
              and not any(w.kind in HARD_WISHES for w in wishes) else [])
    planned = design[len(request.played) : request.rotations]
    from_design = len(planned)
    history = History(request.played, players, season, rule=request.sit_out_rule,
                      entry_order=entry_order, wishes=wishes)
    for tables, sit in planned:
        history.add(tables, sit)
    while len(planned) < remaining:
        sit = history.choose_sit_outs(players, n_sit, rng, one_table=len(sizes) == 1)
        seated = [p for p in players if p not in set(sit)]
        tables = seat_one_rotation(seated, sizes, request.six_sides, history, rng)
        history.add(tables, sit)
        planned.append((tables, sit))
    built = build_rotations(planned, request.played, rng, keep_orientation=from_design)
    return [place_fixed_seats(plan, wishes) for plan in built]


# --- exact designs -------------------------------------------------------------------------


def _from_design(
    players: list[int], request: SeatingRequest, rng: random.Random, season: SeasonWeights,
    wishes: Sequence[Wish] = (),
) -> list[tuple[list[Sides], tuple[int, ...]]] | None:
    """The design's rotations (relabelled by the seed) when a Wh(v) fits and the rotations
    already played are its prefix; None otherwise (and for a season's night shorter than the
    whole design: a whole design has every pair partner once and meet twice, whatever the
    season)."""
    v = len(players)
    if v % 4 not in (0, 1):
        return None
    design = whist_design(v)
    partial = design is not None and request.rotations < len(design)
    if partial and any(w.kind == "partner_once" for w in wishes):
        return None  # a design prefix ignores who should partner: the search grants it
    if design is None or (season and partial):
        # a shorter night of a season: the search below, free to pick any table, mixes the
        # season's partners better than relabelling a design prefix
        return None
    labels = players[:]
    rng.shuffle(labels)
    rotations: list[tuple[list[Sides], tuple[int, ...]]] = []
    for rotation in _even_order(design):
        seated = {x for t in rotation for x in t}
        tables: list[Sides] = [
            ((labels[a], labels[c]), (labels[b], labels[d])) for a, b, c, d in rotation
        ]
        sit = tuple(labels[x] for x in range(v) if x not in seated)
        rotations.append((tables, sit))
    played = [_shape_of(plan) for plan in request.played]
    if played != [_normal(t, s) for t, s in rotations[: len(played)]]:
        return None
    return rotations


def _even_order(design: list[list[Table]]) -> list[list[Table]]:
    """Order the rotations so that every prefix spreads opponents evenly (greedy: next comes
    the rotation whose opponent pairs have met least so far)."""
    left = list(design)
    met: Counter[tuple[int, int]] = Counter()
    order = []
    while left:
        best = min(left, key=lambda r: sum(met[p] ** 2 + met[p] for p in _opp_pairs(r)))
        left.remove(best)
        met.update(_opp_pairs(best))
        order.append(best)
    return order


def _opp_pairs(rotation: list[Table]) -> list[tuple[int, int]]:
    out = []
    for a, b, c, d in rotation:
        for x, y in ((a, b), (b, c), (c, d), (d, a)):
            out.append((min(x, y), max(x, y)))
    return out


def _normal(tables: list[Sides], sit: Sequence[int]) -> Shape:
    """Seating structure, ignoring seat order, side order and dealers."""
    return (
        sorted(sorted(tuple(sorted(side)) for side in t) for t in tables),
        sorted(sit),
    )


def _shape_of(plan: RotationPlan) -> Shape:
    return _normal([t.sides for t in plan.tables], plan.sit_out)


# --- history and local search ------------------------------------------------------------


class History:
    """Partner/opponent/sit-out counts so far (played plus planned rotations), and the
    rotations each player missed by arriving late (neither seated nor sitting out)."""

    def __init__(
        self, played: Sequence[RotationPlan], players: list[int],
        season: SeasonWeights | None = None, rule: str = "fewest",
        entry_order: dict[int, int] | None = None, wishes: Sequence[Wish] = (),
    ) -> None:
        self.season = season or SeasonWeights()
        self.wishes = tuple(wishes)
        self.stay = stays_seated(self.wishes)
        self.rule = rule
        self.entry_order = entry_order or {}
        self.partners: Counter[tuple[int, int]] = Counter()
        self.opponents: Counter[tuple[int, int]] = Counter()
        self.sit_outs: Counter[int] = Counter()
        self.missed: Counter[int] = Counter()
        for plan in played:
            present = {p for t in plan.tables for p in t.seats}
            self.sit_outs.update(p for p in plan.sit_out if p in set(players))
            self.missed.update(p for p in players if p not in present and p not in plan.sit_out)
            self._add_tables([t.sides for t in plan.tables])

    def add(self, tables: list[Sides], sit: Sequence[int]) -> None:
        self.sit_outs.update(sit)
        self._add_tables(tables)

    def _add_tables(self, tables: Sequence[Sides]) -> None:
        for sides in tables:
            for side in sides:
                self.partners.update(_key(a, b) for a, b in combinations(side, 2))
            for s1, s2 in combinations(sides, 2):
                self.opponents.update(_key(a, b) for a in s1 for b in s2)

    def choose_sit_outs(self, players: list[int], k: int, rng: random.Random,
                        one_table: bool = False) -> tuple[int, ...]:
        """The ``k`` players who sit out next under the event's sit-out rule (see
        ``types.SIT_OUT_RULES``); remaining ties broken by the seed."""
        if k == 0:
            return ()
        # who must stay seated (a wish) sits out only when there is nobody else
        keys = {p: (p in self.stay, *self.sit_out_key(p, rng.random())) for p in players}
        order = sorted(players, key=keys.__getitem__)
        sit = order[:k]
        if one_table and self.rule != "seat_order":
            sit = self._apart(sit, set(order[k:]), keys)
        return tuple(sorted(sit))

    def _apart(self, sit: list[int], seated: set[int],
               keys: dict[int, tuple[Any, ...]]) -> list[int]:
        """At a single table a pair who must not meet is kept apart when one of them is exactly
        as due to sit out as someone sitting out (they change places: the rule is kept)."""
        pairs = [w for w in self.wishes if w.kind == "not_meet" and w.other is not None]
        in_pairs = {p for w in pairs for p in (w.player, w.other)}
        sit = list(sit)
        for wish in pairs:
            if not {wish.player, wish.other} <= seated:
                continue
            for member in (wish.player, wish.other or 0):
                swap = next((s for s in sit if s not in in_pairs
                             and keys[s][:-1] == keys[member][:-1]), None)
                if swap is not None:
                    sit[sit.index(swap)] = member
                    seated.discard(member)
                    break
        return sit

    def partnered(self, a: int, b: int) -> bool:
        """Whether a and b were partners tonight or on an earlier night of the season."""
        return self.partners[_key(a, b)] > 0 or self.season.partners.get(_key(a, b), 0) > 0

    def sit_out_key(self, p: int, tie: float) -> tuple[float, ...]:
        seasonal = self.season.sit_outs[p]
        if self.rule == "latecomers":
            return (0 if self.missed[p] else 1, self.sit_outs[p], seasonal, tie)
        if self.rule == "seat_order":
            return (self.sit_outs[p], self.entry_order.get(p, 0))
        return (self.sit_outs[p], -self.missed[p], seasonal, tie)


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def seat_one_rotation(
    seated: list[int], sizes: list[int], six_sides: int, history: History, rng: random.Random
) -> list[Sides]:
    """Seat ``seated`` at tables of ``sizes`` minimising the cost, by random swaps."""
    n = len(seated)
    idx = {p: i for i, p in enumerate(seated)}
    weight, floor = _weights(seated, idx, history)
    order = list(range(n))
    rng.shuffle(order)
    layouts = [(size, 2 if size == 4 else six_sides) for size in sizes]
    starts = [sum(sizes[:k]) for k in range(len(sizes))]
    pins = _pins(seated, idx, sizes, starts, history.wishes)
    _pin(order, pins)
    table_of = [k for k, size in enumerate(sizes) for _ in range(size)]
    pairs = [_pair_list(size, sides) for size, sides in layouts]

    def cost(k: int) -> float:
        base = starts[k]
        total: float = 0
        for i, j, is_partner in pairs[k]:
            a, b = order[base + i], order[base + j]
            total += weight(a, b, is_partner)
        return total

    best, best_total = order[:], None
    for _attempt in range(RESTARTS):
        costs = [cost(k) for k in range(len(sizes))]
        _local_search(order, table_of, costs, cost, rng, floor=floor, fixed=set(pins))
        if best_total is None or sum(costs) < best_total:
            best, best_total = order[:], sum(costs)
        if best_total < PARTNER_WEIGHT:  # no partner repeat left: good enough
            break
        rng.shuffle(order)  # a repeat is left: try again from another start
        _pin(order, pins)
    order[:] = best
    out = []
    for k, (size, sides) in enumerate(layouts):
        members = [seated[order[starts[k] + i]] for i in range(size)]
        out.append(split_sides(members, size, sides))
    return out


def _pins(seated: list[int], idx: dict[int, int], sizes: list[int], starts: list[int],
          wishes: Sequence[Wish]) -> dict[int, int]:
    """Position -> seated index of each player who keeps a seat: the players wishing one table
    number share a table (big enough for the seat), each table number its own table; the
    tables are renumbered afterwards (`place_fixed_seats`)."""
    by_table: dict[int, list[Wish]] = {}
    for wish in fixed_seat_wishes(wishes):
        if wish.player in idx:
            by_table.setdefault(wish.table or 1, []).append(wish)
    pins: dict[int, int] = {}
    free = list(range(len(sizes)))
    for _number, group in sorted(by_table.items()):
        need = max(w.seat or 1 for w in group)
        k = next((k for k in free if sizes[k] >= need), free[0] if free else None)
        if k is None:
            break
        free.remove(k)
        for offset, wish in enumerate(group[: sizes[k]]):
            pins[starts[k] + offset] = idx[wish.player]
    return pins


def _pin(order: list[int], pins: dict[int, int]) -> None:
    for position, index in pins.items():
        at = order.index(index)
        order[position], order[at] = order[at], order[position]


def _wish_weights(part: list[list[float]], opp: list[list[float]], idx: dict[int, int],
                  history: History) -> float:
    """Add the pair wishes to the weights; the lowest cost the bonuses can reach (<= 0)."""
    floor = 0.0
    for wish in history.wishes:
        if wish.other is None or wish.player not in idx or wish.other not in idx:
            continue
        i, j = idx[wish.player], idx[wish.other]
        if wish.kind in ("not_partners", "not_meet"):
            part[i][j] += WISH_WEIGHT
            part[j][i] += WISH_WEIGHT
        if wish.kind == "not_meet":
            opp[i][j] += WISH_WEIGHT
            opp[j][i] += WISH_WEIGHT
        if wish.kind == "partner_once" and not history.partnered(wish.player, wish.other):
            part[i][j] -= PARTNER_ONCE_BONUS
            part[j][i] -= PARTNER_ONCE_BONUS
            floor -= PARTNER_ONCE_BONUS
    return floor


def _weights(seated: list[int], idx: dict[int, int],
             history: History) -> tuple[Callable[[int, int, bool], float], float]:
    """Dense pair weights (partner, opponent) for fast lookups, and the lowest total cost
    possible (below 0 when a wish to partner gives a bonus)."""
    n = len(seated)
    part: list[list[float]] = [[0] * n for _ in range(n)]
    opp: list[list[float]] = [[0] * n for _ in range(n)]
    for (a, b), c in history.partners.items():
        if a in idx and b in idx:
            part[idx[a]][idx[b]] = part[idx[b]][idx[a]] = c * PARTNER_WEIGHT
    for (a, b), c in history.opponents.items():
        if a in idx and b in idx:
            opp[idx[a]][idx[b]] = opp[idx[b]][idx[a]] = c
    for table, weights in ((part, history.season.partners), (opp, history.season.opponents)):
        for (a, b), w in weights.items():
            if a in idx and b in idx:
                table[idx[a]][idx[b]] += w
                table[idx[b]][idx[a]] += w
    floor = _wish_weights(part, opp, idx, history)

    def weight(a: int, b: int, is_partner: bool) -> float:
        return part[a][b] if is_partner else opp[a][b]

    return weight, floor


def _pair_list(size: int, n_sides: int) -> list[tuple[int, int, bool]]:
    """(i, j, partners?) for positions at a table whose sides are consecutive blocks."""
    per = size // n_sides
    return [(i, j, i // per == j // per) for i, j in combinations(range(size), 2)]


def _local_search(
    order: list[int],
    table_of: list[int],
    costs: list[float],
    cost: Callable[[int], float],
    rng: random.Random,
    floor: float = 0.0,
    fixed: set[int] | None = None,
) -> None:
    """Swap two seated players when that does not raise the cost (sideways moves help to
    leave plateaus); stop after a long run without improvement, or at the lowest cost possible
    (`floor`). Positions in `fixed` (players keeping a seat) never move."""
    n = len(order)
    fixed = fixed or set()
    total = sum(costs)
    if total <= floor or len(costs) < 1 or n - len(fixed) < 2:
        return
    patience, idle = max(3000, 30 * n), 0  # small events can afford a longer search
    while idle < patience and total > floor:
        i, j = rng.randrange(n), rng.randrange(n)
        ti, tj = table_of[i], table_of[j]
        if i == j or i in fixed or j in fixed:
            continue
        order[i], order[j] = order[j], order[i]
        new_i = cost(ti)
        new_j = cost(tj) if tj != ti else new_i
        delta = new_i - costs[ti] + (new_j - costs[tj] if tj != ti else 0)
        if delta <= 0:
            costs[ti], costs[tj] = new_i, new_j
            total += delta
            idle = 0 if delta < 0 else idle + 1
        else:
            order[i], order[j] = order[j], order[i]
            idle += 1

"""Fixed partnerships: Swiss, round robin (Berger tables) and progressive.

Sides are the entered partnerships. Tables hold two sides; with an odd number of sides, one
table of six holds three sides when the rule set allows three sides of two
(``six_sides == 3`` and tables of six chosen), otherwise one side has a bye (sits out), the
byes going round fairly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from .seats import Sides, build_rotations
from .shapes import uses_six
from .types import RotationPlan, SeatingError, SeatingRequest

Side = tuple[int, ...]
Planned = tuple[list[Sides], tuple[int, ...]]


# --- shared -------------------------------------------------------------------------------


def entered_sides(request: SeatingRequest) -> list[Side]:
    sides = [tuple(s) for s in request.partnerships]
    if len(sides) < 2:
        raise SeatingError("At least two partnerships are needed for a fixed-partner event.")
    flat = [p for s in sides for p in s]
    if any(len(s) != 2 for s in sides) or len(set(flat)) != len(flat):
        raise SeatingError("Each partnership must be two different players, each in one side.")
    return sides


def three_side_table(request: SeatingRequest, n_sides: int) -> bool:
    """Whether the odd side out joins a table of six (three sides of two)."""
    return n_sides % 2 == 1 and n_sides >= 3 and uses_six(request) and request.six_sides == 3


def group_in_order(ordered: list[Side], three: bool) -> list[Sides]:
    """Cut an ordered list of sides into tables of two (the last three together if asked)."""
    if three:
        head, tail = ordered[:-3], ordered[-3:]
        return [tuple(head[i : i + 2]) for i in range(0, len(head), 2)] + [tuple(tail)]
    return [tuple(ordered[i : i + 2]) for i in range(0, len(ordered), 2)]


class Records:
    """Per side: match points (win 2, tie 1, loss 0; a bye counts as a win), total points,
    sides met, byes; and the last rotation's winners/losers by table."""

    def __init__(self, request: SeatingRequest, sides: list[Side]) -> None:
        self.of = {p: s for s in sides for p in s}
        self.match: Counter[Side] = Counter()
        self.total: Counter[Side] = Counter()
        self.byes: Counter[Side] = Counter()
        self.met: Counter[frozenset[Side]] = Counter()
        for k, plan in enumerate(request.played):
            points = request.points[k] if k < len(request.points) else {}
            self._add_rotation(plan, points, sides)

    def side(self, players: Sequence[int]) -> Side | None:
        return self.of.get(players[0])

    def _add_rotation(self, plan: RotationPlan, points: Mapping[int, int],
                      sides: list[Side]) -> None:
        present: set[Side] = set()
        for table in plan.tables:
            known = [self.side(s) for s in table.sides]
            here = [s for s in known if s is not None]
            present.update(here)
            for i, a in enumerate(here):
                for b in here[i + 1 :]:
                    self.met[frozenset((a, b))] += 1
            found = {s: points.get(s[0]) for s in here}
            scores = {s: v for s, v in found.items() if v is not None}
            if len(scores) < len(found):
                continue  # no result (yet): no match points
            best, worst = max(scores.values()), min(scores.values())
            for s, v in scores.items():
                self.total[s] += v
                self.match[s] += 1 if best == worst else (2 if v == best else 0)
        for s in sides:
            if s not in present:
                self.byes[s] += 1
                self.match[s] += 2


def choose_bye(ordered: list[Side], byes: Counter[Side]) -> Side:
    """Lowest-placed side among those with the fewest byes."""
    fewest = min(byes[s] for s in ordered)
    return next(s for s in reversed(ordered) if byes[s] == fewest)


def _finish(request: SeatingRequest, planned: list[Planned]) -> list[RotationPlan]:
    rng = random.Random(f"{request.seed}:dealers:{len(request.played)}")
    return build_rotations(planned, request.played, rng)


def _bye_players(byes: list[Side]) -> tuple[int, ...]:
    return tuple(p for s in byes for p in s)


# --- Swiss --------------------------------------------------------------------------------


def plan_swiss(request: SeatingRequest) -> list[RotationPlan]:
    """Next rotation: sides ranked by match points then total points (ties by the seed) are
    paired top down, avoiding rematches while possible (backtracking)."""
    if len(request.played) >= request.rotations:
        return []
    sides = entered_sides(request)
    rec = Records(request, sides)
    rng = random.Random(f"{request.seed}:swiss:{len(request.played)}")
    ordered = sorted(sides, key=lambda s: (-rec.match[s], -rec.total[s], rng.random()))
    three = three_side_table(request, len(sides))
    byes: list[Side] = []
    if len(sides) % 2 and not three:
        byes = [choose_bye(ordered, rec.byes)]
        ordered = [s for s in ordered if s not in byes]
    tail: list[Side] = []
    if three:  # the three lowest-ranked sides share the table of six
        ordered, tail = ordered[:-3], ordered[-3:]
    tables = pair_avoiding_rematches(ordered, rec.met, rec.match)
    tables += [tuple(tail)] if tail else []
    return _finish(request, [(tables, _bye_players(byes))])


def pair_avoiding_rematches(
    ordered: list[Side], met: Counter[frozenset[Side]], record: Counter[Side] | None = None
) -> list[Sides]:
    """Pair the ranked sides without rematches, keeping records as equal as possible.

    Depth-first search, best candidates first (closest record, then closest rank), under a
    growing bound on the summed record differences of the pairs (0 first: every pair has equal
    records); each bound has a node budget. If no rematch-free pairing turns up, pair each
    highest side with the one it met least.
    """
    rec: Counter[Side] = record if record is not None else Counter()
    for bound in range(0, 2 * len(ordered) + 1, 2):
        found = _search_pairs(list(ordered), met, rec, bound, [4000])
        if found is not None:
            return found
    rest, out = list(ordered), list[Sides]()
    while rest:
        first = rest.pop(0)
        other = min(rest, key=lambda s: met[frozenset((first, s))])
        rest.remove(other)
        out.append((first, other))
    return out


def _search_pairs(rest: list[Side], met: Counter[frozenset[Side]], rec: Counter[Side], bound: int,
                  budget: list[int]) -> list[Sides] | None:
    if not rest:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first = rest[0]
    options = [
        (abs(rec[first] - rec[rest[i]]), i)
        for i in range(1, len(rest))
        if not met[frozenset((first, rest[i]))]
    ]
    for cost, i in sorted(options):
        if cost > bound:
            break
        tail = _search_pairs(rest[1:i] + rest[i + 1 :], met, rec, bound - cost, budget)
        if tail is not None:
            return [(first, rest[i]), *tail]
    return None


# --- round robin --------------------------------------------------------------------------


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Berger tables for n (even) entries 0..n-1: n - 1 rounds, each pair meets once.

    Circle method: entry n - 1 stays fixed, the others turn one place each round.
    """
    rounds = []
    ring = list(range(n - 1))
    for _ in range(n - 1):
        line = [*ring, n - 1]
        rounds.append([(line[i], line[n - 1 - i]) for i in range(n // 2)])
        ring = ring[-1:] + ring[:-1]
    return rounds


def plan_round_robin(request: SeatingRequest) -> list[RotationPlan]:
    """All remaining rotations from Berger tables (sides numbered by the seed); an odd number
    of sides gets a bye each rotation. After a change of the sides, the remaining rotations
    pair sides that have not met yet, as far as possible."""
    sides = entered_sides(request)
    remaining = request.rotations - len(request.played)
    if remaining <= 0:
        return []
    order = sides[:]
    random.Random(f"{request.seed}:berger").shuffle(order)
    full = _berger_schedule(order, request.rotations)
    done = len(request.played)
    if [_normal(p) for p in request.played] == [_normal_planned(x) for x in full[:done]]:
        return _finish(request, full[done:])
    return _finish(request, _round_robin_replan(request, sides, remaining))


def _berger_schedule(order: list[Side], rotations: int) -> list[Planned]:
    entries: list[Side | None] = order + ([None] if len(order) % 2 else [])
    rounds = berger_rounds(len(entries))
    out: list[Planned] = []
    for r in range(rotations):
        tables: list[Sides] = []
        byes: list[Side] = []
        for a, b in rounds[r % len(rounds)]:
            x, y = entries[a], entries[b]
            if x is None:
                byes += [y] if y is not None else []
            elif y is None:
                byes.append(x)
            else:
                tables.append((x, y))
        out.append((tables, _bye_players(byes)))
    return out


def _round_robin_replan(request: SeatingRequest, sides: list[Side],
                        remaining: int) -> list[Planned]:
    rec = Records(request, sides)
    rng = random.Random(f"{request.seed}:rr:{len(request.played)}")
    out: list[Planned] = []
    for _ in range(remaining):
        # sides that met least go first, so they find fresh opponents
        ordered = sorted(sides, key=lambda s: (sum(rec.met[frozenset((s, o))] for o in sides),
                                               rng.random()))
        byes: list[Side] = []
        if len(ordered) % 2:
            byes = [choose_bye(ordered, rec.byes)]
            ordered = [s for s in ordered if s not in byes]
            rec.byes.update(byes)
        tables = pair_avoiding_rematches(ordered, rec.met)
        for a, b in tables:
            rec.met[frozenset((a, b))] += 1
        out.append((tables, _bye_players(byes)))
    return out


def _normal(plan: RotationPlan) -> tuple[list[list[Side]], list[int]]:
    return (sorted(sorted(t.sides) for t in plan.tables), sorted(plan.sit_out))


def _normal_planned(item: Planned) -> tuple[list[list[Side]], list[int]]:
    tables, sit = item
    return (sorted(sorted(t) for t in tables), sorted(sit))


# --- progressive --------------------------------------------------------------------------


def plan_progressive(request: SeatingRequest) -> list[RotationPlan]:
    """Next rotation: at each table the winner moves up one table and the loser down one
    (the top winner and the bottom loser stay); at a table of three sides the middle side
    stays. Sides that had a bye come back at the bottom. Ties are broken by the seed."""
    if len(request.played) >= request.rotations:
        return []
    sides = entered_sides(request)
    rec = Records(request, sides)
    rng = random.Random(f"{request.seed}:progressive:{len(request.played)}")
    if not request.played:
        ordered = sides[:]
        rng.shuffle(ordered)
    else:
        ordered = _move(request, sides, rec, rng)
    three = three_side_table(request, len(sides))
    byes: list[Side] = []
    if len(sides) % 2 and not three:
        byes = [choose_bye(ordered, rec.byes)]
        ordered = [s for s in ordered if s not in byes]
    return _finish(request, [(group_in_order(ordered, three), _bye_players(byes))])


def _move(request: SeatingRequest, sides: list[Side], rec: Records,
          rng: random.Random) -> list[Side]:
    last = request.played[-1]
    points = request.points[-1] if request.points else {}
    n_tables = len(last.tables)
    key: dict[Side, float] = {}
    for t, table in enumerate(last.tables):
        here = [s for s in (rec.side(x) for x in table.sides) if s in set(sides)]
        ranked = sorted(here, key=lambda s: (-points.get(s[0], 0), rng.random()))
        for place, s in enumerate(ranked):
            if place == 0:
                key[s] = t - 1  # winner moves up
            elif place == len(ranked) - 1:
                key[s] = t + 1  # loser moves down
            else:
                key[s] = t
    for s in sides:  # byes and late entries come in at the bottom
        key.setdefault(s, n_tables + 1)
    return sorted(sides, key=lambda s: (key[s], rng.random()))

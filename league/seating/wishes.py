"""Which seating wishes a night's seating keeps, in words, and what gave way.

`wish_outcomes(request, plans, names)` looks at the night's rotations (`plans`: played and
planned, in order) and says of each wish of `request.wishes` whether it was kept and, when not,
why. The order of precedence (docs/seating.md, "Wishes"):

1. a player who must not sit out or keeps one seat (mobility) stays seated;
2. fair sit-outs among everyone else (the event's sit-out rule);
3. must not be partners, must not meet;
4. no partner repeats, even opponents (the fairness goals of the search);
5. should partner once this season (a preference).

With `compare=True` (the seating is the generator's own for `request`) the night is planned
again without the wishes, and without each hard wish in turn, to name the fairness goal that
gave way to a wish kept: more repeated partnerships, or sit-outs less even.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .planner import plan_rotations
from .report import pair_counts
from .shapes import rotating_shape
from .types import HARD_WISHES, RotationPlan, SeatingError, SeatingRequest, Wish
from .wish_rules import stays_seated

MAX_COMPARED = 12  # wishes planned without one at a time (bounded work)


@dataclass(frozen=True)
class WishOutcome:
    wish: Wish
    kept: bool
    words: str  # "Ann and Bob must not be partners: kept."
    earlier: bool = False  # a partner-once wish kept on an earlier night of the season


def wish_words(wish: Wish, names: Mapping[int, str]) -> str:
    """What the wish asks, in words."""
    a = names.get(wish.player, f"player {wish.player}")
    b = names.get(wish.other, f"player {wish.other}") if wish.other is not None else ""
    return {
        "not_partners": f"{a} and {b} must not be partners",
        "not_meet": f"{a} and {b} must not meet at a table",
        "partner_once": f"{a} and {b} should partner once this season",
        "no_sit_out": f"{a} must not sit out",
        "fixed_seat": f"{a} keeps table {wish.table or 1}, seat {wish.seat or 1} all night",
    }.get(wish.kind, wish.kind)


def _rotations(numbers: Sequence[int]) -> str:
    return ("rotation " if len(numbers) == 1 else "rotations ") + ", ".join(map(str, numbers))


@dataclass
class _Night:
    request: SeatingRequest
    plans: Sequence[RotationPlan]
    names: Mapping[int, str]

    def together(self, a: int, b: int, *, partners: bool) -> list[int]:
        out = []
        for number, plan in enumerate(self.plans, start=1):
            groups = [side for t in plan.tables for side in t.sides] if partners else [
                t.seats for t in plan.tables]
            if any(a in g and b in g for g in groups):
                out.append(number)
        return out

    def sat_out(self, p: int) -> list[int]:
        return [n for n, plan in enumerate(self.plans, start=1) if p in plan.sit_out]

    def name(self, p: int) -> str:
        return self.names.get(p, f"player {p}")


def _earlier_partners(season: Sequence[Sequence[RotationPlan]], a: int, b: int) -> bool:
    return any(a in side and b in side for night in season for plan in night
               for t in plan.tables for side in t.sides)


def _fixed_formats(night: _Night) -> str:
    return "the event has fixed partnerships, and the format's pairing comes first"


def _pair_outcome(night: _Night, wish: Wish) -> tuple[bool, str, bool]:
    a, b = wish.player, wish.other or 0
    here = set(night.request.players)
    if wish.kind == "partner_once":
        if _earlier_partners(night.request.season, a, b):
            return True, "kept on an earlier night of the season", True
        tonight = night.together(a, b, partners=True)
        if tonight:
            return True, f"kept: partners in {_rotations(tonight)}", False
        missing = [p for p in (a, b) if p not in here]
        if missing:
            return False, f"not yet: {night.name(missing[0])} is not playing tonight", False
        if night.request.format != "rotating":
            return False, f"not yet: {_fixed_formats(night)}", False
        return False, ("not yet: it is a preference and gave way tonight to the fairness goals "
                       "(no partner repeats, mixing the season's partners)"), False
    missing = [p for p in (a, b) if p not in here]
    if missing:
        return True, f"nothing to keep tonight: {night.name(missing[0])} is not playing", False
    partners = wish.kind == "not_partners"
    broken = night.together(a, b, partners=partners)
    if not broken:
        return True, "kept", False
    what = "partners" if partners else "at one table"
    return False, f"not kept ({what} in {_rotations(broken)}): {_pair_why(night, broken, wish)}", False


def _pair_why(night: _Night, broken: list[int], wish: Wish) -> str:
    if night.request.format != "rotating":
        return _fixed_formats(night)
    tables = {w.player: w.table or 1 for w in night.request.wishes if w.kind == "fixed_seat"}
    if wish.player in tables and tables.get(wish.other or 0) == tables[wish.player]:
        return (f"both keep a seat at table {tables[wish.player]} (their wishes to keep a seat "
                "come first)")
    one_table = [n for n in broken if len(night.plans[n - 1].tables) == 1]
    if one_table:
        return (f"{_rotations(one_table)} had one table, so they meet unless one of them sits "
                "out, and who sits out follows the event's sit-out rule, which comes first")
    return ("no seating keeps it together with the other wishes (fixed seats, must-not wishes), "
            "or the seating was changed by hand")


def _seats_for(night: _Night) -> int:
    try:
        sizes, _ = rotating_shape(len(night.request.players), night.request)
    except SeatingError:
        return 0
    return sum(sizes)


def _sit_out_why(night: _Night) -> str:
    stay = stays_seated(w for w in night.request.wishes if w.player in night.request.players)
    seats = _seats_for(night)
    if len(stay) > seats:
        return (f"{len(stay)} players must stay seated but the tables seat {seats}, so the "
                "sit-out rule chose among them")
    if night.request.format != "rotating":
        return _fixed_formats(night)
    return "the seating was changed by hand"


def _player_outcome(night: _Night, wish: Wish) -> tuple[bool, str, bool]:
    p = wish.player
    if p not in night.request.players:
        return True, f"nothing to keep tonight: {night.name(p)} is not playing", False
    sat = night.sat_out(p)
    if wish.kind == "no_sit_out":
        if not sat:
            return True, "kept", False
        return False, f"not kept (sits out {_rotations(sat)}): {_sit_out_why(night)}", False
    misses: dict[str, list[int]] = {}
    for number, plan in enumerate(night.plans, start=1):
        reason = _seat_miss(night, wish, plan)
        if reason:
            misses.setdefault(reason, []).append(number)
    if not misses:
        return True, "kept", False
    return False, "not kept (" + "; ".join(
        f"{_rotations(numbers)}: {reason}" for reason, numbers in misses.items()) + ")", False


def _seat_miss(night: _Night, wish: Wish, plan: RotationPlan) -> str:
    table, seat = wish.table or 1, wish.seat or 1
    if wish.player in plan.sit_out:
        return f"sits out: {_sit_out_why(night)}"
    if not any(wish.player in t.seats for t in plan.tables):
        return ""  # not here yet (arrived late)
    if table > len(plan.tables):
        return f"there {'is' if len(plan.tables) == 1 else 'are'} only {len(plan.tables)} table" \
               f"{'s' if len(plan.tables) != 1 else ''}"
    at = plan.tables[table - 1]
    if len(at.seats) >= seat and at.seats[seat - 1] == wish.player:
        return ""
    if seat > len(at.seats):
        return f"table {table} seats {len(at.seats)}"
    if night.request.format != "rotating":
        return _fixed_formats(night)
    holder = at.seats[seat - 1]
    rival = any(w.kind == "fixed_seat" and w.player == holder and (w.table or 1) == table
                for w in night.request.wishes)
    if rival:
        return f"{night.name(holder)}'s wish keeps that seat"
    return "another wish keeps a seat at that table, or the seating was changed by hand"


def _figures(plans: Sequence[RotationPlan], players: Sequence[int]) -> tuple[int, int]:
    """(repeated partnerships, most minus fewest sit-outs) of these rotations."""
    partners, _ = pair_counts(plans)
    sits = Counter(p for plan in plans for p in plan.sit_out)
    counts = [sits.get(p, 0) for p in players]
    return sum(n - 1 for n in partners.values() if n > 1), max(counts, default=0) - min(
        counts, default=0)


def _gave_way(request: SeatingRequest, plans: Sequence[RotationPlan],
              outcomes: list[WishOutcome]) -> dict[Wish, str]:
    """Per kept hard wish, the fairness goal that gave way to it, in words ({} if none)."""
    kept = [o.wish for o in outcomes if o.kept and o.wish.kind in HARD_WISHES
            and o.wish.player in request.players]
    if not kept or request.format != "rotating":
        return {}
    played = list(request.played)

    def figures(wishes: tuple[Wish, ...]) -> tuple[int, int]:
        return _figures(played + plan_rotations(replace(request, wishes=wishes)), request.players)

    have = _figures(plans, request.players)
    free = figures(())
    if have[0] <= free[0] and have[1] <= free[1]:
        return {}
    notes: dict[Wish, str] = {}
    for wish in kept[:MAX_COMPARED]:
        without = figures(tuple(w for w in request.wishes if w != wish))
        note = _worse(have, without, "this wish")
        if note:
            notes[wish] = note
    if not notes:
        for wish in kept:
            notes[wish] = _worse(have, free, "any wish")
    return notes


def _worse(have: tuple[int, int], without: tuple[int, int], what: str) -> str:
    parts = []
    if have[0] > without[0]:
        parts.append(f"no partner repeats gave way ({have[0]} repeated partnership"
                     f"{'s' if have[0] != 1 else ''} tonight, {without[0]} without {what})")
    if have[1] > without[1]:
        parts.append(f"even sit-outs gave way (sit-outs differ by up to {have[1]}, {without[1]} "
                     f"without {what})")
    return "; ".join(parts)


def wish_outcomes(request: SeatingRequest, plans: Sequence[RotationPlan],
                  names: Mapping[int, str] | None = None, *,
                  compare: bool = False) -> list[WishOutcome]:
    """Each wish of `request.wishes`, kept or not over the night's rotations `plans`, in words."""
    night = _Night(request, plans, names or {})
    outcomes = []
    for wish in request.wishes:
        judge = _pair_outcome if wish.other is not None else _player_outcome
        kept, why, earlier = judge(night, wish)
        outcomes.append(WishOutcome(wish, kept, f"{wish_words(wish, night.names)}: {why}.",
                                    earlier))
    if compare:
        notes = _gave_way(request, plans, outcomes)
        outcomes = [replace(o, words=o.words[:-1] + f"; to keep it, {notes[o.wish]}.")
                    if o.wish in notes else o for o in outcomes]
    return outcomes

"""Seatings prepared from who is coming (RSVP), and the checks of a night's seating.

Who each prepared plan seats (docs/seating.md, "Prepared plans"):

* the expected players (N): everyone entered already, then the players who answered "coming"
  (earliest answer first), or, when the director typed the expected names, those names in the
  order typed;
* N − 1 and N − 2 leave out the 1 or 2 last of that list (the latest answers, the last names
  typed);
* N + 1 and N + 2 add the first 1 or 2 "maybe" answers (earliest first), then guests not named
  yet when there are not enough maybes.

Each plan is the seating generator's for the event's settings and wishes, checked by the
independent checker (`league.seating.checker`). The plans are made by a job (`league.jobs`)
and stored as `PreparedPlan` rows; `seating_plan_use` enters a plan's players and seats its
first rotation as the draft.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from core.errors import Conflict, Invalid
from league import selectors
from league.errors import Code, refusal
from league.models import (
    Attendance,
    AuditEntry,
    Event,
    Player,
    PreparedPlan,
    Registration,
    Rotation,
)
from league.names import name_key
from league.seating import (
    RotationPlan,
    SeatingError,
    SeatingRequest,
    TablePlan,
    WishOutcome,
    plan_rotations,
    quality_report,
    wish_outcomes,
    wish_words,
)
from league.seating.checker import (
    SeatingFileError,
    seating_check,
    seating_from_json,
    wishes_from_json,
)
from league.services._common import lock_event
from league.services.registrations import (
    registration_add,
    registration_check_in,
    registration_withdraw,
)
from league.services.rotations import rotation_seat_plan, rotation_seating_request

OFFSETS = (-2, -1, 0, 1, 2)
MAX_NAMES = 500
GUEST = "Guest"


# --- the independent check of a night -----------------------------------------------------


@dataclass(frozen=True)
class NightCheck:
    outcomes: list[WishOutcome]
    sound: bool
    problems: list[str]  # the checker's, with the players' names
    file: dict[str, Any]  # the seating as `manage.py check_seating` reads it


def _table_json(table: TablePlan, number: Mapping[int, int]) -> dict[str, Any]:
    return {"seats": [number[p] for p in table.seats],
            "sides": [[number[p] for p in side] for side in table.sides],
            "first_dealer": number[table.first_dealer]}


def checker_file(plans: Sequence[RotationPlan], players: Sequence[int],
                 outcomes: Sequence[WishOutcome]) -> tuple[dict[str, Any], dict[int, int]]:
    """The seating in the checker's file shape, players numbered 1..n in `players` order (and
    anyone else seated after them), with the generator's report and each wish's outcome."""
    order = list(dict.fromkeys([*players, *(p for plan in plans for t in plan.tables
                                            for p in t.seats), *(p for plan in plans
                                                                 for p in plan.sit_out)]))
    number = {p: n for n, p in enumerate(order, start=1)}
    renumbered = [RotationPlan(tuple(TablePlan(tuple(number[p] for p in t.seats),
                                               tuple(tuple(number[p] for p in s) for s in t.sides),
                                               number[t.first_dealer]) for t in plan.tables),
                               tuple(number[p] for p in plan.sit_out)) for plan in plans]
    wishes = [{"kind": o.wish.kind, "player": number.get(o.wish.player),
               "other": number.get(o.wish.other) if o.wish.other is not None else None,
               "table": o.wish.table, "seat": o.wish.seat, "kept": o.kept,
               "why": "" if o.kept else o.words, "earlier": o.earlier}
              for o in outcomes if o.wish.player in number
              and (o.wish.other is None or o.wish.other in number)]
    file = {"rotations": [{"tables": [_table_json(t, number) for t in plan.tables],
                           "sit_out": [number[p] for p in plan.sit_out]} for plan in plans],
            "report": json.loads(json.dumps(quality_report(renumbered, range(1, len(order) + 1)))),
            "wishes": wishes}
    return file, number


_PLAYER = re.compile(r"\b(players?) (\d+)(?: and (\d+))?")


def _named(problem: str, names: Mapping[int, str]) -> str:
    def words(match: re.Match[str]) -> str:
        first = names.get(int(match.group(2)), match.group(2))
        if match.group(3):
            return f"{first} and {names.get(int(match.group(3)), match.group(3))}"
        return first

    return _PLAYER.sub(words, problem)


def night_check(request: SeatingRequest, plans: Sequence[RotationPlan],
                names: Mapping[int, str], *, compare: bool = False) -> NightCheck:
    """Each wish kept or not (`league.seating.wish_outcomes`) and the independent checker's
    verdict on the rotations `plans`, its problems in words with the players' names."""
    outcomes = wish_outcomes(request, plans, names, compare=compare)
    file, number = checker_file(plans, request.players, outcomes)
    text = json.dumps(file)
    try:
        rotations, report = seating_from_json(text)
        check = seating_check(rotations, players=len(number), report=report,
                              wishes=wishes_from_json(text))
    except SeatingFileError as error:  # beyond the checker's limits (players, rotations)
        return NightCheck(outcomes, False, [f"The checker cannot read this seating: {error}"], file)
    by_number = {n: names.get(p, f"player {p}") for p, n in number.items()}
    return NightCheck(outcomes, check.sound, [_named(p, by_number) for p in check.problems], file)


def _wish_players(request: SeatingRequest) -> list[int]:
    return [p for w in request.wishes for p in (w.player, w.other) if p is not None]


def _names_of(ids: Sequence[int]) -> dict[int, str]:
    names = dict(Player.objects.filter(pk__in=[p for p in ids if p > 0]).values_list("pk", "name"))
    names.update({p: f"{GUEST} {-p}" for p in ids if p < 0})
    return names


def draft_seating_check(*, rotation: Rotation) -> NightCheck:
    """The wishes and the checker's verdict for a draft rotation: the rotations of the night
    since its players last changed (a late arrival or a withdrawal), up to this draft."""
    event = rotation.event
    request = rotation_seating_request(event=event, number=rotation.number)
    plans = [*request.played, selectors.rotation_as_plan(rotation=rotation)]
    start = len(plans) - 1
    mine = _people(plans[-1])
    while start > 0 and _people(plans[start - 1]) == mine:
        start -= 1
    request = replace(request, played=tuple(plans[start:-1]), points=())
    ids = sorted(mine | set(request.players) | set(_wish_players(request)))
    names = _names_of(ids)
    check = night_check(request, plans[start:], names)
    return replace(check, outcomes=_with_generator_words(rotation, check.outcomes, names))


def _with_generator_words(rotation: Rotation, outcomes: list[WishOutcome],
                          names: Mapping[int, str]) -> list[WishOutcome]:
    """The generator's words for a wish (with what gave way to keep it, `rotation_generate`)
    where the draft still keeps it as the generator said."""
    entry = (AuditEntry.objects.filter(event_id=rotation.event_id, action="rotation_generate",
                                       data__rotation_id=rotation.pk).order_by("-pk").first())
    said = entry.data.get("wishes", []) if entry is not None else []
    out = []
    for outcome in outcomes:
        prefix = wish_words(outcome.wish, names) + ":"
        words = next((s["words"] for s in said if isinstance(s, dict) and s.get("kept") == outcome.kept
                      and str(s.get("words", "")).startswith(prefix)), outcome.words)
        out.append(replace(outcome, words=words))
    return out


def _people(plan: RotationPlan) -> set[int]:
    return {p for t in plan.tables for p in t.seats} | set(plan.sit_out)


# --- who is expected ----------------------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    players: list[int]  # N, in the order the plans leave people out from the end
    maybes: list[int]  # added in this order to the larger counts
    typed: bool  # the director typed the list
    absent: list[int] = field(default_factory=list)  # entered, not checked in: at the end


def _typed_players(event: Event, text: str) -> list[int]:
    names = [n.strip() for n in re.split(r"[\n,;]+", text) if n.strip()]
    if len(names) > MAX_NAMES:
        raise refusal(Invalid, Code.PLAN_TOO_MANY_NAMES, field="names", most=MAX_NAMES)
    by_key = {name_key(p.name): p.pk for p in event.club.players.filter(retired_at__isnull=True)}
    unknown = [n for n in names if name_key(n) not in by_key]
    if unknown:
        raise refusal(Invalid, Code.PLAN_UNKNOWN_NAMES, field="names", club=event.club.name,
                      names=", ".join(unknown))
    return list(dict.fromkeys(by_key[name_key(n)] for n in names))


def expected_players(*, event: Event, names_text: str = "") -> Expected:
    """Who the plans count on: the entered players first, then the typed names or the "coming"
    answers (earliest first); the "maybe" answers, earliest first, for the larger counts."""
    if event.is_fixed_partnerships:
        raise refusal(Invalid, Code.FIXED_PARTNERSHIPS)
    entrants = [r for r in selectors.event_entrants(event=event) if r.player_id]
    answers = Attendance.objects.filter(event=event).order_by("answered_at", "pk")
    typed = bool(names_text.strip())
    coming = (_typed_players(event, names_text) if typed else
              [a.player_id for a in answers if a.answer == Attendance.Answer.YES])
    absent = _marked_absent(entrants)
    here = [r.player_id for r in entrants if r.player_id and r.player_id not in absent]
    # The no-shows last, so the plans for fewer leave them out first (even if they said yes).
    players = [p for p in dict.fromkeys([*here, *coming]) if p not in absent] + absent
    maybes = [a.player_id for a in answers if a.answer == Attendance.Answer.MAYBE
              and a.player_id not in players]
    if len(players) + 2 < 4:
        raise refusal(Invalid, Code.PLAN_FEW_PLAYERS, field="names", count=len(players))
    return Expected(players, maybes, typed, absent)


def _marked_absent(entrants: Sequence[Registration]) -> list[int]:
    """Entered players still not checked in once the room has begun checking in: the no-shows
    the fewer-player plans leave out first (before the latest to say yes)."""
    if not any(r.checked_in for r in entrants):
        return []
    return [r.player_id for r in entrants if not r.checked_in and r.player_id]


def plan_entrants(expected: Expected, offset: int) -> tuple[list[int], list[str]]:
    """The players of the plan for N + `offset` (guests as -1, -2) and, in words, who is in."""
    base = expected.players
    where = "typed" if expected.typed else "who said they are coming"
    names = _names_of([*base, *expected.maybes])
    if offset <= 0:
        kept, left = base[: len(base) + offset], base[len(base) + offset:]
        if not left:
            return kept, [f"The {len(base)} expected: everyone entered and everyone {where}."]
        absent = [p for p in left if p in expected.absent]
        others = [p for p in left if p not in expected.absent]
        notes = [f"Leaves out {', '.join(names[p] for p in absent)}: entered, not checked in."
                 ] if absent else []
        if others:
            notes.append(f"Leaves out {', '.join(names[p] for p in others)}: the "
                         f"{'last typed' if expected.typed else 'latest to say yes'}.")
        return kept, notes
    added = expected.maybes[:offset]
    guests = [-(k + 1) for k in range(offset - len(added))]
    notes = [f"Adds {', '.join(names[p] for p in added)} (said maybe)."] if added else []
    if guests:
        notes.append(f"Adds {len(guests)} guest{'s' if len(guests) != 1 else ''} not named yet.")
    return [*base, *added, *guests], notes


# --- the plans, as a job's parts ----------------------------------------------------------


def _sit_out_notes(event: Event, plans: Sequence[RotationPlan], names: Mapping[int, str],
                   outcomes: Sequence[WishOutcome]) -> list[str]:
    lines = []
    for number, plan in enumerate(plans, start=1):
        if plan.sit_out:
            lines.append(f"Rotation {number}: {', '.join(names[p] for p in plan.sit_out)} "
                         f"sit{'s' if len(plan.sit_out) == 1 else ''} out.")
    if lines:
        staying = sorted({names[o.wish.player] for o in outcomes
                          if o.wish.kind in ("no_sit_out", "fixed_seat") and o.kept
                          and o.wish.player in names})
        rule = Event.SitOutRule(event.sit_out_rule)
        why = (f"Why: the tables do not seat everyone at once; the sit-out rule is "
               f"\u201c{rule.label}\u201d. {Event.SIT_OUT_RULE_HELP[rule.value]}")
        if staying:
            why += f" {', '.join(staying)} stay{'s' if len(staying) == 1 else ''} seated (a wish)."
        lines.append(why)
    return lines or ["Nobody sits out."]


def prepared_plan_compute(*, event: Event, players: Sequence[int], offset: int,
                          notes: Sequence[str]) -> dict[str, Any]:
    """One prepared plan as JSON (a job part): the seating, its notes, wishes and verdict."""
    names = _names_of(players)
    if len(players) < 4:
        return {"offset": offset, "entrants": _entrants(players, names), "rotations": [],
                "notes": [*notes, f"{len(players)} players are too few to seat."],
                "wishes": [], "check_file": {}, "verdict": "", "sound": False}
    request = replace(rotation_seating_request(event=event, number=1), players=tuple(players),
                      played=(), points=(), rotations=event.planned_rotations)
    try:
        plans = plan_rotations(request)
    except SeatingError as error:
        return {"offset": offset, "entrants": _entrants(players, names), "rotations": [],
                "notes": [*notes, str(error)], "wishes": [], "check_file": {}, "verdict": "",
                "sound": False}
    check = night_check(request, plans, {**_names_of(_wish_players(request)), **names},
                        compare=True)
    verdict = ("The independent checker finds this seating sound." if check.sound else
               "The independent checker finds problems: " + " ".join(check.problems))
    return {"offset": offset, "entrants": _entrants(players, names),
            "rotations": [_plan_json(plan) for plan in plans],
            "notes": [*notes, *_sit_out_notes(event, plans, names, check.outcomes)],
            "wishes": [{"kept": o.kept, "words": o.words} for o in check.outcomes],
            "check_file": check.file, "verdict": verdict, "sound": check.sound}


def _entrants(players: Sequence[int], names: Mapping[int, str]) -> list[dict[str, Any]]:
    return [{"player": p if p > 0 else None, "name": names[p], "number": p} for p in players]


def _plan_json(plan: RotationPlan) -> dict[str, Any]:
    return {"tables": [{"seats": list(t.seats), "sides": [list(s) for s in t.sides],
                        "first_dealer": t.first_dealer} for t in plan.tables],
            "sit_out": list(plan.sit_out)}


def _plan_from_json(raw: dict[str, Any]) -> RotationPlan:
    return RotationPlan(tuple(TablePlan(tuple(t["seats"]), tuple(tuple(s) for s in t["sides"]),
                                        t["first_dealer"]) for t in raw["tables"]),
                        tuple(raw["sit_out"]))


@transaction.atomic
def prepared_plans_withdraw(*, event: Event) -> int:
    """Withdraw the event's prepared plans while new ones are drawn: a "use" pressed on an old
    plan meanwhile finds none (plan_use says so) instead of seating a list being replaced."""
    lock_event(event.pk)
    deleted, _ = PreparedPlan.objects.filter(event=event).delete()
    return deleted


@transaction.atomic
def prepared_plans_store(*, event: Event, plans: Sequence[dict[str, Any]]) -> list[PreparedPlan]:
    """Replace the event's prepared plans by these (the job's result)."""
    # Two jobs finishing at once would both replace the rows: the event lock orders them.
    lock_event(event.pk)
    PreparedPlan.objects.filter(event=event).delete()
    fields = ("entrants", "rotations", "notes", "wishes", "check_file", "verdict", "sound")
    return PreparedPlan.objects.bulk_create(
        PreparedPlan(event=event, offset=p["offset"], **{f: p[f] for f in fields}) for p in plans)


# --- using a plan -------------------------------------------------------------------------


@transaction.atomic
def seating_plan_use(*, plan: PreparedPlan, by: User | None = None) -> Rotation:
    """Enter (and check in) the plan's players and seat its first rotation as the draft."""
    # Two directors pressing "use" at once: the event lock makes the second see the first's
    # rotation and refuse.
    event = lock_event(plan.event_id)
    if event.status not in (Event.Status.REGISTRATION, Event.Status.RUNNING):
        raise refusal(Conflict, Code.PLAN_STATUS, status=event.get_status_display().lower())
    seated = event.rotations.order_by("number").first()
    if seated is not None:
        raise refusal(Conflict, Code.PLAN_ALREADY_SEATED, number=seated.number)
    guests = [e for e in plan.entrants if e["player"] is None]
    if guests or not plan.rotations:
        raise refusal(Conflict, Code.PLAN_HAS_GUESTS, guests=len(guests))
    wanted = [e["player"] for e in plan.entrants]
    _enter(event, wanted, by)
    return rotation_seat_plan(event=event, plan=_plan_from_json(plan.rotations[0]), by=by,
                              how=f"the prepared plan for {len(wanted)} players")


def _enter(event: Event, wanted: Sequence[int], by: User | None) -> None:
    registrations = {r.player_id: r for r in selectors.event_entrants(event=event) if r.player_id}
    extra = [r for p, r in registrations.items() if p not in set(wanted)]
    # A plan may leave out the no-shows (entered, not checked in, once others are): they are
    # withdrawn, with a History line each. Anyone else entered must be withdrawn by hand first.
    absent = set(_marked_absent(list(registrations.values())))
    kept = [r for r in extra if r.player_id not in absent]
    if kept:
        raise refusal(Conflict, Code.PLAN_LEAVES_OUT,
                      names=", ".join(sorted(str(r.player) for r in kept)))
    for no_show in extra:
        registration_withdraw(registration=no_show, by=by)
    players = Player.objects.in_bulk(list(wanted))
    for player_id in wanted:
        registration = registrations.get(player_id)
        if registration is None:
            registration = registration_add(event=event, player=players[player_id], by=by)
        if not registration.checked_in:
            registration_check_in(registration=registration, checked_in=True, by=by)

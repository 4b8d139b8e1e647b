"""Rotations: seated by the seating generator as a draft, edited by hand, started and closed."""

from collections.abc import Iterable, Sequence
from dataclasses import replace

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, Invalid
from league import selectors
from league.errors import Code, refusal
from league.models import Event, Game, Player, Rotation, Seat, SitOut, Table
from league.seating import (
    RotationPlan,
    SeatingError,
    SeatingRequest,
    TablePlan,
    plan_rotations,
    validate_rotation,
    wish_outcomes,
)
from league.services._common import lock_event, partnership_of
from league.services.audit import audit_record
from league.signals import rotation_started


def _entrants(event: Event, number: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Active players and (fixed formats) partnerships for rotation `number`."""
    registrations = selectors.active_registrations(event=event, rotation_number=number)
    if not event.is_fixed_partnerships:
        return tuple(r.player_id for r in registrations if r.player_id is not None), ()
    # A partnership's absent member is seated as their substitute (league.services.substitutes).
    playing = selectors.event_substitutions(event_id=event.pk)
    pairs = tuple((playing.get(pair.player_a_id, pair.player_a_id),
                   playing.get(pair.player_b_id, pair.player_b_id))
                  for pair in map(partnership_of, registrations))
    return tuple(p for pair in pairs for p in pair), pairs


def _seating_request(event: Event, number: int) -> SeatingRequest:
    players, partnerships = _entrants(event, number)
    played = list(event.rotations.filter(number__lt=number).order_by("number"))
    return SeatingRequest(
        format=event.format,
        players=players,
        partnerships=partnerships,
        rotations=max(event.planned_rotations, number),
        table_size=6 if event.odd_handling == Event.OddHandling.TABLE_OF_SIX or event.table_sizes == [6] else 4,
        six_sides=3 if event.is_fixed_partnerships else 2,
        odd_handling=event.odd_handling,
        seed=event.seed,
        sit_out_rule=event.sit_out_rule,
        played=tuple(selectors.rotation_as_plan(rotation=r) for r in played),
        points=tuple(selectors.rotation_points(rotation=r) for r in played),
        season=selectors.season_earlier_nights(event=event),
        wishes=selectors.seating_wishes(event=event),
    )


def rotation_seating_request(*, event: Event, number: int) -> SeatingRequest:
    """What the seating generator is asked for rotation `number` of `event`: its settings,
    active entrants, played rotations, earlier nights of the season and seating wishes."""
    return _seating_request(event, number)


def _refuse_unless_ready_for_next(event: Event, number: int) -> None:
    if event.status not in (Event.Status.REGISTRATION, Event.Status.RUNNING):
        raise refusal(Conflict, Code.BAD_EVENT_STATUS, status=event.status)
    unclosed = event.rotations.exclude(status=Rotation.Status.CLOSED).order_by("number").first()
    if unclosed:
        raise refusal(Conflict, Code.PREVIOUS_ROTATION_OPEN, unclosed_number=unclosed.number, unclosed_status=unclosed.status)
    if number > event.planned_rotations:
        raise refusal(Conflict, Code.ALL_ROTATIONS_GENERATED, planned_rotations=event.planned_rotations)


@transaction.atomic
def rotation_generate(*, event: Event, by: User | None = None) -> Rotation:
    """Seat the next rotation from the seating generator, as an editable draft."""
    # Two directors pressing "generate" at once would both create rotation N: the event row
    # lock makes the second wait and then see the first one's rotation.
    event = lock_event(event.pk)
    number = selectors.next_rotation_number(event=event)
    _refuse_unless_ready_for_next(event, number)
    request = _seating_request(event, number)
    try:
        plans = plan_rotations(request)
        if not plans:
            raise SeatingError("The seating generator planned no further rotation.")
        plan = plans[0]
        validate_rotation(plan, request.players, event.table_sizes)
    except SeatingError as exc:
        raise refusal(Invalid, Code.BAD_SEATING, reason=str(exc)) from exc
    _check_partners_together(event, plan, request.partnerships)
    rotation = Rotation.objects.create(event=event, number=number)
    _write_plan(rotation, plan)
    sitting = f" Sitting out: {_names(plan.sit_out)}." if plan.sit_out else ""
    audit_record(club=event.club, event=event, user=by, action="rotation_generate",
                 summary=f"Seated rotation {number} as a draft ({len(plan.tables)} "
                 f"table{'s' if len(plan.tables) != 1 else ''}).{sitting}",
                 data={"rotation_id": rotation.pk, **_wish_notes(request, plans)})
    return rotation


def _wish_notes(request: SeatingRequest, plans: Sequence[RotationPlan]) -> dict[str, object]:
    """What the generator says of each wish of the night it planned (kept, and which fairness
    goal gave way), kept with the draft's history line for the draft page."""
    if not request.wishes:
        return {}
    wished = [p for w in request.wishes for p in (w.player, w.other) if p is not None]
    names = dict(Player.objects.filter(pk__in=[*request.players, *wished])
                 .values_list("pk", "name"))
    outcomes = wish_outcomes(request, [*request.played, *plans], names, compare=True)
    return {"wishes": [{"kept": o.kept, "words": o.words} for o in outcomes]}


@transaction.atomic
def rotation_seat_plan(*, event: Event, plan: RotationPlan, how: str,
                       by: User | None = None) -> Rotation:
    """Seat the next rotation from a plan made beforehand (`how`: "the prepared plan for 12
    players"), as an editable draft, after the checks a generated rotation passes."""
    # The event lock orders this with a director generating or editing the same rotation.
    event = lock_event(event.pk)
    number = selectors.next_rotation_number(event=event)
    _refuse_unless_ready_for_next(event, number)
    _check_plan(event, plan, number)
    rotation = Rotation.objects.create(event=event, number=number)
    _write_plan(rotation, plan)
    audit_record(club=event.club, event=event, user=by, action="rotation_generate",
                 summary=f"Seated rotation {number} as a draft from {how}.",
                 data={"rotation_id": rotation.pk})
    return rotation


def _check_plan(event: Event, plan: RotationPlan, number: int) -> None:
    """A plan made outside the generator (prepared, or edited by hand) as rotation `number`:
    it seats every entrant once, fits the event's tables and keeps partnerships together."""
    players, pairs = _entrants(event, number)
    _check_plan_covers(plan, players)
    try:
        validate_rotation(plan, players, event.table_sizes)
    except SeatingError as exc:
        raise refusal(Invalid, Code.BAD_SEATING, reason=str(exc)) from exc
    _check_partners_together(event, plan, pairs)


def _write_plan(rotation: Rotation, plan: RotationPlan) -> None:
    """Seats, games and sit-outs of `plan`, reusing the rotation's tables (and games) by number.
    A substitute's seat names the member they play for."""
    playing_for = {s: m for m, s in selectors.event_substitutions(event_id=rotation.event_id).items()}
    for number, table_plan in enumerate(plan.tables, start=1):
        table, _ = Table.objects.get_or_create(rotation=rotation, number=number)
        side_of = {p: k for k, side in enumerate(table_plan.sides) for p in side}
        Seat.objects.bulk_create(
            Seat(rotation=rotation, table=table, player_id=p, seat_number=i, side=side_of[p],
                 substitute_for_id=playing_for.get(p))
            for i, p in enumerate(table_plan.seats)
        )
        Game.objects.update_or_create(
            table=table, defaults={"first_dealer": table_plan.seats.index(table_plan.first_dealer)}
        )
    SitOut.objects.bulk_create(SitOut(rotation=rotation, player_id=p) for p in plan.sit_out)


def _locked_draft(rotation: Rotation) -> tuple[Event, Rotation]:
    event = lock_event(rotation.event_id)
    rotation = Rotation.objects.get(pk=rotation.pk)
    if rotation.status != Rotation.Status.DRAFT:
        raise refusal(Conflict, Code.ROTATION_NOT_EDITABLE, rotation_number=rotation.number, rotation_status=rotation.status)
    return event, rotation


def _check_partners_together(event: Event, plan: RotationPlan, pairs: Sequence[tuple[int, int]]) -> None:
    if not event.is_fixed_partnerships:
        return
    wanted = {frozenset(pair) for pair in pairs}
    for number, table in enumerate(plan.tables, start=1):
        for side in table.sides:
            if frozenset(side) not in wanted:
                raise refusal(Invalid, Code.PARTNERS_APART, number=number)
    for pair in pairs:
        if (pair[0] in plan.sit_out) != (pair[1] in plan.sit_out):
            raise refusal(Invalid, Code.PARTNERS_SIT_OUT_TOGETHER)


@transaction.atomic
def rotation_update_seating(*, rotation: Rotation, plan: RotationPlan,
                            by: User | None = None) -> Rotation:
    """Replace a draft rotation's seating by a hand-edited plan, after checking it."""
    rotation = _update_seating(rotation, plan)
    event = rotation.event
    audit_record(club=event.club, event=event, user=by, action="rotation_edit",
                 summary=f"Edited the seating of rotation {rotation.number} by hand.",
                 data={"rotation_id": rotation.pk})
    return rotation


def _update_seating(rotation: Rotation, plan: RotationPlan) -> Rotation:
    # A director editing while another starts the rotation: the event lock orders them.
    event, rotation = _locked_draft(rotation)
    _check_plan(event, plan, rotation.number)
    # Tables that remain keep their game, so table cards already printed stay valid.
    Seat.objects.filter(rotation=rotation).delete()
    rotation.sit_outs.all().delete()
    rotation.tables.filter(number__gt=len(plan.tables)).delete()
    _write_plan(rotation, plan)
    return rotation


def _names(player_ids: Iterable[int]) -> str:
    return ", ".join(sorted(Player.objects.filter(pk__in=player_ids).values_list("name", flat=True)))


def _check_plan_covers(plan: RotationPlan, players: Iterable[int]) -> None:
    """Everyone active is placed and nobody else is: the refusal names the people."""
    placements = [p for t in plan.tables for p in t.seats] + list(plan.sit_out)
    twice = {p for p in placements if placements.count(p) > 1}
    if twice:
        raise refusal(Invalid, Code.SEATED_TWICE, names=_names(twice))
    placed = set(placements)
    missing, extra = set(players) - placed, placed - set(players)
    if missing:
        raise refusal(Invalid, Code.NOT_SEATED, names=_names(missing))
    if extra:
        raise refusal(Invalid, Code.NOT_ENTERED, names=_names(extra))


def _swap(ids: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    return tuple(b if p == a else a if p == b else p for p in ids)


def _swapped_plan(plan: RotationPlan, a: int, b: int) -> RotationPlan:
    tables = tuple(
        TablePlan(
            seats=_swap(t.seats, a, b),
            sides=tuple(_swap(side, a, b) for side in t.sides),
            first_dealer=_swap((t.first_dealer,), a, b)[0],
        )
        for t in plan.tables
    )
    return replace(plan, tables=tables, sit_out=_swap(plan.sit_out, a, b))


@transaction.atomic
def rotation_swap_players(*, rotation: Rotation, player_a: Player, player_b: Player,
                          by: User | None = None) -> Rotation:
    """Exchange two players' places (seat, side, or sitting out) in a draft rotation."""
    event, rotation = _locked_draft(rotation)
    if player_a.pk == player_b.pk:
        raise refusal(Invalid, Code.BAD_SWAP)
    plan = selectors.rotation_as_plan(rotation=rotation)
    placed = {p for t in plan.tables for p in t.seats} | set(plan.sit_out)
    for player in (player_a, player_b):
        if player.pk not in placed:
            raise refusal(Invalid, Code.NOT_IN_ROTATION, player=player, rotation_number=rotation.number)
    rotation = _update_seating(rotation, _swapped_plan(plan, player_a.pk, player_b.pk))
    audit_record(club=event.club, event=event, user=by, action="rotation_swap",
                 summary=f"Swapped {player_a} and {player_b} in rotation {rotation.number}.",
                 data={"rotation_id": rotation.pk, "players": [player_a.pk, player_b.pk]})
    return rotation


@transaction.atomic
def rotation_set_first_dealer(*, rotation: Rotation, table_number: int, player: Player,
                              by: User | None = None) -> Rotation:
    """Choose who deals round 1 at one table of a draft rotation."""
    event, rotation = _locked_draft(rotation)
    plan = selectors.rotation_as_plan(rotation=rotation)
    if not 1 <= table_number <= len(plan.tables):
        raise refusal(Invalid, Code.BAD_TABLE, rotation_number=rotation.number, table_number=table_number)
    table = plan.tables[table_number - 1]
    if player.pk not in table.seats:
        raise refusal(Invalid, Code.BAD_DEALER, player=player, table_number=table_number)
    tables = list(plan.tables)
    tables[table_number - 1] = replace(table, first_dealer=player.pk)
    was = table.first_dealer
    rotation = _update_seating(rotation, replace(plan, tables=tuple(tables)))
    if was != player.pk:
        audit_record(club=event.club, event=event, user=by, action="rotation_first_dealer",
                     summary=f"{player} deals first at table {table_number} of rotation "
                     f"{rotation.number} (was {_names([was])}).",
                     data={"rotation_id": rotation.pk, "table": table_number, "was": was})
    return rotation


@transaction.atomic
def rotation_delete(*, rotation: Rotation, by: User | None = None) -> None:
    """Throw away a draft rotation (e.g. to regenerate it after a late change)."""
    event, rotation = _locked_draft(rotation)
    number = rotation.number
    rotation.delete()
    audit_record(club=event.club, event=event, user=by, action="rotation_delete",
                 summary=f"Deleted the draft of rotation {number}.")


@transaction.atomic
def rotation_start(*, rotation: Rotation, by: User | None = None) -> Rotation:
    """Publish a draft rotation: its seating shows on the public page and the tables play."""
    # Two directors starting/closing at once: the event lock serialises status changes.
    event, rotation = _locked_draft(rotation)
    if event.status != Event.Status.RUNNING:
        raise refusal(Conflict, Code.EVENT_NOT_RUNNING)
    players, _pairs = _entrants(event, rotation.number)
    _check_plan_covers(selectors.rotation_as_plan(rotation=rotation), players)
    transaction.on_commit(lambda: rotation_started.send(sender=Rotation, rotation_id=rotation.pk))
    return _status_set(event, rotation, Rotation.Status.STARTED, by, action="rotation_start",
                       summary=f"Started rotation {rotation.number}: its seating is published.")


@transaction.atomic
def rotation_unstart(*, rotation: Rotation, by: User | None = None) -> Rotation:
    """Undo starting a rotation: a draft again, seats editable. The caller checks that no
    result of it was entered yet (results live in the layer above: see `games.apps`)."""
    event = lock_event(rotation.event_id)
    rotation = Rotation.objects.get(pk=rotation.pk)
    if rotation.status != Rotation.Status.STARTED:
        raise refusal(Conflict, Code.NOT_STARTED, rotation_number=rotation.number, status=rotation.get_status_display().lower())
    if event.status != Event.Status.RUNNING:
        raise refusal(Conflict, Code.EVENT_NOT_RUNNING)
    return _status_set(event, rotation, Rotation.Status.DRAFT, by, action="rotation_unstart",
                       summary=f"Rotation {rotation.number} is a draft again.")


@transaction.atomic
def rotation_close(*, rotation: Rotation, by: User | None = None) -> Rotation:
    """Close a started rotation once every table's result is confirmed."""
    # Closing while a director generates the next rotation: the lock orders the two.
    lock_event(rotation.event_id)
    rotation = Rotation.objects.get(pk=rotation.pk)
    if rotation.status != Rotation.Status.STARTED:
        raise refusal(Conflict, Code.BAD_ROTATION_STATUS, rotation_number=rotation.number, rotation_status=rotation.status)
    unfinished = list(
        Table.objects.filter(rotation=rotation)
        .exclude(game__status=Game.Status.CONFIRMED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if unfinished:
        raise refusal(Conflict, Code.RESULTS_MISSING, tables=', '.join(map(str, unfinished)))
    return _status_set(rotation.event, rotation, Rotation.Status.CLOSED, by, action="rotation_close",
                       summary=f"Closed rotation {rotation.number}.")


@transaction.atomic
def rotation_reopen(*, rotation: Rotation, by: User | None = None) -> Rotation:
    """Undo closing a rotation: it is started again, so results can still change. Only the last
    rotation seated reopens, while the event runs."""
    event = lock_event(rotation.event_id)
    rotation = Rotation.objects.get(pk=rotation.pk)
    if rotation.status != Rotation.Status.CLOSED:
        raise refusal(Conflict, Code.NOT_CLOSED, rotation_number=rotation.number)
    if event.status != Event.Status.RUNNING:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    later = event.rotations.filter(number__gt=rotation.number).order_by("number").first()
    if later is not None:
        hint = ("delete that draft first (its seating used this rotation's results)"
                if later.status == Rotation.Status.DRAFT else "only the last rotation played reopens")
        raise refusal(Conflict, Code.LATER_ROTATION, later_number=later.number, hint=hint)
    return _status_set(event, rotation, Rotation.Status.STARTED, by, action="rotation_reopen",
                       summary=f"Reopened rotation {rotation.number}.")


def _status_set(event: Event, rotation: Rotation, status: str, by: User | None, *, action: str,
                summary: str) -> Rotation:
    """Set the (locked) rotation's status and write the change's History line."""
    rotation.status = status
    # The round clock starts when the rotation first starts; a reopened rotation keeps it.
    if status == Rotation.Status.STARTED and rotation.started_at is None:
        rotation.started_at = timezone.now()
    elif status == Rotation.Status.DRAFT:
        rotation.started_at = None
    rotation.save(update_fields=["status", "started_at"])
    audit_record(club=event.club, event=event, user=by, action=action, summary=summary,
                 data={"rotation_id": rotation.pk})
    return rotation

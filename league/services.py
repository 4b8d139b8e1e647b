"""Writes of the league domain: clubs, people, events, registrations and rotations.

Every function is keyword-only, checks its input, and either does all of its work or none:
a refusal raises `LeagueError` (a code and a message to show as is) and changes nothing.
"""

import datetime
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model, QuerySet
from django.dispatch import Signal
from django.utils.text import slugify

from games.engine.errors import EngineError
from games.engine.rules import rules_from_spec
from league import selectors
from league.models import (
    Club,
    Event,
    Game,
    League,
    Membership,
    Partnership,
    Player,
    Registration,
    Rotation,
    Season,
    Seat,
    SitOut,
    Table,
)
from league.seating import (
    RotationPlan,
    SeatingError,
    SeatingRequest,
    TablePlan,
    plan_rotations,
    validate_rotation,
)

ALLOWED_TABLE_SIZES = (4, 6)
MAX_BYE_POINTS = 100_000

# Sent after an event's standings settings (scoring, tie-breaks, sit-outs) changed, on commit:
# the analytics recompute its standings. Arguments: event_id.
standings_settings_changed = Signal()
STANDINGS_FIELDS = ("scoring", "tie_breaks", "sit_out_scoring", "bye_points")


class LeagueError(Exception):
    """A refused request: `code` for machines, `message` in plain words for people."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": {"field": self.field}}


def _unique_slug(queryset: QuerySet, text: str, *, max_length: int = 80) -> str:
    base = (slugify(text) or "item")[: max_length - 4]
    slug, n = base, 2
    while queryset.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _require_name(name: str, what: str) -> str:
    name = (name or "").strip()
    if not name:
        raise LeagueError("BAD_NAME", f"The {what} needs a name.", field="name")
    return name


def _require_same_club(club: Club, *objects: Model, what: str) -> None:
    for obj in objects:
        if obj.club_id != club.pk:
            raise LeagueError("WRONG_CLUB", f"{obj} is not a {what} of {club}.")


def _apply(obj: Model, changes: dict[str, Any]) -> Model:
    for name, value in changes.items():
        setattr(obj, name, value)
    try:
        obj.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        obj.refresh_from_db()
        field, errors = next(iter(exc.message_dict.items()))
        raise LeagueError("BAD_VALUE", f"{field}: {' '.join(errors)}", field=field) from exc
    obj.save()
    return obj


# Clubs and people -------------------------------------------------------------------------------


@transaction.atomic
def club_create(*, name: str, director: User | None = None, description: str = "") -> Club:
    """A club; the user who creates it becomes its first director."""
    name = _require_name(name, "club")
    club = Club.objects.create(
        name=name, slug=_unique_slug(Club.objects.all(), name), description=description
    )
    if director is not None:
        Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    return club


def club_update(*, club: Club, name: str | None = None, description: str | None = None) -> Club:
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = _require_name(name, "club")
    if description is not None:
        changes["description"] = description
    return _apply(club, changes)


def membership_add(*, club: Club, user: User, role: str) -> Membership:
    if role not in Membership.Role.values:
        raise LeagueError("BAD_ROLE", f"Role must be one of {', '.join(Membership.Role.values)}.")
    membership, _ = Membership.objects.get_or_create(club=club, user=user, role=role)
    return membership


def player_create(*, club: Club, name: str, user: User | None = None) -> Player:
    name = _require_name(name, "player")
    return Player.objects.create(
        club=club, name=name, slug=_unique_slug(club.players.all(), name), user=user
    )


def player_update(*, player: Player, name: str | None = None, user: User | None = None) -> Player:
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = _require_name(name, "player")
    if user is not None:
        changes["user"] = user
    return _apply(player, changes)


def partnership_create(*, club: Club, player_a: Player, player_b: Player, name: str = "") -> Partnership:
    """Two players of the club as one side; stored in canonical order (lower id first)."""
    if player_a.pk == player_b.pk:
        raise LeagueError("BAD_PARTNERSHIP", "A partnership needs two different players.")
    _require_same_club(club, player_a, player_b, what="player")
    first, second = sorted((player_a, player_b), key=lambda p: p.pk)
    if Partnership.objects.filter(player_a=first, player_b=second).exists():
        raise LeagueError("DUPLICATE", f"{first} and {second} are already a partnership.")
    return Partnership.objects.create(club=club, player_a=first, player_b=second, name=name.strip())


def partnership_get_or_create(*, club: Club, player_a: Player, player_b: Player) -> Partnership:
    first, second = sorted((player_a, player_b), key=lambda p: p.pk)
    existing = Partnership.objects.filter(player_a=first, player_b=second).first()
    return existing or partnership_create(club=club, player_a=first, player_b=second)


# Leagues and seasons ----------------------------------------------------------------------------


def league_create(*, club: Club, name: str, description: str = "") -> League:
    name = _require_name(name, "league")
    return League.objects.create(
        club=club, name=name, slug=_unique_slug(club.leagues.all(), name), description=description
    )


def league_update(*, league: League, name: str | None = None, description: str | None = None) -> League:
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = _require_name(name, "league")
    if description is not None:
        changes["description"] = description
    return _apply(league, changes)


def _check_season(season: Season) -> None:
    if season.ends_on and season.ends_on < season.starts_on:
        raise LeagueError("BAD_DATES", "The season cannot end before it starts.", field="ends_on")
    if season.aggregate not in Season.Aggregate.values:
        raise LeagueError(
            "BAD_AGGREGATE", f"Aggregate must be one of {', '.join(Season.Aggregate.values)}.",
            field="aggregate",
        )
    if season.best_n_nights is not None and season.best_n_nights < 1:
        raise LeagueError("BAD_BEST_N", "Best N nights must be at least 1 (or empty for all).",
                          field="best_n_nights")


def season_create(
    *,
    league: League,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    aggregate: str = Season.Aggregate.SUM,
    best_n_nights: int | None = None,
    min_attendance: int = 0,
) -> Season:
    name = _require_name(name, "season")
    season = Season(
        league=league, name=name, slug=_unique_slug(league.seasons.all(), name),
        starts_on=starts_on, ends_on=ends_on, aggregate=aggregate,
        best_n_nights=best_n_nights, min_attendance=min_attendance,
    )
    _check_season(season)
    season.save()
    return season


SEASON_FIELDS = ("name", "starts_on", "ends_on", "aggregate", "best_n_nights", "min_attendance")


def season_update(*, season: Season, **changes: Any) -> Season:
    _refuse_unknown(changes, SEASON_FIELDS)
    if "name" in changes:
        changes["name"] = _require_name(changes["name"], "season")
    candidate = _unsaved_copy(season, changes)
    _check_season(candidate)
    return _apply(season, changes)


def _unsaved_copy(obj: Model, changes: dict[str, Any]) -> Model:
    """An unsaved copy of `obj` with `changes`, to check before touching the real one."""
    copy = type(obj)(**{f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields})
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def _refuse_unknown(changes: dict[str, Any], allowed: Iterable[str]) -> None:
    unknown = sorted(set(changes) - set(allowed))
    if unknown:
        raise LeagueError("UNKNOWN_FIELD", f"Cannot change {', '.join(unknown)}.")


def _lock_event(event_id: int) -> Event:
    return Event.objects.select_for_update().get(pk=event_id)


# Events -----------------------------------------------------------------------------------------


def _check_rules(preset: str, overrides: Any) -> None:
    if overrides is not None and not isinstance(overrides, dict):
        raise LeagueError("BAD_RULES", "House rules must be an object of parameter: value.",
                          field="rules_overrides")
    spec = {"preset": preset, "overrides": overrides} if overrides else preset
    try:
        rules_from_spec(spec)
    except EngineError as exc:
        raise LeagueError("BAD_RULES", exc.message, field="rules_overrides") from exc


def _check_table_sizes(table_sizes: Any, odd_handling: str) -> None:
    if (
        not isinstance(table_sizes, list)
        or not table_sizes
        or any(size not in ALLOWED_TABLE_SIZES for size in table_sizes)
        or len(set(table_sizes)) != len(table_sizes)
    ):
        raise LeagueError(
            "BAD_TABLE_SIZES", "Table sizes must be a list of 4 and/or 6, each once.",
            field="table_sizes",
        )
    if odd_handling == Event.OddHandling.TABLE_OF_SIX and 6 not in table_sizes:
        raise LeagueError(
            "BAD_TABLE_SIZES", "Tables of six for odd numbers need 6 among the table sizes.",
            field="table_sizes",
        )


def _check_tie_breaks(tie_breaks: Any) -> None:
    if not isinstance(tie_breaks, list) or any(t not in Event.TIE_BREAKS for t in tie_breaks):
        raise LeagueError(
            "BAD_TIE_BREAKS", f"Tie-breaks must be an ordered list from: {', '.join(Event.TIE_BREAKS)}.",
            field="tie_breaks",
        )
    if len(set(tie_breaks)) != len(tie_breaks):
        raise LeagueError("BAD_TIE_BREAKS", "Each tie-break may appear only once.", field="tie_breaks")


def _check_choice(value: str, choices: type, field: str) -> None:
    if value not in choices.values:
        raise LeagueError(
            f"BAD_{field.upper()}", f"{field.replace('_', ' ').capitalize()} must be one of "
            f"{', '.join(choices.values)}, not {value!r}.", field=field,
        )


def _check_event(event: Event) -> None:
    _check_choice(event.kind, Event.Kind, "kind")
    _check_choice(event.format, Event.Format, "format")
    _check_choice(event.odd_handling, Event.OddHandling, "odd_handling")
    _check_choice(event.scoring, Event.Scoring, "scoring")
    _check_choice(event.sit_out_scoring, Event.SitOutScoring, "sit_out_scoring")
    if not isinstance(event.bye_points, int) or not 0 <= event.bye_points <= MAX_BYE_POINTS:
        raise LeagueError("BAD_BYE_POINTS", f"Bye points must be from 0 to {MAX_BYE_POINTS:,}.",
                          field="bye_points")
    _check_rules(event.rules_preset, event.rules_overrides)
    _check_table_sizes(event.table_sizes, event.odd_handling)
    _check_tie_breaks(event.tie_breaks)
    if not isinstance(event.planned_rotations, int) or event.planned_rotations < 1:
        raise LeagueError("BAD_ROTATIONS", "Plan at least one rotation.", field="planned_rotations")
    if event.season_id and event.season.league.club_id != event.club_id:
        raise LeagueError("WRONG_CLUB", f"Season {event.season} belongs to another club.", field="season")


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    kind: str = Event.Kind.TOURNAMENT,
    season: Season | None = None,
    rules_preset: str = "classic",
    rules_overrides: dict[str, Any] | None = None,
    format: str = Event.Format.ROTATING,
    table_sizes: list[int] | None = None,
    odd_handling: str = Event.OddHandling.SIT_OUT,
    planned_rotations: int = 3,
    scoring: str = Event.Scoring.MATCH_POINTS,
    tie_breaks: list[str] | None = None,
    is_public: bool = True,
    seed: int | None = None,
    sit_out_scoring: str = Event.SitOutScoring.NONE,
    bye_points: int = 0,
) -> Event:
    """A draft event. The seed (chosen now unless given) makes its seating reproducible."""
    name = _require_name(name, "event")
    event = Event(
        club=club, name=name, date=date, kind=kind, season=season,
        rules_preset=rules_preset, rules_overrides=rules_overrides or {}, format=format,
        table_sizes=[4] if table_sizes is None else table_sizes, odd_handling=odd_handling,
        planned_rotations=planned_rotations, scoring=scoring,
        tie_breaks=["total_points"] if tie_breaks is None else tie_breaks,
        is_public=is_public, seed=secrets.randbits(31) if seed is None else seed,
        sit_out_scoring=sit_out_scoring, bye_points=bye_points,
    )
    _check_event(event)
    event.slug = _unique_slug(Event.objects.all(), f"{name} {date:%Y-%m-%d}", max_length=100)
    event.save()
    return event


EVENT_FIELDS = (
    "name", "date", "kind", "season", "rules_preset", "rules_overrides", "format", "table_sizes",
    "odd_handling", "planned_rotations", "scoring", "tie_breaks", "is_public", "seed",
    "sit_out_scoring", "bye_points",
)
# Changing these after seating exists would make played rotations disagree with the event.
SEATING_FIELDS = ("rules_preset", "rules_overrides", "format", "table_sizes", "odd_handling", "seed")


@transaction.atomic
def event_update(*, event: Event, **changes: Any) -> Event:
    """Change an event's settings; seating-related ones only until the first rotation exists."""
    _refuse_unknown(changes, EVENT_FIELDS)
    # A format change racing "generate rotation" could seat a rotation under the old format.
    event = _lock_event(event.pk)
    if event.status == Event.Status.FINISHED:
        raise LeagueError("EVENT_FINISHED", "The event is finished and can no longer change.")
    locked = sorted(
        name for name in set(changes) & set(SEATING_FIELDS) if changes[name] != getattr(event, name)
    )
    if locked and event.rotations.exists():
        raise LeagueError(
            "SEATING_EXISTS",
            f"Cannot change {', '.join(locked)} once rotations are seated.",
            field=locked[0],
        )
    if "name" in changes:
        changes["name"] = _require_name(changes["name"], "event")
    if changes.get("rules_overrides") is None and "rules_overrides" in changes:
        changes["rules_overrides"] = {}
    _check_event(_unsaved_copy(event, changes))
    standings_changed = any(changes[n] != getattr(event, n) for n in set(changes) & set(STANDINGS_FIELDS))
    event = _apply(event, changes)
    if standings_changed:
        event_id = event.pk
        transaction.on_commit(lambda: standings_settings_changed.send(sender=Event, event_id=event_id))
    return event


NEXT_STATUS = {
    Event.Status.DRAFT: Event.Status.REGISTRATION,
    Event.Status.REGISTRATION: Event.Status.RUNNING,
    Event.Status.RUNNING: Event.Status.FINISHED,
}


@transaction.atomic
def event_set_status(*, event: Event, status: str) -> Event:
    """Move an event one step along draft → registration → running → finished."""
    # Two directors pressing the same button must not both step the status forward.
    event = _lock_event(event.pk)
    _check_choice(status, Event.Status, "status")
    if NEXT_STATUS.get(event.status) != status:
        allowed = NEXT_STATUS.get(event.status)
        hint = f" The next step is {allowed}." if allowed else " It is finished."
        raise LeagueError(
            "BAD_STATUS_CHANGE",
            f"The event cannot go from {event.status} to {status}.{hint}",
            field="status",
        )
    if status == Event.Status.FINISHED:
        open_numbers = list(
            event.rotations.exclude(status=Rotation.Status.CLOSED).values_list("number", flat=True)
        )
        if open_numbers:
            raise LeagueError(
                "ROTATION_OPEN",
                "Close or delete rotation(s) " + ", ".join(map(str, open_numbers))
                + " before finishing the event.",
            )
    event.status = status
    event.save(update_fields=["status"])
    return event


# Registrations ----------------------------------------------------------------------------------


def _check_entrant(event: Event, player: Player | None, partnership: Partnership | None) -> None:
    if (player is None) == (partnership is None):
        raise LeagueError("BAD_ENTRANT", "Register either a player or a partnership.")
    if event.is_fixed_partnerships and player is not None:
        raise LeagueError(
            "NEEDS_PARTNERSHIP", "This event is for fixed partnerships: register a partnership."
        )
    if not event.is_fixed_partnerships and partnership is not None:
        raise LeagueError(
            "NEEDS_PLAYER", "This event has rotating partners: register players one by one."
        )
    _require_same_club(event.club, player or partnership, what="player or partnership")


def _players_of(registration: Registration) -> set[int]:
    if registration.player_id:
        return {registration.player_id}
    return {registration.partnership.player_a_id, registration.partnership.player_b_id}


def _refuse_double_entry(event: Event, player: Player | None, partnership: Partnership | None) -> None:
    wanted = {player.pk} if player else {partnership.player_a_id, partnership.player_b_id}
    for registration in event.registrations.select_related("partnership", "player"):
        clash = wanted & _players_of(registration)
        if clash:
            raise LeagueError("ALREADY_REGISTERED", f"Already entered in this event as {registration.player or registration.partnership}.")


@transaction.atomic
def registration_add(
    *, event: Event, player: Player | None = None, partnership: Partnership | None = None
) -> Registration:
    """Enter a player (rotating partners) or a partnership (fixed formats).

    While the event runs this is a late arrival: checked in, joining at the first rotation not
    yet started (a drafted one must then be seated again to include them).
    """
    # Two directors adding the same player at once would both pass the duplicate check.
    event = _lock_event(event.pk)
    if event.status == Event.Status.FINISHED:
        raise LeagueError("EVENT_FINISHED", "The event is finished; no more entries.")
    _check_entrant(event, player, partnership)
    _refuse_double_entry(event, player, partnership)
    late = event.status == Event.Status.RUNNING
    return Registration.objects.create(
        event=event, player=player, partnership=partnership, checked_in=late,
        joins_at_rotation=selectors.last_played_rotation_number(event=event) + 1 if late else 1,
    )


@transaction.atomic
def registration_add_entrant(*, event: Event, players: Sequence[Player | str]) -> Registration:
    """Enter existing players or new ones by name: one for rotating partners, two (a
    partnership) for fixed formats. New players are created only if the entry succeeds."""
    needed = 2 if event.is_fixed_partnerships else 1
    if len(players) != needed:
        what = "two players (a partnership)" if needed == 2 else "one player"
        raise LeagueError("BAD_ENTRANT", f"This event takes {what} per entry.")
    resolved = [
        p if isinstance(p, Player) else player_create(club=event.club, name=p) for p in players
    ]
    if needed == 1:
        return registration_add(event=event, player=resolved[0])
    pair = partnership_get_or_create(club=event.club, player_a=resolved[0], player_b=resolved[1])
    return registration_add(event=event, partnership=pair)


def _fresh_registration(registration: Registration) -> Registration:
    return Registration.objects.select_related("event", "player", "partnership").get(pk=registration.pk)


def registration_check_in(*, registration: Registration, checked_in: bool = True) -> Registration:
    registration = _fresh_registration(registration)
    if registration.event.status == Event.Status.FINISHED:
        raise LeagueError("EVENT_FINISHED", "The event is finished.")
    if registration.withdrawn_after_rotation is not None:
        raise LeagueError("WITHDRAWN", f"{selectors.entrant_name(registration)} has withdrawn.")
    registration.checked_in = checked_in
    registration.save(update_fields=["checked_in"])
    return registration


@transaction.atomic
def registration_withdraw(*, registration: Registration) -> Registration:
    """Withdraw between rotations: the entrant keeps the rotations already played, no more."""
    # A withdrawal racing "generate rotation" could leave the entrant seated after withdrawing.
    event = _lock_event(registration.event_id)
    registration = Registration.objects.select_related("partnership").get(pk=registration.pk)
    if registration.withdrawn_after_rotation is not None:
        raise LeagueError("WITHDRAWN", f"{selectors.entrant_name(registration)} has already withdrawn.")
    draft = event.rotations.filter(status=Rotation.Status.DRAFT).first()
    if draft and _players_of(registration) & _rotation_player_ids(draft):
        raise LeagueError(
            "SEATED_IN_DRAFT",
            f"{selectors.entrant_name(registration)} is seated in rotation {draft.number}: "
            "delete that rotation first, then withdraw and generate it again.",
        )
    registration.withdrawn_after_rotation = selectors.last_played_rotation_number(event=event)
    registration.save(update_fields=["withdrawn_after_rotation"])
    return registration


def registration_reinstate(*, registration: Registration) -> Registration:
    """Undo a withdrawal: the entrant plays again from the next rotation seated."""
    registration = _fresh_registration(registration)
    if registration.event.status == Event.Status.FINISHED:
        raise LeagueError("EVENT_FINISHED", "The event is finished.")
    if registration.withdrawn_after_rotation is None:
        raise LeagueError("NOT_WITHDRAWN", f"{selectors.entrant_name(registration)} has not withdrawn.")
    registration.withdrawn_after_rotation = None
    registration.save(update_fields=["withdrawn_after_rotation"])
    return registration


def _rotation_player_ids(rotation: Rotation) -> set[int]:
    seated = set(rotation.seats.values_list("player_id", flat=True))
    return seated | set(rotation.sit_outs.values_list("player_id", flat=True))


# Rotations --------------------------------------------------------------------------------------


def _entrants(event: Event, number: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Active players and (fixed formats) partnerships for rotation `number`."""
    registrations = selectors.active_registrations(event=event, rotation_number=number)
    if not event.is_fixed_partnerships:
        return tuple(r.player_id for r in registrations), ()
    pairs = tuple((r.partnership.player_a_id, r.partnership.player_b_id) for r in registrations)
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
        played=tuple(selectors.rotation_as_plan(r) for r in played),
        points=tuple(selectors.rotation_points(r) for r in played),
    )


def _refuse_unless_ready_for_next(event: Event, number: int) -> None:
    if event.status not in (Event.Status.REGISTRATION, Event.Status.RUNNING):
        raise LeagueError(
            "BAD_EVENT_STATUS",
            f"Rotations are generated while registration is open or the event runs (it is {event.status}).",
        )
    unclosed = event.rotations.exclude(status=Rotation.Status.CLOSED).order_by("number").first()
    if unclosed:
        raise LeagueError(
            "PREVIOUS_ROTATION_OPEN",
            f"Rotation {unclosed.number} is {unclosed.status}; close it before generating the next.",
        )
    if number > event.planned_rotations:
        raise LeagueError(
            "ALL_ROTATIONS_GENERATED",
            f"All {event.planned_rotations} planned rotations exist; raise the planned rotations to play more.",
        )


@transaction.atomic
def rotation_generate(*, event: Event) -> Rotation:
    """Seat the next rotation from the seating generator, as an editable draft."""
    # Two directors pressing "generate" at once would both create rotation N: the event row
    # lock makes the second wait and then see the first one's rotation.
    event = _lock_event(event.pk)
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
        raise LeagueError("BAD_SEATING", str(exc)) from exc
    _check_partners_together(event, plan, request.partnerships)
    rotation = Rotation.objects.create(event=event, number=number)
    _write_plan(rotation, plan)
    return rotation


def _write_plan(rotation: Rotation, plan: RotationPlan) -> None:
    """Seats, games and sit-outs of `plan`, reusing the rotation's tables (and games) by number."""
    for number, table_plan in enumerate(plan.tables, start=1):
        table, _ = Table.objects.get_or_create(rotation=rotation, number=number)
        side_of = {p: k for k, side in enumerate(table_plan.sides) for p in side}
        Seat.objects.bulk_create(
            Seat(rotation=rotation, table=table, player_id=p, seat_number=i, side=side_of[p])
            for i, p in enumerate(table_plan.seats)
        )
        Game.objects.update_or_create(
            table=table, defaults={"first_dealer": table_plan.seats.index(table_plan.first_dealer)}
        )
    SitOut.objects.bulk_create(SitOut(rotation=rotation, player_id=p) for p in plan.sit_out)


def _locked_draft(rotation: Rotation) -> tuple[Event, Rotation]:
    event = _lock_event(rotation.event_id)
    rotation = Rotation.objects.get(pk=rotation.pk)
    if rotation.status != Rotation.Status.DRAFT:
        raise LeagueError(
            "ROTATION_NOT_EDITABLE",
            f"Rotation {rotation.number} has {rotation.status}; only a draft rotation can change.",
        )
    return event, rotation


def _check_partners_together(event: Event, plan: RotationPlan, pairs: Sequence[tuple[int, int]]) -> None:
    if not event.is_fixed_partnerships:
        return
    wanted = {frozenset(pair) for pair in pairs}
    for number, table in enumerate(plan.tables, start=1):
        for side in table.sides:
            if frozenset(side) not in wanted:
                raise LeagueError(
                    "BAD_SEATING",
                    f"Table {number}: partners must sit together as one side in this event.",
                )
    for pair in pairs:
        if (pair[0] in plan.sit_out) != (pair[1] in plan.sit_out):
            raise LeagueError("BAD_SEATING", "Partners sit out together in this event.")


@transaction.atomic
def rotation_update_seating(*, rotation: Rotation, plan: RotationPlan) -> Rotation:
    """Replace a draft rotation's seating by a hand-edited plan, after checking it."""
    # A director editing while another starts the rotation: the event lock orders them.
    event, rotation = _locked_draft(rotation)
    players, pairs = _entrants(event, rotation.number)
    _check_plan_covers(plan, players)
    try:
        validate_rotation(plan, players, event.table_sizes)
    except SeatingError as exc:
        raise LeagueError("BAD_SEATING", str(exc)) from exc
    _check_partners_together(event, plan, pairs)
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
        raise LeagueError("BAD_SEATING", f"Placed more than once: {_names(twice)}.")
    placed = set(placements)
    missing, extra = set(players) - placed, placed - set(players)
    if missing:
        raise LeagueError(
            "BAD_SEATING",
            f"Not placed in this rotation: {_names(missing)}. Delete the draft and seat it again, "
            "or swap them in.",
        )
    if extra:
        raise LeagueError("BAD_SEATING", f"Not entered (or not checked in) for this rotation: {_names(extra)}.")


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
def rotation_swap_players(*, rotation: Rotation, player_a: Player, player_b: Player) -> Rotation:
    """Exchange two players' places (seat, side, or sitting out) in a draft rotation."""
    _event, rotation = _locked_draft(rotation)
    if player_a.pk == player_b.pk:
        raise LeagueError("BAD_SWAP", "Choose two different players to swap.")
    plan = selectors.rotation_as_plan(rotation)
    placed = {p for t in plan.tables for p in t.seats} | set(plan.sit_out)
    for player in (player_a, player_b):
        if player.pk not in placed:
            raise LeagueError("BAD_SWAP", f"{player} is not in rotation {rotation.number}.")
    return rotation_update_seating(rotation=rotation, plan=_swapped_plan(plan, player_a.pk, player_b.pk))


@transaction.atomic
def rotation_set_first_dealer(*, rotation: Rotation, table_number: int, player: Player) -> Rotation:
    """Choose who deals round 1 at one table of a draft rotation."""
    _event, rotation = _locked_draft(rotation)
    plan = selectors.rotation_as_plan(rotation)
    if not 1 <= table_number <= len(plan.tables):
        raise LeagueError("BAD_TABLE", f"Rotation {rotation.number} has no table {table_number}.")
    table = plan.tables[table_number - 1]
    if player.pk not in table.seats:
        raise LeagueError("BAD_DEALER", f"{player} does not sit at table {table_number}.")
    tables = list(plan.tables)
    tables[table_number - 1] = replace(table, first_dealer=player.pk)
    return rotation_update_seating(rotation=rotation, plan=replace(plan, tables=tuple(tables)))


@transaction.atomic
def rotation_delete(*, rotation: Rotation) -> None:
    """Throw away a draft rotation (e.g. to regenerate it after a late change)."""
    _event, rotation = _locked_draft(rotation)
    rotation.delete()


@transaction.atomic
def rotation_start(*, rotation: Rotation) -> Rotation:
    # Two directors starting/closing at once: the event lock serialises status changes.
    event, rotation = _locked_draft(rotation)
    if event.status != Event.Status.RUNNING:
        raise LeagueError("BAD_EVENT_STATUS", "Set the event to running before starting a rotation.")
    players, _pairs = _entrants(event, rotation.number)
    _check_plan_covers(selectors.rotation_as_plan(rotation), players)
    rotation.status = Rotation.Status.STARTED
    rotation.save(update_fields=["status"])
    return rotation


@transaction.atomic
def rotation_close(*, rotation: Rotation) -> Rotation:
    """Close a started rotation once every table's result is confirmed."""
    # Closing while a director generates the next rotation: the lock orders the two.
    _lock_event(rotation.event_id)
    rotation = Rotation.objects.get(pk=rotation.pk)
    if rotation.status != Rotation.Status.STARTED:
        raise LeagueError(
            "BAD_ROTATION_STATUS", f"Rotation {rotation.number} is {rotation.status}; only a started rotation closes."
        )
    unfinished = list(
        Table.objects.filter(rotation=rotation)
        .exclude(game__status=Game.Status.CONFIRMED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if unfinished:
        raise LeagueError(
            "RESULTS_MISSING",
            "No confirmed result yet at table(s) " + ", ".join(map(str, unfinished)) + ".",
        )
    rotation.status = Rotation.Status.CLOSED
    rotation.save(update_fields=["status"])
    return rotation


"""Events: their settings (checked against the engine's rule sets and the seating formats) and
their status, draft → registration → running → finished."""

import datetime
import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Choices
from django.utils import timezone

from core.errors import Conflict, Invalid
from handfoot.errors import EngineError
from handfoot.rules import rules_from_spec
from league.errors import Code, refusal
from league.models import Club, Division, Event, Rotation, Season
from league.services._common import (
    apply_changes,
    lock_event,
    refuse_unknown,
    require_name,
    unique_slug,
    unsaved_copy,
)
from league.services.audit import audit_record
from league.signals import night_started, standings_settings_changed

ALLOWED_TABLE_SIZES = (4, 6)
MAX_BYE_POINTS = 100_000
MAX_ROTATIONS = 60  # the event form offers as many
ROUND_MINUTES = (5, 240)  # a table's clock per round (Event.round_minutes; None: no clock)
# Changing these recomputes the event's standings (and its season's).
STANDINGS_FIELDS = ("scoring", "tie_breaks", "sit_out_scoring", "bye_points", "mixed_tables")


def _check_rules(preset: str, overrides: Any) -> None:
    if overrides is not None and not isinstance(overrides, dict):
        raise refusal(Invalid, Code.RULES_NOT_AN_OBJECT, field='rules_overrides')
    spec = {"preset": preset, "overrides": overrides} if overrides else preset
    try:
        rules_from_spec(spec)
    except EngineError as exc:
        raise refusal(Invalid, Code.BAD_RULES, field='rules_overrides', reason=exc.message) from exc


def _check_table_sizes(table_sizes: Any, odd_handling: str) -> None:
    if (
        not isinstance(table_sizes, list)
        or not table_sizes
        or any(size not in ALLOWED_TABLE_SIZES for size in table_sizes)
        or len(set(table_sizes)) != len(table_sizes)
    ):
        raise refusal(Invalid, Code.BAD_TABLE_SIZES, field='table_sizes')
    if odd_handling == Event.OddHandling.TABLE_OF_SIX and 6 not in table_sizes:
        raise refusal(Invalid, Code.NO_TABLES_OF_SIX, field='table_sizes')


def _check_tie_breaks(tie_breaks: Any) -> None:
    if not isinstance(tie_breaks, list) or any(t not in Event.TIE_BREAKS for t in tie_breaks):
        raise refusal(Invalid, Code.BAD_TIE_BREAKS, field='tie_breaks', choices=', '.join(Event.TIE_BREAKS))
    if len(set(tie_breaks)) != len(tie_breaks):
        raise refusal(Invalid, Code.REPEATED_TIE_BREAK, field='tie_breaks')


# Each choice field's code (BAD_<FIELD>), all with one message.
_CHOICE_CODES = {
    "kind": Code.BAD_KIND, "format": Code.BAD_FORMAT, "odd_handling": Code.BAD_ODD_HANDLING,
    "scoring": Code.BAD_SCORING, "sit_out_scoring": Code.BAD_SIT_OUT_SCORING,
    "sit_out_rule": Code.BAD_SIT_OUT_RULE, "status": Code.BAD_STATUS,
    "mixed_tables": Code.BAD_SCORING,  # how tables of 4 and 6 score: part of the scoring
}


def _check_choice(value: str, choices: type[Choices], field: str) -> None:
    if value not in choices.values:
        raise refusal(Invalid, _CHOICE_CODES[field], field=field,
                      what=field.replace("_", " ").capitalize(),
                      choices=", ".join(choices.values), value=value)


def _check_round_minutes(minutes: Any) -> None:
    low, high = ROUND_MINUTES
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int)
                                or not low <= minutes <= high):
        raise refusal(Invalid, Code.BAD_VALUE, field="round_minutes", name="Round time",
                      errors=f"give minutes from {low} to {high}, or none for no clock.")


def _check_event(event: Event) -> None:
    _check_choice(event.kind, Event.Kind, "kind")
    _check_choice(event.format, Event.Format, "format")
    _check_choice(event.odd_handling, Event.OddHandling, "odd_handling")
    _check_choice(event.scoring, Event.Scoring, "scoring")
    _check_choice(event.sit_out_scoring, Event.SitOutScoring, "sit_out_scoring")
    _check_choice(event.sit_out_rule, Event.SitOutRule, "sit_out_rule")
    _check_choice(event.mixed_tables, Event.MixedTables, "mixed_tables")
    if not isinstance(event.bye_points, int) or not 0 <= event.bye_points <= MAX_BYE_POINTS:
        raise refusal(Invalid, Code.BAD_BYE_POINTS, field='bye_points', most=MAX_BYE_POINTS)
    _check_rules(event.rules_preset, event.rules_overrides)
    _check_table_sizes(event.table_sizes, event.odd_handling)
    _check_tie_breaks(event.tie_breaks)
    if not isinstance(event.planned_rotations, int) or not 1 <= event.planned_rotations <= MAX_ROTATIONS:
        raise refusal(Invalid, Code.BAD_ROTATIONS, field='planned_rotations', most=MAX_ROTATIONS)
    _check_round_minutes(event.round_minutes)
    if event.season is not None and event.season.league.club_id != event.club_id:
        raise refusal(Invalid, Code.SEASON_OF_ANOTHER_CLUB, field='season', season=event.season)
    if event.division is not None and event.division.season_id != event.season_id:
        raise refusal(Invalid, Code.DIVISION_OF_ANOTHER_SEASON, field='division',
                      division=event.division)


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    starts_at: datetime.time | None = None,
    place: str = "",
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
    sit_out_rule: str = Event.SitOutRule.FEWEST,
    division: Division | None = None,
    mixed_tables: str = Event.MixedTables.PER_PLAYER_ROUND,
    round_minutes: int | None = None,
    wall_chime: bool = False,
    by: User | None = None,
) -> Event:
    """A draft event. The seed (chosen now unless given) makes its seating reproducible."""
    name = require_name(name, "event")
    event = Event(
        club=club, name=name, date=date, starts_at=starts_at, place=(place or "").strip(),
        kind=kind, season=season,
        rules_preset=rules_preset, rules_overrides=rules_overrides or {}, format=format,
        table_sizes=[4] if table_sizes is None else table_sizes, odd_handling=odd_handling,
        planned_rotations=planned_rotations, scoring=scoring,
        tie_breaks=["total_points"] if tie_breaks is None else tie_breaks,
        is_public=is_public, seed=secrets.randbits(31) if seed is None else seed,
        sit_out_scoring=sit_out_scoring, bye_points=bye_points, sit_out_rule=sit_out_rule,
        division=division, mixed_tables=mixed_tables, round_minutes=round_minutes,
        wall_chime=wall_chime,
    )
    _check_event(event)
    event.slug = unique_slug(Event.objects.all(), f"{name} {date:%Y-%m-%d}", max_length=100)
    event.save()
    audit_record(club=club, event=event, user=by, action="event_create",
                 summary=f"Created {event.name} as a draft.")
    return event


EVENT_FIELDS = (
    "name", "date", "starts_at", "place", "kind", "season", "rules_preset", "rules_overrides", "format", "table_sizes",
    "odd_handling", "planned_rotations", "scoring", "tie_breaks", "is_public", "seed",
    "sit_out_scoring", "bye_points", "sit_out_rule", "division", "mixed_tables",
    "round_minutes", "wall_chime",
)
# Changing these after seating exists would make played rotations disagree with the event.
SEATING_FIELDS = ("rules_preset", "rules_overrides", "format", "table_sizes", "odd_handling", "seed")


@transaction.atomic
def event_update(*, event: Event, by: User | None = None, **changes: Any) -> Event:
    """Change an event's settings; seating-related ones only until the first rotation exists.
    Logged in words (a house-rule change names each rule, before and after)."""
    refuse_unknown(changes, EVENT_FIELDS)
    # A format change racing "generate rotation" could seat a rotation under the old format.
    event = lock_event(event.pk)
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    locked = sorted(
        name for name in set(changes) & set(SEATING_FIELDS) if changes[name] != getattr(event, name)
    )
    if locked and event.rotations.exists():
        raise refusal(Conflict, Code.SEATING_EXISTS, field=locked[0], fields=', '.join(locked))
    if "name" in changes:
        changes["name"] = require_name(changes["name"], "event")
    if changes.get("rules_overrides") is None and "rules_overrides" in changes:
        changes["rules_overrides"] = {}
    _check_event(unsaved_copy(event, changes))
    standings_changed = any(
        changes[name] != getattr(event, name) for name in set(changes) & set(STANDINGS_FIELDS)
    )
    before = {name: getattr(event, name) for name in changes}
    event = apply_changes(event, changes)
    _record_update(event, before, by)
    if standings_changed:
        event_id = event.pk
        transaction.on_commit(lambda: standings_settings_changed.send(sender=Event, event_id=event_id))
    return event


# The settings form's words for each setting, for the history.
SETTING_WORDS = {
    "name": "name", "date": "date", "starts_at": "start time", "place": "place", "kind": "kind", "season": "season",
    "rules_preset": "rule preset", "format": "format", "table_sizes": "table sizes",
    "odd_handling": "odd numbers", "planned_rotations": "planned rotations",
    "scoring": "scoring", "tie_breaks": "tie-breaks", "is_public": "public page", "seed": "seating seed",
    "sit_out_scoring": "sit-out scoring", "bye_points": "bye points", "sit_out_rule": "sit-out rule",
    "division": "division", "mixed_tables": "tables of 4 and 6 in the standings",
    "round_minutes": "round time in minutes", "wall_chime": "chime on the wall",
}


def _setting_words(event: Event, name: str, value: Any) -> str:
    field = Event._meta.get_field(name)
    if name == "rules_preset":
        from league.presets import preset_name

        return preset_name(value)
    choices = getattr(field, "choices", None)
    if choices:
        return str(dict(choices).get(value, value)).lower()
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v).replace("_", " ") for v in value) or "none"
    return str(value if value not in (None, "") else "none")


def _record_update(event: Event, before: dict[str, Any], by: User | None) -> None:
    """One history line for the house rules, one for the other settings (none if nothing
    changed). Undoing a house-rule change puts the earlier rules back (`data`)."""
    from league.house_rules import rules_summary_changes

    old_rules = before.get("rules_overrides", event.rules_overrides)
    if old_rules != event.rules_overrides:
        changes = rules_summary_changes(event.rules_preset, event.rules_overrides)
        was = rules_summary_changes(event.rules_preset, old_rules)
        words = [f"{label} {base} \u2192 {now}" for label, base, now in changes]
        words += [f"{label} back to the preset's {base}" for label, base, _ in was
                  if label not in {c[0] for c in changes}]
        audit_record(club=event.club, event=event, user=by, action="house_rules",
                     summary="Changed the house rules: " + ("; ".join(words) or "none") + ".",
                     data={"before": old_rules, "after": event.rules_overrides})
    changed = [name for name in before if name != "rules_overrides"
               and before[name] != getattr(event, name)]
    if changed:
        words = [f"{SETTING_WORDS.get(n, n)} {_setting_words(event, n, before[n])} \u2192 "
                 f"{_setting_words(event, n, getattr(event, n))}" for n in changed]
        audit_record(club=event.club, event=event, user=by, action="event_settings",
                     summary="Changed the settings: " + "; ".join(words) + ".")


# What each step of the status is called at the club (the history's and the pages' words).
STATUS_WORDS: dict[str, str] = {
    Event.Status.REGISTRATION: "Opened registration.",
    Event.Status.RUNNING: "Started the event.",
    Event.Status.FINISHED: "Finished the event.",
}

NEXT_STATUS: dict[str, str] = {
    Event.Status.DRAFT: Event.Status.REGISTRATION,
    Event.Status.REGISTRATION: Event.Status.RUNNING,
    Event.Status.RUNNING: Event.Status.FINISHED,
}


@transaction.atomic
def event_set_status(*, event: Event, status: str, by: User | None = None) -> Event:
    """Move an event one step along draft → registration → running → finished."""
    # Two directors pressing the same button must not both step the status forward.
    event = lock_event(event.pk)
    _check_choice(status, Event.Status, "status")
    if NEXT_STATUS.get(event.status) != status:
        allowed = NEXT_STATUS.get(event.status)
        hint = f" The next step is {allowed}." if allowed else " It is finished."
        raise refusal(Conflict, Code.BAD_STATUS_CHANGE, field='status', event_status=event.status, status=status, hint=hint)
    if status == Event.Status.FINISHED:
        open_numbers = list(
            event.rotations.exclude(status=Rotation.Status.CLOSED).values_list("number", flat=True)
        )
        if open_numbers:
            raise refusal(Conflict, Code.ROTATION_OPEN, rotations=', '.join(map(str, open_numbers)))
    event.status = status
    event.save(update_fields=["status"])
    if status == Event.Status.RUNNING:
        event_id = event.pk
        transaction.on_commit(lambda: night_started.send(sender=Event, event_id=event_id))
    audit_record(club=event.club, event=event, user=by, action="event_status",
                 summary=STATUS_WORDS[status],
                 data={"status": status})
    return event


@transaction.atomic
def event_call_off(*, event: Event, off: bool = True, by: User | None = None) -> Event:
    """Call a night off (calendars and reminders then say so), or put it back on."""
    event = lock_event(event.pk)
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    event.cancelled_at = timezone.now() if off else None
    event.save(update_fields=["cancelled_at"])
    audit_record(club=event.club, event=event, user=by, action="event_call_off",
                 summary="Called the night off." if off else "The night is on again.")
    return event


@transaction.atomic
def event_reopen(*, event: Event, by: User | None = None) -> Event:
    """Undo finishing an event: it runs again (rotations can reopen, entries change)."""
    event = lock_event(event.pk)
    if event.status != Event.Status.FINISHED:
        raise refusal(Conflict, Code.NOT_FINISHED)
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    audit_record(club=event.club, event=event, user=by, action="event_reopen",
                 summary="Reopened the finished event.")
    return event

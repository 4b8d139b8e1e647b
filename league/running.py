"""Running the room: entering many players at once, checking everyone in, and the director's
undo (reopening a rotation or a finished event), each logged in the audit log with who and when.

Keyword-only `<entity>_<action>` functions; a refusal raises `LeagueError` and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from league import selectors, services
from league.audit import audit_record
from league.models import AuditEntry, Event, Player, Registration, Rotation
from league.players import NameMatch, player_add, player_matches
from league.services import LeagueError

MAX_PASTED_NAMES = 200


# Names typed or pasted ----------------------------------------------------------------------


@dataclass
class NameRow:
    """One typed name and what the club already has: an exact match is used as is, close
    matches are offered before a new player is created."""

    typed: str
    exact: Player | None = None
    close: list[NameMatch] = field(default_factory=list)

    @property
    def needs_choice(self) -> bool:
        return self.exact is None and bool(self.close)


def names_parse(text: str) -> list[str]:
    """Names from a pasted list: one per line (or separated by commas or semicolons); numbering
    such as "1." or "3)" and repeats are dropped."""
    names: list[str] = []
    seen: set[str] = set()
    for part in re.split(r"[\n,;]+", text or ""):
        name = re.sub(r"^\s*\d+[.)]\s*", "", part).strip()
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name[:120])
    if len(names) > MAX_PASTED_NAMES:
        raise LeagueError("TOO_MANY_NAMES", f"Paste at most {MAX_PASTED_NAMES} names at a time.")
    return names


def names_match(*, event: Event, names: Sequence[str]) -> list[NameRow]:
    rows = []
    for name in names:
        matches = player_matches(club=event.club, name=name)
        exact = next((m.player for m in matches if m.exact), None)
        rows.append(NameRow(typed=name, exact=exact, close=[] if exact else matches))
    return rows


@transaction.atomic
def registration_add_players(*, event: Event, choices: Sequence[Player | str],
                             by: User | None = None) -> list[Registration]:
    """Enter many players of a rotating-partners event at once: existing players as they are,
    new ones (names) created first. Players already entered are skipped. All or nothing."""
    if event.is_fixed_partnerships:
        raise LeagueError("NEEDS_PARTNERSHIP",
                          "This event is for fixed partnerships: enter the partnerships one by one.")
    entered = set(event.registrations.values_list("player_id", flat=True))
    created = []
    for choice in choices:
        player = choice if isinstance(choice, Player) else player_add(club=event.club, name=choice, by=by)
        if player.pk in entered:
            continue
        entered.add(player.pk)
        created.append(services.registration_add(event=event, player=player))
    if created:
        audit_record(club=event.club, event=event, user=by, action="registrations_add",
                     summary=f"Entered {len(created)} player{'s' if len(created) != 1 else ''}: "
                     + ", ".join(str(r.player) for r in created)[:250] + ".",
                     data={"registration_ids": [r.pk for r in created]})
    return created


@transaction.atomic
def registration_check_in_all(*, event: Event, by: User | None = None) -> list[int]:
    """Check in every entrant not yet checked in (withdrawn ones stay out). Returns their ids."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise LeagueError("EVENT_FINISHED", "The event is finished.")
    waiting = selectors.event_entrants(event=event).filter(checked_in=False)
    ids = list(waiting.values_list("pk", flat=True))
    if not ids:
        raise LeagueError("NOTHING_TO_DO", "Everyone entered is already checked in.")
    Registration.objects.filter(pk__in=ids).update(checked_in=True)
    audit_record(club=event.club, event=event, user=by, action="check_in_all",
                 summary=f"Checked in all {len(ids)} waiting entrant{'s' if len(ids) != 1 else ''}.",
                 data={"registration_ids": ids})
    return ids


def registration_check_in(*, registration: Registration, checked_in: bool,
                          by: User | None = None) -> Registration:
    return services.registration_check_in(registration=registration, checked_in=checked_in)


@transaction.atomic
def registration_withdraw(*, registration: Registration, by: User | None = None) -> Registration:
    registration = services.registration_withdraw(registration=registration)
    event = registration.event
    audit_record(club=event.club, event=event, user=by, action="registration_withdraw",
                 summary=f"Withdrew {selectors.entrant_name(registration)}.",
                 data={"registration_id": registration.pk})
    return registration


@transaction.atomic
def registration_reinstate(*, registration: Registration, by: User | None = None) -> Registration:
    registration = services.registration_reinstate(registration=registration)
    event = registration.event
    audit_record(club=event.club, event=event, user=by, action="registration_reinstate",
                 summary=f"{selectors.entrant_name(registration)} plays again.",
                 data={"registration_id": registration.pk})
    return registration


# Rotations and the event: forward and back ----------------------------------------------------


@transaction.atomic
def rotation_close(*, rotation: Rotation, by: User | None = None) -> Rotation:
    rotation = services.rotation_close(rotation=rotation)
    event = rotation.event
    audit_record(club=event.club, event=event, user=by, action="rotation_close",
                 summary=f"Closed rotation {rotation.number}.", data={"rotation_id": rotation.pk})
    return rotation


@transaction.atomic
def rotation_reopen(*, rotation: Rotation, by: User | None = None) -> Rotation:
    """Undo closing a rotation: it is started again, so results can still change. Only the last
    rotation played reopens, while the event runs."""
    event = Event.objects.select_for_update().get(pk=rotation.event_id)
    rotation = Rotation.objects.get(pk=rotation.pk)
    if rotation.status != Rotation.Status.CLOSED:
        raise LeagueError("NOT_CLOSED", f"Rotation {rotation.number} is not closed.")
    if event.status != Event.Status.RUNNING:
        raise LeagueError("BAD_EVENT_STATUS",
                          "The event is finished: reopen the event first, then the rotation.")
    later = event.rotations.filter(number__gt=rotation.number).order_by("number").first()
    if later is not None:
        hint = ("delete that draft first (its seating used this rotation's results)"
                if later.status == Rotation.Status.DRAFT else "only the last rotation played reopens")
        raise LeagueError("LATER_ROTATION",
                          f"Rotation {later.number} is already seated: {hint}.")
    rotation.status = Rotation.Status.STARTED
    rotation.save(update_fields=["status"])
    audit_record(club=event.club, event=event, user=by, action="rotation_reopen",
                 summary=f"Reopened rotation {rotation.number}.", data={"rotation_id": rotation.pk})
    return rotation


@transaction.atomic
def event_set_status(*, event: Event, status: str, by: User | None = None) -> Event:
    event = services.event_set_status(event=event, status=status)
    audit_record(club=event.club, event=event, user=by, action="event_status",
                 summary=f"Set the event to {event.get_status_display().lower()}.",
                 data={"status": status})
    return event


@transaction.atomic
def event_reopen(*, event: Event, by: User | None = None) -> Event:
    """Undo finishing an event: it runs again (rotations can reopen, entries change)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != Event.Status.FINISHED:
        raise LeagueError("NOT_FINISHED", "The event is not finished.")
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    audit_record(club=event.club, event=event, user=by, action="event_reopen",
                 summary="Reopened the finished event.")
    return event


# Undo from the log ----------------------------------------------------------------------------


def _undo_check_in_all(entry: AuditEntry, by: User | None) -> None:
    event = entry.event
    if event.status == Event.Status.FINISHED:
        raise LeagueError("EVENT_FINISHED", "The event is finished.")
    ids = entry.data.get("registration_ids", [])
    Registration.objects.filter(pk__in=ids, event=event).update(checked_in=False)
    audit_record(club=event.club, event=event, user=by, action="undo",
                 summary=f"Undid: {entry.summary}")


def _registration_of(entry: AuditEntry) -> Registration:
    registration = Registration.objects.filter(pk=entry.data.get("registration_id"),
                                               event=entry.event).first()
    if registration is None:
        raise LeagueError("GONE", "That entry no longer exists.")
    return registration


def _undo_finish(entry: AuditEntry, by: User | None) -> None:
    if entry.data.get("status") != Event.Status.FINISHED:
        raise LeagueError("CANNOT_UNDO", "Only finishing the event can be undone from the log.")
    event_reopen(event=entry.event, by=by)


UNDO = {
    "check_in_all": _undo_check_in_all,
    "rotation_close": lambda entry, by: rotation_reopen(
        rotation=Rotation.objects.get(pk=entry.data["rotation_id"]), by=by),
    "rotation_reopen": lambda entry, by: rotation_close(
        rotation=Rotation.objects.get(pk=entry.data["rotation_id"]), by=by),
    "event_status": lambda entry, by: _undo_finish(entry, by),
    "event_reopen": lambda entry, by: event_set_status(
        event=entry.event, status=Event.Status.FINISHED, by=by),
    "registration_withdraw": lambda entry, by: registration_reinstate(
        registration=_registration_of(entry), by=by),
    "registration_reinstate": lambda entry, by: registration_withdraw(
        registration=_registration_of(entry), by=by),
}


def audit_undoable(entry: AuditEntry) -> bool:
    if entry.action == "event_status":
        return entry.data.get("status") == Event.Status.FINISHED and entry.undone_at is None
    return entry.action in UNDO and entry.undone_at is None


@transaction.atomic
def audit_undo(*, entry: AuditEntry, by: User | None = None) -> AuditEntry:
    """Reverse one logged change (itself logged); each entry is undone at most once."""
    entry = AuditEntry.objects.select_for_update(of=("self",)).select_related("event__club").get(pk=entry.pk)
    if entry.undone_at is not None:
        raise LeagueError("ALREADY_UNDONE", "That change was already undone.")
    if entry.action not in UNDO:
        raise LeagueError("CANNOT_UNDO", "That change cannot be undone from the log.")
    try:
        UNDO[entry.action](entry, by)
    except Rotation.DoesNotExist as exc:
        raise LeagueError("GONE", "That rotation no longer exists.") from exc
    entry.undone_at = timezone.now()
    entry.save(update_fields=["undone_at"])
    return entry

"""Undo from the audit log: reopening a closed rotation or a finished event, undoing a check-in of
everyone, a withdrawal or a reinstatement. Each undo is itself logged; an entry is undone once."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, NotFound
from league import hooks
from league.models import AuditEntry, Event, Registration, Rotation
from league.services.audit import audit_record
from league.services.events import event_reopen, event_set_status
from league.services.registrations import registration_reinstate, registration_withdraw
from league.services.rotations import rotation_close, rotation_reopen


def _undo_check_in_all(entry: AuditEntry, by: User | None) -> None:
    event = entry.event
    if event.status == Event.Status.FINISHED:
        raise Conflict("EVENT_FINISHED", "The event is finished.")
    ids = entry.data.get("registration_ids", [])
    Registration.objects.filter(pk__in=ids, event=event).update(checked_in=False)
    audit_record(club=event.club, event=event, user=by, action="undo",
                 summary=f"Undid: {entry.summary}")


def _registration_of(entry: AuditEntry) -> Registration:
    registration = Registration.objects.filter(pk=entry.data.get("registration_id"),
                                               event=entry.event).first()
    if registration is None:
        raise NotFound("GONE", "That entry no longer exists.")
    return registration


def _undo_finish(entry: AuditEntry, by: User | None) -> None:
    if entry.data.get("status") != Event.Status.FINISHED:
        raise Conflict("CANNOT_UNDO", "Only finishing the event can be undone from the log.")
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


def audit_undoable(*, entry: AuditEntry) -> bool:
    """Whether the entry can be undone from the log (not yet undone, a reversible action)."""
    if entry.action == "event_status":
        return entry.data.get("status") == Event.Status.FINISHED and entry.undone_at is None
    return (_undo_of(entry) is not None and entry.undone_at is None
            and hooks.undo_applies(entry=entry))


def _undo_of(entry: AuditEntry) -> hooks.UndoAction | None:
    return UNDO.get(entry.action) or hooks.undo_action(action=entry.action)


@transaction.atomic
def audit_undo(*, entry: AuditEntry, by: User | None = None) -> AuditEntry:
    """Reverse one logged change (itself logged); each entry is undone at most once."""
    entry = AuditEntry.objects.select_for_update(of=("self",)).select_related("event__club").get(pk=entry.pk)
    if entry.undone_at is not None:
        raise Conflict("ALREADY_UNDONE", "That change was already undone.")
    undo = _undo_of(entry)
    if undo is None:
        raise Conflict("CANNOT_UNDO", "That change cannot be undone from the log.")
    try:
        undo(entry, by)
    except Rotation.DoesNotExist as exc:
        raise NotFound("GONE", "That rotation no longer exists.") from exc
    entry.undone_at = timezone.now()
    entry.save(update_fields=["undone_at"])
    return entry

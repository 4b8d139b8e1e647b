"""The audit log: every change a director makes to players or to an event's running order, with
who and when. Undoable entries carry what the undo needs in `data` (see `services.undo`)."""

from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from league.models import AuditEntry, Club, Event, Player


def audit_record(
    *,
    club: Club,
    user: User | AnonymousUser | None,
    action: str,
    summary: str,
    event: Event | None = None,
    player: Player | None = None,
    data: dict[str, Any] | None = None,
    who: str = "",
) -> AuditEntry:
    """Log one change (call it inside the change's transaction so both or neither are kept).

    `who` names an entrant without an account (a side's table link), shown where `user` is
    empty; every service that changes an event records through this one helper (or writes
    `audit_entry`'s lines, many in one go)."""
    entry = audit_entry(club=club, user=user, action=action, summary=summary, event=event,
                        player=player, data=data, who=who)
    entry.save(force_insert=True)
    return entry


def audit_entry(
    *,
    club: Club,
    user: User | AnonymousUser | None,
    action: str,
    summary: str,
    event: Event | None = None,
    player: Player | None = None,
    data: dict[str, Any] | None = None,
    who: str = "",
) -> AuditEntry:
    """The line `audit_record` keeps, unsaved: for a service that keeps a batch of them with
    one `bulk_create` (the bulk import of move logs)."""
    data = dict(data or {})
    if who:
        data["who"] = who[:120]
    return AuditEntry(
        club=club, event=event, player=player,
        user=user if user is not None and user.is_authenticated else None,
        action=action, summary=summary[:300], data=data,
    )

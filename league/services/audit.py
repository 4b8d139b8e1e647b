"""The audit log: every change a director makes to players or to an event's running order, with
who and when. Undoable entries carry what the undo needs in `data` (see `services.undo`)."""

from typing import Any, NotRequired, TypedDict, Unpack

from django.contrib.auth.models import AnonymousUser, User

from league.models import AuditEntry, Club, Event, Player


class AuditLine(TypedDict):
    """What an audit line says: the keywords of `audit_record` and `audit_entry`."""

    club: Club
    user: User | AnonymousUser | None
    action: str
    summary: str
    event: NotRequired[Event | None]
    player: NotRequired[Player | None]
    data: NotRequired[dict[str, Any] | None]
    who: NotRequired[str]


def audit_record(**line: Unpack[AuditLine]) -> AuditEntry:
    """Log one change (call it inside the change's transaction so both or neither are kept).

    `who` names an entrant without an account (a side's table link), shown where `user` is
    empty; every service that changes an event records through this one helper (or writes
    `audit_entry`'s lines, many in one go)."""
    entry = audit_entry(**line)
    entry.save(force_insert=True)
    return entry


def audit_entry(**line: Unpack[AuditLine]) -> AuditEntry:
    """The line `audit_record` keeps, unsaved: for a service that keeps a batch of them with
    one `bulk_create` (the bulk import of move logs)."""
    data = dict(line.get("data") or {})
    who = line.get("who", "")
    if who:
        data["who"] = who[:120]
    user = line["user"]
    return AuditEntry(
        club=line["club"], event=line.get("event"), player=line.get("player"),
        user=user if user is not None and user.is_authenticated else None,
        action=line["action"], summary=line["summary"][:300], data=data,
    )

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
) -> AuditEntry:
    """Log one change (call it inside the change's transaction so both or neither are kept)."""
    return AuditEntry.objects.create(
        club=club, event=event, player=player,
        user=user if user is not None and user.is_authenticated else None,
        action=action, summary=summary[:300], data=data or {},
    )

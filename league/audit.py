"""The audit log: every change a director makes to players or to an event's running order, with
who and when. Pages list it; undoable entries carry what the undo needs in `data`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

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


def audit_entries(*, club: Club | None = None, event: Event | None = None,
                  player: Player | None = None, limit: int = 50) -> QuerySet[AuditEntry]:
    """The latest log entries of a club, an event or a player, newest first."""
    entries = AuditEntry.objects.select_related("user", "event", "player")
    if club is not None:
        entries = entries.filter(club=club)
    if event is not None:
        entries = entries.filter(event=event)
    if player is not None:
        entries = entries.filter(player=player)
    return entries[:limit]

"""A table's clock: a director gives one table more minutes for the round it is playing. Kept
per table and round (`TableExtraTime`, the minutes of one round add up) and said in History."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from core.errors import Conflict, Invalid, NotFound
from games.errors import Code, refusal
from games.selectors.table_clocks import table_round_times
from league.models import AuditEntry, Event, Rotation, Table, TableExtraTime
from league.services.audit import audit_record

EXTRA_TIME_ACTION = "table_extra_time"
UNDO_ACTION = "table_extra_time_undo"
EXTRA_MINUTES = (1, 60)


def _check_minutes(minutes: object) -> int:
    low, high = EXTRA_MINUTES
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not low <= minutes <= high:
        raise refusal(Invalid, Code.EXTRA_TIME_MINUTES)
    return minutes


@transaction.atomic
def table_extra_time_grant(*, table: Table, minutes: int,
                           by: User | AnonymousUser | None) -> TableExtraTime:
    """Give the table `minutes` (1-60) more for the round it is playing now; refused for a
    rotation not being played, a finished table or a finished event."""
    minutes = _check_minutes(minutes)
    # One grant at a time per table: two directors tapping at once each add their minutes.
    table = Table.objects.select_for_update().select_related("rotation__event__club").get(pk=table.pk)
    rotation, event = table.rotation, table.rotation.event
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED, event=event.name)
    if rotation.status != Rotation.Status.STARTED or rotation.started_at is None:
        raise refusal(Conflict, Code.TABLE_NOT_PLAYING, why="is not being played",
                      table=table.number, rotation=rotation.number)
    rounds = table_round_times(table_id=table.pk)
    number = rounds.current_round if rounds is not None else None
    if number is None:
        raise refusal(Conflict, Code.TABLE_NOT_PLAYING, why="has finished its game",
                      table=table.number, rotation=rotation.number)
    grant = TableExtraTime.objects.create(table=table, round_number=number, minutes=minutes,
                                          granted_by=by if isinstance(by, User) else None)
    audit_record(club=event.club, event=event, user=by, action=EXTRA_TIME_ACTION,
                 summary=f"Gave table {table.number} (rotation {rotation.number}) {minutes} more "
                         f"minute{'s' if minutes != 1 else ''} for round {number}.",
                 data={"table_id": table.pk, "extra_time_id": grant.pk, "round_number": number})
    return grant


def _granted(entry: AuditEntry) -> TableExtraTime | None:
    return (TableExtraTime.objects.select_related("table__rotation__event__club")
            .filter(pk=entry.data.get("extra_time_id")).first())


def extra_time_undo(entry: AuditEntry, by: User | None) -> None:
    """Take back extra time given from History (`league.hooks.undo_register`), logged."""
    grant = _granted(entry)
    if grant is None:
        raise refusal(NotFound, Code.GONE, what="extra time")
    table, minutes = grant.table, grant.minutes
    grant.delete()
    audit_record(club=table.rotation.event.club, event=table.rotation.event, user=by,
                 action=UNDO_ACTION,
                 summary=f"Took back the {minutes} more minute{'s' if minutes != 1 else ''} given "
                         f"to table {table.number} (rotation {table.rotation.number}) for round "
                         f"{grant.round_number}.",
                 data={"table_id": table.pk, "undoes": entry.pk})


def extra_time_undo_applies(entry: AuditEntry) -> bool:
    """Extra time is taken back only while its rotation is being played."""
    grant = _granted(entry)
    return grant is not None and grant.table.rotation.status == Rotation.Status.STARTED

"""One table's rounds in time and its clock now (`league.pace.clock`): the table's page shows
it, and extra time is given for the round it names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Count
from django.utils import timezone

from games.selectors.round_times import tables_round_times
from league.models import Rotation, Table
from league.pace.clock import Clock, table_clock
from league.pace.rounds import TableRounds


def table_round_times(*, table_id: int, playing: bool = False) -> TableRounds | None:
    """The table in time (only while its rotation is being played, if `playing`), or None
    (a few queries)."""
    found = Table.objects.filter(pk=table_id)
    if playing:
        found = found.filter(rotation__status=Rotation.Status.STARTED)
    tables = list(found.select_related("rotation__event", "game").annotate(players=Count("seats")))
    return tables_round_times(tables=tables)[0] if tables else None


def table_clock_now(*, table_id: int, round_minutes: int | None) -> Clock | None:
    """The clock of the round the table is playing, or None (no round time, not started,
    finished)."""
    if not round_minutes:
        return None
    rounds = table_round_times(table_id=table_id, playing=True)
    if rounds is None:
        return None
    return table_clock(rounds, round_minutes=round_minutes, now=timezone.now())


def table_clock_context(*, table_id: int, round_minutes: int | None) -> dict[str, Any]:
    """What the table page's clock (`games/_table_clock.html`) shows."""
    return {"clock": table_clock_now(table_id=table_id, round_minutes=round_minutes)}


def rotations_clocks(*, rotations: Sequence[Rotation], round_minutes: int | None
                     ) -> dict[tuple[int, int], Clock]:
    """(rotation number, table number) → the clock of each table still playing in these
    rotations while they are being played (a few queries; none without a round time)."""
    playing = [r.pk for r in rotations if r.status == Rotation.Status.STARTED]
    if not round_minutes or not playing:
        return {}
    tables = (Table.objects.filter(rotation__in=playing).select_related("rotation__event", "game")
              .annotate(players=Count("seats")))
    now = timezone.now()
    clocks = {(t.rotation_number, t.table_number): table_clock(t, round_minutes=round_minutes, now=now)
              for t in tables_round_times(tables=tables)}
    return {key: clock for key, clock in clocks.items() if clock is not None}

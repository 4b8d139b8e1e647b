"""How late each table of a rotation runs, against its clock and against the room, in words
("Table 4: round 3 began 38 minutes ago; the room averages 27.").

The room's average is the mean length of every round finished tonight (all tables, all
rotations so far). The rule for a slow table, kept simple so a director can check it by eye:
a table is slow when its round is past its time (the round time plus any extra minutes), or
when its round has gone on at least half as long again as the room's average and at least
10 minutes longer than it.

Tables are ordered the latest first: by the minutes past the clock or past the room's average,
whichever is more (the minutes into the round when neither is known), then by number; finished
tables and tables not yet started come last."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from league.pace.clock import Clock, table_clock
from league.pace.rounds import TableRounds

SLOW_FACTOR = 1.5  # half as long again as the room's average ...
SLOW_MARGIN_MINUTES = 10  # ... and at least this much longer


@dataclass(frozen=True)
class TableLateness:
    table_id: int
    table_number: int
    round_number: int | None
    minutes_in_round: int | None
    room_average: int | None
    clock: Clock | None
    slow: bool
    late_by: float
    words: str


def room_average_minutes(tables: Iterable[TableRounds]) -> float | None:
    """The mean length, in minutes, of the rounds finished tonight (None before the first)."""
    # `TableRounds.durations()` needs at least one round entered.
    minutes = [d.total_seconds() / 60 for t in tables if t.ends for d in t.durations()]
    return sum(minutes) / len(minutes) if minutes else None


def _is_slow(elapsed: float, average: float | None, clock: Clock | None) -> bool:
    if clock is not None and clock.over:
        return True
    return (average is not None and elapsed >= SLOW_FACTOR * average
            and elapsed - average >= SLOW_MARGIN_MINUTES)


def _late_by(elapsed: float, average: float | None, clock: Clock | None, now: datetime) -> float:
    """Minutes past the clock or the room's average, whichever is more."""
    measures = []
    if clock is not None:
        measures.append((now - clock.deadline).total_seconds() / 60)
    if average is not None:
        measures.append(elapsed - average)
    return max(measures) if measures else elapsed


def _words(number: int, round_number: int, elapsed: int, average: int | None,
           clock: Clock | None) -> str:
    words = f"Table {number}: round {round_number} began {elapsed} minute{'s' if elapsed != 1 else ''} ago"
    if average is not None:
        words += f"; the room averages {average}"
    if clock is not None and clock.over:
        words += f"; {clock.time_words}"
    return words + "."


def table_lateness(table: TableRounds, *, average: float | None, round_minutes: int | None,
                   now: datetime) -> TableLateness:
    """One table against its clock and the room's average (minutes, unrounded)."""
    shown_average = round(average) if average is not None else None
    number = table.current_round
    began = table.round_began(number) if number is not None else None
    if number is None or began is None:
        words = f"Table {table.table_number}: {'finished' if table.finished else 'not started'}."
        return TableLateness(table.table_id, table.table_number, None, None, shown_average,
                             None, False, float("-inf"), words)
    elapsed = max((now - began).total_seconds() / 60, 0.0)
    clock = table_clock(table, round_minutes=round_minutes, now=now)
    return TableLateness(
        table.table_id, table.table_number, number, int(elapsed), shown_average, clock,
        _is_slow(elapsed, average, clock), _late_by(elapsed, average, clock, now),
        _words(table.table_number, number, int(elapsed), shown_average, clock))


def rotation_lateness(tonight: Sequence[TableRounds], *, rotation_number: int,
                      round_minutes: int | None, now: datetime) -> list[TableLateness]:
    """The rotation's tables, the latest first (see the module's rule), measured against the
    rounds finished tonight at every table."""
    average = room_average_minutes(tonight)
    rows = [table_lateness(t, average=average, round_minutes=round_minutes, now=now)
            for t in tonight if t.rotation_number == rotation_number]
    return sorted(rows, key=lambda r: (-r.late_by, r.table_number))

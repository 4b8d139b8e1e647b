"""A table's clock: the round being played against the event's round time (plus the extra
minutes a director gave that table for that round). No clock when the event has no round time,
before the rotation starts or once the table has finished."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from league.pace.rounds import TableRounds


@dataclass(frozen=True)
class Clock:
    """The current round's clock at one moment (`seconds_left` is negative once over)."""

    round_number: int
    began: datetime
    deadline: datetime
    extra_minutes: int
    seconds_left: float

    @property
    def over(self) -> bool:
        return self.seconds_left <= 0

    @property
    def minutes_left(self) -> int:
        """Whole minutes left, rounded up (30 seconds left is "1 minute left")."""
        return max(math.ceil(self.seconds_left / 60), 0)

    @property
    def minutes_over(self) -> int:
        """Whole minutes past the deadline, rounded down."""
        return max(math.floor(-self.seconds_left / 60), 0)

    @property
    def time_words(self) -> str:
        """"12 minutes left", "3 minutes over" or "time is up" (static/js/clock.js says the same)."""
        if not self.over:
            return f"{_minutes(self.minutes_left)} left"
        if self.minutes_over == 0:
            return "time is up"
        return f"{_minutes(self.minutes_over)} over"

    @property
    def words(self) -> str:
        return f"Round {self.round_number}: {self.time_words}"

    @property
    def extra_words(self) -> str:
        """What the director gave this round, in words ("" when nothing)."""
        if not self.extra_minutes:
            return ""
        return f"{self.extra_minutes} more minute{'s' if self.extra_minutes != 1 else ''} given by the director"


def _minutes(count: int) -> str:
    return f"{count} minute{'s' if count != 1 else ''}"


def table_clock(rounds: TableRounds, *, round_minutes: int | None, now: datetime) -> Clock | None:
    """The clock of the round the table is playing, or None (no round time, not started,
    finished)."""
    number = rounds.current_round
    if not round_minutes or number is None:
        return None
    began = rounds.round_began(number)
    if began is None:
        return None
    extra = rounds.extra_minutes.get(number, 0)
    deadline = began + timedelta(minutes=round_minutes + extra)
    return Clock(round_number=number, began=began, deadline=deadline, extra_minutes=extra,
                 seconds_left=(deadline - now).total_seconds())

"""A table's rounds in time: when its rotation started and when each round's first entry
arrived (a round ends when the table enters it; the next one begins then)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass(frozen=True)
class TableRounds:
    """One table of a started rotation, as far as it has played.

    `ends[k]` is when round k + 1's first entry arrived; `done_at` is when the whole game was in
    (its last round entered, a move log, or a result confirmed), None while it is being played."""

    table_id: int
    rotation_number: int
    table_number: int
    players: int
    preset: str
    rounds: int
    started_at: datetime | None
    ends: tuple[datetime, ...] = ()
    done_at: datetime | None = None
    extra_minutes: dict[int, int] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.done_at is not None

    @property
    def rounds_done(self) -> int:
        return self.rounds if self.finished else min(len(self.ends), self.rounds)

    @property
    def current_round(self) -> int | None:
        """The round being played (1-based), or None before the start or once finished."""
        if self.started_at is None or self.rounds_done >= self.rounds:
            return None
        return self.rounds_done + 1

    def round_began(self, number: int) -> datetime | None:
        """When round `number` (1-based) began: the rotation's start for the first one, the
        previous round's entry for the others."""
        if number == 1:
            return self.started_at
        return self.ends[number - 2] if len(self.ends) >= number - 1 else None

    def durations(self) -> list[timedelta]:
        """The rounds played, each as long as it took (in order)."""
        if self.started_at is None or not self.ends:
            return []
        starts = (self.started_at, *self.ends[:-1])
        return [end - start for start, end in zip(starts, self.ends, strict=True)
                if end >= start][: self.rounds]

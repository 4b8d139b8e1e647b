"""A game as a spreadsheet gives it, before anything is matched to the club: its sheet and row,
date, table and rotation, and each side's names as written, rounds, total and round detail,
with the row and column each came from (for a problem to name its cell)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SideIn:
    names: list[str]
    rounds: dict[int, int] = field(default_factory=dict)  # round → score
    total: int | None = None
    detail: dict[int, dict[str, Any]] = field(default_factory=dict)  # round → the sheet's side
    where: dict[str, tuple[int, str]] = field(default_factory=dict)  # what → (row, column)


@dataclass
class GameIn:
    sheet: str
    row: int  # the spreadsheet's row of the game's first line
    date: datetime.date
    table: int
    rotation: int | None
    sides: list[SideIn]

    @property
    def rotation_number(self) -> int:
        """The rotation: the file's, else numbered when the games are read
        (`reading.number_rotations`), so every game read has one."""
        if self.rotation is None:
            raise ValueError(f"{self.source}: the rotation was not numbered.")
        return self.rotation

    @property
    def has_detail(self) -> bool:
        return all(s.detail and set(s.detail) == set(s.rounds) for s in self.sides)

    @property
    def source(self) -> str:
        return f"sheet \u201c{self.sheet}\u201d, row {self.row}"

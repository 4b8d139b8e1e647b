"""A problem found in a spreadsheet, named by sheet, row and column, and the checks of a game
read from it that need nothing but the game itself: a date in the future, a player twice at the
table, a score that is no multiple of 5 or beyond what a side can score, a total its rounds do
not add up to."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from games.spreadsheets.records import GameIn, SideIn
from league.names import name_key

# The highest score a side can make in one round under any preset is far below this: a figure
# above it is a typing error (an extra digit), not a game.
MAX_ROUND_SCORE = 20_000


@dataclass(frozen=True)
class Problem:
    sheet: str
    row: int | None
    column: str | None  # "C (Team 1 R2)"
    message: str

    def words(self) -> str:
        where = [f"Sheet \u201c{self.sheet}\u201d"]
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"sheet": self.sheet, "row": self.row, "column": self.column,
                "message": self.message, "words": self.words()}


def _score_problem(value: int, what: str, limit: int) -> str | None:
    if value % 5:
        return f"{value:,} is not a multiple of 5 ({what})."
    if abs(value) > limit:
        return f"{value:,} is beyond what a side can score ({what}: at most {limit:,} either way)."
    return None


def game_problems(game: GameIn, *, today: datetime.date) -> list[Problem]:
    """The checks that need nothing but the game itself."""
    found: list[Problem] = []
    if game.date > today:
        found.append(Problem(game.sheet, game.row, None,
                             f"the night's date, {game.date:%-d %b %Y}, is in the future."))
    seen: set[str] = set()
    for side in game.sides:
        for what, message in _side_problems(side, seen):
            row, column = side.where.get(what, (game.row, None))
            found.append(Problem(game.sheet, row, column, message))
    if set(game.sides[0].rounds) != set(game.sides[1].rounds):
        found.append(Problem(game.sheet, game.row, None,
                             "the two sides do not have scores for the same rounds."))
    return found


def _side_problems(side: SideIn, seen: set[str]) -> list[tuple[str, str]]:
    """A side's problems as (what they are about, message): a player already `seen` at the
    table (the side's players are added to it), a score or total out of range, a total its
    rounds do not add up to, no score at all."""
    found = []
    for name in side.names:
        if name_key(name) in seen:
            found.append(("names", f"\u201c{name}\u201d is twice at this table."))
        seen.add(name_key(name))
    for number, score in sorted(side.rounds.items()):
        problem = _score_problem(score, f"round {number}", MAX_ROUND_SCORE)
        if problem:
            found.append((f"round:{number}", problem))
    total_problem = _total_problem(side)
    if total_problem:
        found.append(("total", total_problem))
    if not side.rounds and side.total is None:
        found.append(("names", "this side has no score (neither rounds nor a total)."))
    return found


def _total_problem(side: SideIn) -> str | None:
    if side.total is None:
        return None
    problem = _score_problem(side.total, "the game's total", 8 * MAX_ROUND_SCORE)
    if problem is None and side.rounds and sum(side.rounds.values()) != side.total:
        problem = (f"the total is {side.total:,} but the rounds add up to "
                   f"{sum(side.rounds.values()):,}.")
    return problem

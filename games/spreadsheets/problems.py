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

    def at(side: SideIn, what: str, message: str) -> None:
        row, column = side.where.get(what, (game.row, None))
        found.append(Problem(game.sheet, row, column, message))

    if game.date > today:
        found.append(Problem(game.sheet, game.row, None,
                             f"the night's date, {game.date:%-d %b %Y}, is in the future."))
    seen: dict[str, str] = {}
    for side in game.sides:
        for name in side.names:
            if name_key(name) in seen:
                at(side, "names", f"\u201c{name}\u201d is twice at this table.")
            seen[name_key(name)] = name
        for number, score in sorted(side.rounds.items()):
            problem = _score_problem(score, f"round {number}", MAX_ROUND_SCORE)
            if problem:
                at(side, f"round:{number}", problem)
        if side.total is not None:
            problem = _score_problem(side.total, "the game's total", 8 * MAX_ROUND_SCORE)
            if problem:
                at(side, "total", problem)
            elif side.rounds and sum(side.rounds.values()) != side.total:
                at(side, "total", f"the total is {side.total:,} but the rounds add up to "
                                  f"{sum(side.rounds.values()):,}.")
        if not side.rounds and side.total is None:
            at(side, "names", "this side has no score (neither rounds nor a total).")
    if set(game.sides[0].rounds) != set(game.sides[1].rounds):
        found.append(Problem(game.sheet, game.row, None,
                             "the two sides do not have scores for the same rounds."))
    return found

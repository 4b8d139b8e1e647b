"""The rows of a recognised sheet turned into games, one reader per layout (`READERS`):

- "game": one row per game, each side's players and scores in columns of their own;
- "side": one row per side per game, two rows making a game;
- "round": one row per round per side, with the round's detail when the sheet has it.

A row's problems are collected (`Problem`, by sheet, row and column), never raised."""

from __future__ import annotations

import datetime
import re
from typing import Any

from games.spreadsheets.cells import CellError, blank, integer, pair_names, person_name, yes_no
from games.spreadsheets.columns import Columns
from games.spreadsheets.dates import parse_date
from games.spreadsheets.limits import Sheet
from games.spreadsheets.problems import Problem
from games.spreadsheets.records import GameIn, SideIn
from handfoot.rules import ENTERED_PARTS, PARTS_BY_NAME, PartKind
from league.names import name_key

SIDES = 2

# a round's detail: the parts a scorer writes (handfoot.rules.ENTERED_PARTS)
DETAIL_FIELDS: tuple[str, ...] = tuple(part.name for part in ENTERED_PARTS)


class _Row:
    """One spreadsheet row, read by column kind; problems are collected, not raised."""

    def __init__(self, sheet: Sheet, columns: Columns, index: int, problems: list[Problem]):
        self.sheet, self.columns, self.values = sheet, columns, sheet.rows[index]
        self.number = index + 1
        self.problems = problems

    def get(self, kind: str) -> Any:
        col = self.columns.kinds.get(kind)
        return self.values[col] if col is not None and col < len(self.values) else None

    def at(self, kind: str) -> tuple[int, str]:
        return self.number, self.columns.label(kind)

    def fail(self, kind: str | None, message: str) -> None:
        column = self.columns.label(kind) if kind in self.columns.kinds else None
        self.problems.append(Problem(self.sheet.name, self.number, column, message))

    def read(self, kind: str, parse: Any, *, required: bool = False) -> Any:
        value = self.get(kind)
        if blank(value):
            if required:
                self.fail(kind, "is empty.")
            return None
        try:
            return parse(value)
        except CellError as err:
            self.fail(kind, str(err))
            return None

    @property
    def empty(self) -> bool:
        return all(blank(v) for v in self.values)


def _names(row: _Row, prefix: str) -> list[str] | None:
    if f"{prefix}team" in row.columns.kinds:
        return row.read(f"{prefix}team", pair_names, required=True)
    names = [row.read(f"{prefix}player:{p}", person_name, required=True) for p in (1, 2)]
    return None if None in names else names


def _side(row: _Row, prefix: str) -> SideIn | None:
    names = _names(row, prefix)
    side = SideIn(names or [])
    side.where["names"] = row.at(f"{prefix}team" if f"{prefix}team" in row.columns.kinds
                                 else f"{prefix}player:1")
    for kind in row.columns.kinds:
        m = re.fullmatch(re.escape(prefix) + r"round:(\d)", kind)
        if m:
            score = row.read(kind, integer)
            if score is not None:
                side.rounds[int(m[1])] = score
                side.where[f"round:{m[1]}"] = row.at(kind)
    for kind in (f"{prefix}total", f"{prefix}score") if prefix == "" else (f"{prefix}total",):
        if kind in row.columns.kinds:
            side.total = row.read(kind, integer)
            side.where["total"] = row.at(kind)
            break
    return side if names else None


def _when(row: _Row, sheet_date: datetime.date | None, day_first: bool | None
          ) -> tuple[datetime.date | None, int | None, int | None]:
    date = (row.read("date", lambda v: parse_date(v, day_first=day_first), required=True)
            if "date" in row.columns.kinds else sheet_date)
    table = row.read("table", integer, required=True)
    rotation = row.read("rotation", integer)
    return date, table, rotation


def _game_rows(sheet: Sheet, columns: Columns, problems: list[Problem], sheet_date: Any,
               day_first: bool | None) -> list[GameIn]:
    games = []
    for index in range(columns.header_row + 1, len(sheet.rows)):
        row = _Row(sheet, columns, index, problems)
        if row.empty:
            continue
        date, table, rotation = _when(row, sheet_date, day_first)
        found = [_side(row, f"s{s}:") for s in (1, 2)]
        sides = [side for side in found if side is not None]
        if date and table is not None and len(sides) == len(found):
            games.append(GameIn(sheet.name, row.number, date, table, rotation, sides))
    return games


def _side_rows(sheet: Sheet, columns: Columns, problems: list[Problem], sheet_date: Any,
               day_first: bool | None) -> list[GameIn]:
    games: list[GameIn] = []
    pending: list[tuple[_Row, tuple, SideIn | None]] = []
    for index in range(columns.header_row + 1, len(sheet.rows)):
        row = _Row(sheet, columns, index, problems)
        if row.empty:
            continue
        pending.append((row, _when(row, sheet_date, day_first), _side(row, "")))
        if len(pending) < SIDES:
            continue
        (first, key, a), (second, key_b, b) = pending
        pending = []
        if key != key_b:
            second.fail("table" if key[1] != key_b[1] else "date",
                        f"a game is two rows, one per side, with the same date and table; this "
                        f"row does not match row {first.number} above it.")
        elif a and b and key[0] and key[1] is not None:
            games.append(GameIn(sheet.name, first.number, key[0], key[1], key[2], [a, b]))
    if pending:
        pending[0][0].fail(None, "this side's game has no second row (one row per side).")
    return games


def _round_detail(row: _Row) -> dict[str, Any] | None:
    kinds = [k for k in DETAIL_FIELDS if k in row.columns.kinds]
    if not kinds:
        return None
    figures: dict[str, Any] = {part.name: part.default for part in ENTERED_PARTS}
    for kind in kinds:
        value = row.read(kind, yes_no if PARTS_BY_NAME[kind].kind == PartKind.YES_NO else integer)
        if value is not None:
            figures[kind] = value
    return figures


def _round_rows(sheet: Sheet, columns: Columns, problems: list[Problem], sheet_date: Any,
                day_first: bool | None) -> list[GameIn]:
    games = _RoundGames()
    for index in range(columns.header_row + 1, len(sheet.rows)):
        row = _Row(sheet, columns, index, problems)
        if not row.empty:
            _round_row(row, games, sheet_date, day_first)
    for game in games.games:
        if len(game.sides) != SIDES:
            problems.append(Problem(sheet.name, game.row, None,
                                    "this game has rows for only one side; each round needs a "
                                    "row for each of the two sides."))
    return [g for g in games.games if len(g.sides) == SIDES]


def _round_row(row: _Row, games: _RoundGames, sheet_date: Any, day_first: bool | None) -> None:
    """One round of one side: its score (and detail) on its side of its game."""
    date, table, rotation = _when(row, sheet_date, day_first)
    names = _names(row, "")
    number = row.read("round", integer, required=True)
    score_kind = "score" if "score" in row.columns.kinds else "total"
    score = row.read(score_kind, integer, required=True)
    if not (date and table is not None and names and number is not None and score is not None):
        return
    side = games.side(row, date, table, rotation, names)
    if number in side.rounds:
        row.fail("round", f"round {number} of this side is already on row "
                          f"{side.where[f'round:{number}'][0]}.")
    side.rounds[number] = score
    side.where[f"round:{number}"] = row.at(score_kind)
    detail = _round_detail(row)
    if detail is not None:
        side.detail[number] = detail


class _RoundGames:
    """The games of a sheet with one row per round per side, as its rows come."""

    def __init__(self) -> None:
        self.games: list[GameIn] = []
        self.latest: dict[tuple, GameIn] = {}  # (date, table, rotation) → its latest game

    def side(self, row: _Row, date: datetime.date, table: int, rotation: int | None,
             names: list[str]) -> SideIn:
        """The side these players are in the latest game of the date, table and rotation;
        a new side of it while it has room, else of a new game."""
        team = frozenset(name_key(n) for n in names)
        game = self.latest.get((date, table, rotation))
        side = next((s for s in game.sides if frozenset(map(name_key, s.names)) == team),
                    None) if game else None
        if side is not None:
            return side
        if game is None or len(game.sides) == SIDES:
            game = GameIn(row.sheet.name, row.number, date, table, rotation, [])
            self.games.append(game)
            self.latest[(date, table, rotation)] = game
        side = SideIn(names)
        side.where["names"] = row.at("team" if "team" in row.columns.kinds else "player:1")
        game.sides.append(side)
        return side


READERS = {"game": _game_rows, "side": _side_rows, "round": _round_rows}

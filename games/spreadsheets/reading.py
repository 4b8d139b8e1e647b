"""A workbook's sheets read into games (`sheets_games`): each sheet recognised, the club's date
order settled from the whole file, a sheet's date taken from its name or a title cell when it
has no date column, its rows read by its layout, a table's games numbered into rotations, and
every problem found on the way, by sheet, row and column."""

from __future__ import annotations

import datetime

from games.spreadsheets.cells import CellError, blank
from games.spreadsheets.columns import Columns, recognise
from games.spreadsheets.dates import date_order_hint, parse_date
from games.spreadsheets.headers import column_letter
from games.spreadsheets.layouts import READERS
from games.spreadsheets.limits import Sheet
from games.spreadsheets.problems import Problem, game_problems
from games.spreadsheets.records import GameIn


def _sheet_date(sheet: Sheet, day_first: bool | None, header_row: int,
                year: int | None, today: datetime.date) -> datetime.date | None:
    """The night's date from the sheet's name ("13 Oct 2026", or "Oct 13" with the season's
    `year`; without one, the last such day up to `today`), else from a title cell above the
    headers ("League night, Oct 13")."""
    titles = [sheet.name] + [str(v) for row in sheet.rows[:header_row] for v in row
                             if not blank(v)][:20]
    for title in titles:
        try:
            found = parse_date(title, day_first=day_first, year=year or today.year)
        except CellError:
            continue
        if year is None and found > today and str(today.year) not in title:
            found = found.replace(year=found.year - 1)  # "Dec 29" read in January
        return found
    return None


def _missing(columns: Columns) -> list[str]:
    kinds = columns.kinds
    prefixes = ["s1:", "s2:"] if columns.layout == "game" else [""]
    missing = ["Table"] if "table" not in kinds else []
    for prefix in prefixes:
        who = f"side {prefix[1]}'s " if prefix else "the side's "
        if f"{prefix}team" not in kinds and not {f"{prefix}player:1", f"{prefix}player:2"} <= set(kinds):
            missing.append(f"{who}players (Team, or Player 1 and Player 2)")
        scores = [k for k in kinds if k.startswith(f"{prefix}round:") or k in (
            f"{prefix}total", f"{prefix}score")]
        if not scores:
            missing.append(f"{who}scores (R1, R2 … or Total)")
    if columns.layout == "round" and not {"score", "total"} & set(kinds):
        missing.append("the round's Score")
    return missing


def sheets_games(sheets: list[Sheet], *, mapping: dict[str, str] | None = None,
                 day_first: bool | None = None, today: datetime.date,
                 year: int | None = None) -> tuple[list[GameIn], list[Problem]]:
    """Every game of the workbook and every problem found in it (nothing is matched to the
    club here: names stay as written). `year`: the season's, for a sheet dated without one
    ("Oct 13")."""
    problems: list[Problem] = []
    games: list[GameIn] = []
    recognised = [(sheet, recognise(sheet, mapping)) for sheet in sheets]
    day_first = _file_day_first(recognised, day_first)
    for sheet, columns in recognised:
        if columns is None:
            problems += _headerless_problems(sheet)
            continue
        games += _sheet_games(sheet, columns, problems, day_first=day_first, year=year,
                              today=today)
    number_rotations(games)
    for game in games:
        problems += game_problems(game, today=today)
    return games, problems


def _file_day_first(recognised: list[tuple[Sheet, Columns | None]],
                    day_first: bool | None) -> bool | None:
    """The club's date order as the file settles it (a date such as 25/3/2026 in a sheet's
    name or a date column), else `day_first` as given."""
    hint = date_order_hint(
        [sheet.name for sheet, _ in recognised]
        + [row[c.kinds["date"]] for sheet, c in recognised if c and "date" in c.kinds
           for row in sheet.rows[c.header_row + 1:] if c.kinds["date"] < len(row)])
    return hint if hint is not None else day_first


def _headerless_problems(sheet: Sheet) -> list[Problem]:
    """A sheet with no header row is left alone; said only when it holds anything."""
    if any(not blank(v) for row in sheet.rows for v in row):
        return [Problem(sheet.name, None, None, "no row of this sheet has the usual headers "
                        "(Date, Table, Team, R1 … Total).")]
    return []


def _sheet_games(sheet: Sheet, columns: Columns, problems: list[Problem], *,
                 day_first: bool | None, year: int | None,
                 today: datetime.date) -> list[GameIn]:
    """A recognised sheet's games, read by its layout, its problems added to `problems`; none
    when a column a game needs is missing."""
    for col, header in columns.unknown:
        problems.append(Problem(sheet.name, columns.header_row + 1,
                                f"{column_letter(col)} ({header})",
                                "this header is not one the import knows (or it repeats "
                                "another): say what it holds on the import page."))
    sheet_date = (None if "date" in columns.kinds
                  else _sheet_date(sheet, day_first, columns.header_row, year, today))
    missing = _missing(columns)
    if "date" not in columns.kinds and sheet_date is None:
        missing.insert(0, "Date (a column, or the date as the sheet's name)")
    if missing:
        problems.append(Problem(sheet.name, columns.header_row + 1, None,
                                "no column for " + "; ".join(missing) + "."))
        return []
    return READERS[columns.layout](sheet, columns, problems, sheet_date, day_first)


def number_rotations(games: list[GameIn]) -> None:
    """A table seen again on the same night without a rotation column is its next rotation."""
    seen: dict[tuple, int] = {}
    for game in games:
        if game.rotation is None:
            seen[(game.date, game.table)] = seen.get((game.date, game.table), 0) + 1
            game.rotation = seen[(game.date, game.table)]

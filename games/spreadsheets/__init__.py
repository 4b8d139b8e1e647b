"""Past results in the spreadsheets clubs keep: read (CSV, XLSX, ODS), headers recognised,
rows turned into games, and every problem named by sheet, row and column. Pure Python (no
Django): `games.services.imports` matches the names to the club's players, has the engine check
any detail and stores the games.

Layouts recognised (headers in any order and case):

- one row per game: date, table, each side's players (``Team 1`` as "A & B", or ``Team 1
  Player 1`` and ``Team 1 Player 2``), each side's rounds (``Team 1 R1`` …) and/or total;
- one row per side per game: date, table, ``Team`` (or ``Player 1``, ``Player 2``), rounds
  (``R1``/``Round 1``/``Hand 1``) and/or ``Total``/``Score``; two rows make a game;
- one row per round per side: date, table, ``Team``, ``Round``, ``Score`` and optionally the
  round's detail (clean, dirty and wild books, red 3s, went out, points on the table, held);
- any of them on one sheet per night, the date then taken from the sheet's name.

A column ``Rotation`` (or ``Game``) tells a table's successive games apart; without it, a table
seen again on the same night is its next rotation.

One module per step, each building only on those above it:

- reading a file within its `Limits` (`limits`): `read_workbook` and `stated_sizes_check`
  (`workbooks`) hand a file to its format's reader, `csv_files`, `xlsx` or `ods` (the zipped
  two refuse XML entities in `zipped`);
- what a header means (`headers`), a cell's value (`cells`, `dates`);
- recognising a sheet's columns and layout (`columns`);
- rows into games (`records`, `layouts`), the problems of a game (`problems`);
- the whole workbook into games and problems (`reading.sheets_games`).

Everything callers use is importable from `games.spreadsheets`.
"""

from games.spreadsheets.cells import (
    PLAYERS_PER_SIDE,
    CellError,
    blank,
    integer,
    pair_names,
    person_name,
    yes_no,
)
from games.spreadsheets.columns import Columns, file_headers, recognise, unknown_headers
from games.spreadsheets.dates import MONTHS, date_order_hint, parse_date
from games.spreadsheets.headers import (
    KIND_WORDS,
    column_letter,
    header_kind,
    headers_signature,
    normalised,
)
from games.spreadsheets.layouts import DETAIL_FIELDS, READERS, SIDES
from games.spreadsheets.limits import (
    IMPORT,
    MAX_ROWS,
    PREVIEW,
    Limits,
    Sheet,
    TooLarge,
    Unreadable,
)
from games.spreadsheets.problems import MAX_ROUND_SCORE, Problem, game_problems
from games.spreadsheets.reading import sheets_games
from games.spreadsheets.records import GameIn, SideIn
from games.spreadsheets.workbooks import read_workbook, stated_sizes_check

__all__ = [
    "DETAIL_FIELDS",
    "IMPORT",
    "KIND_WORDS",
    "MAX_ROUND_SCORE",
    "MAX_ROWS",
    "MONTHS",
    "PLAYERS_PER_SIDE",
    "PREVIEW",
    "READERS",
    "SIDES",
    "CellError",
    "Columns",
    "GameIn",
    "Limits",
    "Problem",
    "Sheet",
    "SideIn",
    "TooLarge",
    "Unreadable",
    "blank",
    "column_letter",
    "date_order_hint",
    "file_headers",
    "game_problems",
    "header_kind",
    "headers_signature",
    "integer",
    "normalised",
    "pair_names",
    "parse_date",
    "person_name",
    "read_workbook",
    "recognise",
    "sheets_games",
    "stated_sizes_check",
    "unknown_headers",
    "yes_no",
]

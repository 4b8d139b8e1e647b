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
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from league.names import name_key

MAX_ROWS = 20_000
# The highest score a side can make in one round under any preset is far below this: a figure
# above it is a typing error (an extra digit), not a game.
MAX_ROUND_SCORE = 20_000
SIDES = 2
PLAYERS_PER_SIDE = 2

DETAIL_FIELDS = ("clean_books", "dirty_books", "wild_books", "red_threes", "table_points",
                 "held_points", "went_out")

# Canonical column kinds and how the director's form names them.
KIND_WORDS: dict[str, str] = {
    "date": "Date of the night",
    "table": "Table number",
    "rotation": "Rotation (game number of the night)",
    "round": "Round number",
    "team": "The side's two players (\u201cA & B\u201d)",
    "player:1": "The side's first player",
    "player:2": "The side's second player",
    "score": "The round's score (or the side's total)",
    "total": "The side's game total",
    **{f"round:{n}": f"Round {n} score" for n in range(1, 9)},
    **{f"s{s}:team": f"Side {s}'s two players" for s in (1, 2)},
    **{f"s{s}:player:{p}": f"Side {s}, player {p}" for s in (1, 2) for p in (1, 2)},
    **{f"s{s}:total": f"Side {s}'s game total" for s in (1, 2)},
    **{f"s{s}:round:{n}": f"Side {s}, round {n} score" for s in (1, 2) for n in range(1, 9)},
    "clean_books": "Clean books",
    "dirty_books": "Dirty books",
    "wild_books": "Wild books",
    "red_threes": "Red 3s",
    "table_points": "Points on the table",
    "held_points": "Points held (penalty)",
    "went_out": "Went out",
    "ignore": "Not a result (leave it out)",
}

# A side as clubs number it: "Team 1", "Pair 2", "Side A", "T1" (A and B are sides 1 and 2).
_SIDE = r"(?:team|side|pair|partnership|partners|t)\s*([12ab])"
_ROUND = r"(?:r|rd|rnd|round|hand|deal|game)\s*(\d)"
# Side 1's and side 2's scores without a side word: "Score 1", "Us" and "Them".
_SIDE_SCORE = r"(?:score|total|points|pts|result)\s*([12])"
_US_THEM = {"us": "s1:total", "them": "s2:total", "we": "s1:total", "they": "s2:total"}
_PLAIN: list[tuple[str, str]] = [
    (r"date|night|day|played|played on|date played", "date"),
    (r"table|table no|table number|tbl|t", "table"),
    (r"rotation|rot|game|game no|match|set|rotation no", "rotation"),
    (r"round|hand|deal|rnd|rd|round no|round number", "round"),
    (r"team|side|pair|partnership|partners|players|names", "team"),
    (r"(?:player|partner|name)\s*(?:1|a)|first player", "player:1"),
    (r"(?:player|partner|name)\s*(?:2|b)|second player", "player:2"),
    (r"score|points|pts|result", "score"),
    (r"total|game total|total score|totals|final", "total"),
    (r"clean|clean books|naturals|natural books|red books", "clean_books"),
    (r"dirty|dirty books|black books|mixed books", "dirty_books"),
    (r"wild|wild books|wilds", "wild_books"),
    (r"red 3s|red threes|red 3|red3s|red3|reds", "red_threes"),
    (r"table points|points on table|points on the table|card points|laid|meld points|cards",
     "table_points"),
    (r"held|held points|penalty|in hand|left in hand|points held", "held_points"),
    (r"went out|out|going out|wentout", "went_out"),
]


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", str(text).casefold().replace("3's", "3s")).split())


def header_kind(header: str) -> str | None:
    """The kind of column a header names ("R2" → "round:2", "Team 1 Total" → "s1:total"),
    or None when it is not one of the usual names."""
    text = _norm(header)
    m = re.fullmatch(_ROUND, text)
    if m:
        return f"round:{m[1]}"
    m = re.fullmatch(_SIDE_SCORE, text)
    if m:
        return f"s{m[1]}:total"
    if text in _US_THEM:
        return _US_THEM[text]
    side_rest = _side_and_rest(text)
    if side_rest:
        side, rest = side_rest
        inner = header_kind(rest) if rest else "team"
        if side in ("1", "2") and inner is not None and (
                inner in ("team", "player:1", "player:2", "total", "score")
                or inner.startswith("round:")):
            return f"s{side}:{'total' if inner == 'score' else inner}"
        return None
    for pattern, kind in _PLAIN:
        if re.fullmatch(pattern, text):
            return kind
    return None


def _side_and_rest(text: str) -> tuple[str, str] | None:
    """("1", "r2") for "team 1 r2" or "r2 team 1"."""
    number = {"a": "1", "b": "2"}
    m = re.fullmatch(_SIDE + r"(?:\s+(.*))?", text)
    if m:
        return number.get(m[1], m[1]), m[2] or ""
    m = re.fullmatch(r"(.+?)\s+" + _SIDE, text)
    return (number.get(m[2], m[2]), m[1]) if m else None


def headers_signature(headers: Iterable[str]) -> str:
    """The set of a file's headers, as the key a director's mapping is remembered by."""
    return "|".join(sorted({_norm(h) for h in headers if _norm(h)}))


# --- reading files ---------------------------------------------------------------------------


@dataclass
class Sheet:
    name: str
    rows: list[list[Any]]  # rows[0] is the spreadsheet's row 1


class Unreadable(ValueError):
    pass


class TooLarge(Unreadable):
    """The file is larger than the reading allows (said in words: what it has, what is read)."""


@dataclass(frozen=True)
class Limits:
    """What one reading of a file may take, checked before the reading where the file says its
    size (a CSV's bytes, an XLSX's sheet dimensions and shared strings, an ODS's content), and
    while reading where it does not."""

    rows: int  # of one sheet
    columns: int
    cells: int  # rows x columns over the whole file
    cell_chars: int  # of one cell (a CSV field)
    text_bytes: int  # an XLSX's shared strings, an ODS's content, uncompressed
    name: str = "an import"  # what reads it, in words: "a preview"


# The preview, in the web request: a club's file of some hundreds of nights fits many times.
PREVIEW = Limits(rows=5_000, columns=60, cells=200_000, cell_chars=1_000,
                 text_bytes=256_000, name="a preview")
# The import itself, in the worker (jobs) or on the command line.
IMPORT = Limits(rows=MAX_ROWS, columns=200, cells=2_000_000, cell_chars=10_000,
                text_bytes=20_000_000, name="an import")


def _too_large(what: str, has: int, most: int, limits: Limits, unit: str,
               *, more: bool = False, unit_again: bool = False) -> TooLarge:
    """'The sheet “Oct” has 2,000 columns; a preview reads at most 60.' (`more`: counted until
    past the limit, "or more"; `unit_again`: the limit with its unit, "256 KB")."""
    most_words = f"{most:,}{unit if unit_again else ''}"
    return TooLarge(f"{what} has {has:,}{unit}{' or more' if more else ''}; {limits.name} reads "
                    f"at most {most_words}. Remove the rows and columns that are not results, "
                    "or split the file.")


def read_workbook(data: bytes, file_name: str, limits: Limits = IMPORT) -> list[Sheet]:
    """The sheets of a CSV, XLSX or ODS file (told apart by content, then by name), read within
    `limits` (`TooLarge` in words, before reading where the file says its size)."""
    lower = file_name.lower()
    if data[:2] == b"PK":
        if lower.endswith(".ods") or b"opendocument" in data[:200]:
            return _read_ods(data, limits)
        return _read_xlsx(data, limits)
    if lower.endswith((".xlsx", ".ods", ".xls")):
        raise Unreadable("The file is not a spreadsheet this site reads (CSV, XLSX or ODS).")
    return [_read_csv(data, file_name, limits)]


def stated_sizes_check(data: bytes, file_name: str, limits: Limits = IMPORT) -> None:
    """`TooLarge` in words when a workbook states sizes over `limits` (an XLSX's sheet
    dimensions and shared strings, an ODS's content), from the zip's directory and the sheets'
    first bytes: no cell is read. A CSV states none (it is bounded while it is read)."""
    if data[:2] != b"PK":
        return
    if file_name.lower().endswith(".ods") or b"opendocument" in data[:200]:
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                content = archive.getinfo("content.xml").file_size
        except (zipfile.BadZipFile, KeyError, OSError):
            raise Unreadable("The spreadsheet cannot be read (not a complete ODS file).") from None
        if content > limits.text_bytes:
            raise _too_large("The spreadsheet's content", content // 1000,
                             limits.text_bytes // 1000, limits, " KB", unit_again=True)
        return
    _xlsx_check(data, limits)


def _read_csv(data: bytes, file_name: str, limits: Limits) -> Sheet:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    name = re.sub(r"\.[^.]*$", "", file_name.rsplit("/", 1)[-1]) or "CSV"
    rows: list[list[Any]] = []
    cells = 0
    reader = csv.reader(io.StringIO(text), dialect)
    previous = csv.field_size_limit(limits.cell_chars)  # a longer field stops the reader
    try:
        for row in reader:
            rows.append(row)
            cells += len(row)
            _check_row(name, len(rows), len(row), cells, limits)
    except csv.Error:
        raise _too_large(f"A cell in row {reader.line_num} of the file", limits.cell_chars + 1,
                         limits.cell_chars, limits, " characters", more=True,
                         unit_again=True) from None
    finally:
        csv.field_size_limit(previous)
    return Sheet(name, rows)


def _check_row(sheet: str, rows: int, columns: int, cells: int, limits: Limits,
               *, stated: bool = False) -> None:
    """`stated`: the sizes the file states (exact), else those read so far (at least)."""
    more = not stated
    if columns > limits.columns:
        raise _too_large(f"The sheet \u201c{sheet}\u201d", columns, limits.columns, limits,
                         " columns", more=more)
    if rows > limits.rows:
        raise _too_large(f"The sheet \u201c{sheet}\u201d", rows, limits.rows, limits, " rows",
                         more=more)
    if cells > limits.cells:
        raise _too_large("The file", cells, limits.cells, limits, " cells", more=more)


_DIMENSION = re.compile(rb"<(?:\w+:)?dimension\s+ref=\"([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?\"")


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


_ROOT_ELEMENT = re.compile(rb"<[A-Za-z_]")
_PROLOG_BYTES = 65_536


def _refuse_document_types(archive: zipfile.ZipFile) -> None:
    """Refuse a workbook any of whose XML parts declares a document type: entities ("billion
    laughs", a file of the server named as an outside entity) come only with one, and no
    spreadsheet program writes one. Checked in each part's prolog, before any parser sees it."""
    for part in archive.infolist():
        if not part.filename.endswith(".xml"):
            continue
        with archive.open(part) as stream:
            head = stream.read(_PROLOG_BYTES)
        root = _ROOT_ELEMENT.search(head)
        prolog = head[: root.start()] if root else head
        if b"<!DOCTYPE" in prolog or (root is None and len(head) == _PROLOG_BYTES):
            raise Unreadable("The spreadsheet declares XML entities (a document type), which "
                             "no spreadsheet program writes; it is not read. Save it again "
                             "from the spreadsheet program.")


def _xlsx_check(data: bytes, limits: Limits) -> None:
    """An XLSX's sizes before it is read: each sheet's dimension (rows and columns as the sheet
    states them) and the shared strings' size, from the zip's directory and the sheets' first
    bytes; no cell is read."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        parts = archive.infolist()
    except (zipfile.BadZipFile, OSError):
        raise Unreadable("The workbook cannot be read (not a complete XLSX file).") from None
    with archive:
        _refuse_document_types(archive)
        cells = 0
        for part in parts:
            if part.filename.endswith("sharedStrings.xml") and part.file_size > limits.text_bytes:
                raise _too_large("The workbook's text", part.file_size // 1000,
                                 limits.text_bytes // 1000, limits, " KB", unit_again=True)
            if not re.fullmatch(r"xl/worksheets/[^/]+\.xml", part.filename):
                continue
            with archive.open(part) as stream:
                head = stream.read(4096)
            found = _DIMENSION.search(head)
            if found is None:
                continue  # no dimension stated: bounded while reading
            last_column, last_row = found.group(3) or found.group(1), found.group(4) or found.group(2)
            columns, rows = _column_number(last_column), int(last_row)
            sheet = part.filename.rsplit("/", 1)[-1].removesuffix(".xml")
            cells += rows * columns
            _check_row(sheet.replace("sheet", "Sheet "), rows, columns, cells, limits, stated=True)


def _read_xlsx(data: bytes, limits: Limits) -> list[Sheet]:
    import openpyxl  # type: ignore[import-untyped]  # no stubs (types-openpyxl is no dependency)

    _xlsx_check(data, limits)
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as err:  # openpyxl raises many kinds for a damaged file
        raise Unreadable(f"The workbook cannot be read ({err.__class__.__name__}).") from None
    sheets = []
    cells = 0
    for ws in book.worksheets:
        rows = []
        # A sheet that states no dimension (or a wrong one) is bounded here: one column past
        # the limit is read, to say so.
        for row in ws.iter_rows(values_only=True, max_col=limits.columns + 1):
            values = list(row)
            while values and values[-1] is None:
                values.pop()
            rows.append(values)
            cells += len(values)
            _check_row(ws.title, len(rows), len(values), cells, limits)
            if any(isinstance(v, str) and len(v) > limits.cell_chars for v in values):
                raise _too_large(f"A cell in row {len(rows)} of the sheet \u201c{ws.title}\u201d",
                                 max(len(v) for v in values if isinstance(v, str)),
                                 limits.cell_chars, limits, " characters", unit_again=True)
        sheets.append(Sheet(ws.title, rows))
    book.close()
    return sheets


def _read_ods(data: bytes, limits: Limits) -> list[Sheet]:
    import pandas as pd

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            content = archive.getinfo("content.xml").file_size
            _refuse_document_types(archive)
    except (zipfile.BadZipFile, KeyError, OSError):
        raise Unreadable("The spreadsheet cannot be read (not a complete ODS file).") from None
    if content > limits.text_bytes:
        raise _too_large("The spreadsheet's content", content // 1000, limits.text_bytes // 1000,
                         limits, " KB", unit_again=True)

    try:
        frames = pd.read_excel(io.BytesIO(data), engine="odf", sheet_name=None, header=None,
                               dtype=object)
    except Exception as err:  # odfpy and pandas raise many kinds for a damaged file
        raise Unreadable(f"The spreadsheet cannot be read ({err.__class__.__name__}).") from None
    sheets = []
    cells = 0
    for name, frame in frames.items():
        frame = frame.astype(object).where(frame.notna(), None)
        cells += frame.size
        _check_row(str(name), frame.shape[0], frame.shape[1], cells, limits, stated=True)
        sheets.append(Sheet(str(name), [list(r) for r in frame.itertuples(index=False)]))
    return sheets


def column_letter(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA: the column as the spreadsheet shows it."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


# --- problems, values ------------------------------------------------------------------------


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


class CellError(ValueError):
    pass


def blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def integer(value: Any) -> int:
    if isinstance(value, bool):
        raise CellError(f"\u201c{value}\u201d is not a number.")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != int(value):
            raise CellError(f"{value:g} is not a whole number.")
        return int(value)
    text = str(value).strip().replace(",", "").replace("\u2212", "-").replace(" ", "")
    if re.fullmatch(r"[-+]?\d+(?:\.0+)?", text):
        return int(float(text))
    raise CellError(f"\u201c{str(value).strip()[:40]}\u201d is not a number.")


def yes_no(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return bool(value)
    text = _norm(value)
    if text in ("", "no", "n", "false", "0", "-"):
        return False
    if text in ("yes", "y", "true", "1", "x", "out", "went out"):
        return True
    raise CellError(f"\u201c{str(value).strip()[:40]}\u201d is not yes or no.")


MONTHS = {m: i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}
_NUMERIC_DATE = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b")


def date_order_hint(values: Iterable[Any]) -> bool | None:
    """True (day first) or False (month first) when a date such as 25/3/2026 or 3/25/2026
    settles it; None when none does (or they disagree)."""
    hints = set()
    for value in values:
        m = _NUMERIC_DATE.search(str(value)) if isinstance(value, str) else None
        if m:
            a, b = int(m[1]), int(m[2])
            if a > 12 >= b:
                hints.add(True)
            elif b > 12 >= a:
                hints.add(False)
    return hints.pop() if len(hints) == 1 else None


def _year(text: str) -> int:
    year = int(text)
    return year + 2000 if year < 100 else year


def parse_date(value: Any, *, day_first: bool | None, year: int | None = None) -> datetime.date:
    """A date as clubs write it: 2026-03-04, 3/4/2026 (in the club's order), 4 Mar 2026,
    March 4, 2026; or a spreadsheet's own date cell."""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    text = str(value).strip()
    try:
        return _parse_date_text(text, day_first, year)
    except ValueError as err:
        raise CellError(str(err) if isinstance(err, CellError) else
                        f"\u201c{text[:40]}\u201d is not a date.") from None


def _parse_date_text(text: str, day_first: bool | None, year: int | None = None) -> datetime.date:
    m = re.search(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    if m:
        return datetime.date(int(m[1]), int(m[2]), int(m[3]))
    m = _NUMERIC_DATE.search(text)
    if m:
        a, b, year = int(m[1]), int(m[2]), _year(m[3])
        if a != b and a <= 12 and b <= 12 and day_first is None:
            raise CellError(
                f"\u201c{text[:40]}\u201d could be {a}/{b} either way; say whether the club "
                "writes the day or the month first.")
        if a > 12:
            day, month = a, b
        elif b > 12 or not day_first:
            day, month = b, a
        else:
            day, month = a, b
        return datetime.date(year, month, day)
    m = re.search(r"(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3,9})\.?,?\s+(\d{4})", text.casefold())
    if m and m[2][:3] in MONTHS:
        return datetime.date(int(m[3]), MONTHS[m[2][:3]], int(m[1]))
    m = re.search(r"([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", text.casefold())
    if m and m[1][:3] in MONTHS:
        return datetime.date(int(m[3]), MONTHS[m[1][:3]], int(m[2]))
    if year is not None:  # "Oct 13", "13 October": the season's year
        return _date_without_year(text.casefold(), year)
    raise ValueError(text)


def _date_without_year(text: str, year: int) -> datetime.date:
    m = re.search(r"\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b", text)
    if m and m[1][:3] in MONTHS:
        return datetime.date(year, MONTHS[m[1][:3]], int(m[2]))
    m = re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3,9})\b", text)
    if m and m[2][:3] in MONTHS:
        return datetime.date(year, MONTHS[m[2][:3]], int(m[1]))
    raise ValueError(text)


def person_name(text: Any) -> str:
    """"Lee, Ann" → "Ann Lee"; "Ann Lee" as it is."""
    name = " ".join(str(text).split())
    if name.count(",") == 1:
        last, first = (part.strip() for part in name.split(","))
        if last and first:
            return f"{first} {last}"
    return name


_PAIR = re.compile(r"\s*(?:&|\+|/|\band\b|;)\s*", re.IGNORECASE)


def pair_names(text: Any) -> list[str]:
    """A side's two players from one cell: "Ann Lee & Bob Ray", "Lee, Ann & Ray, Bob"."""
    parts = [p for p in _PAIR.split(str(text).strip()) if p.strip()]
    if len(parts) == 1 and parts[0].count(",") == 1:
        parts = [p for p in parts[0].split(",") if p.strip()]
    if len(parts) != PLAYERS_PER_SIDE:
        raise CellError(f"\u201c{str(text).strip()[:60]}\u201d should name two players, like "
                        "\u201cAnn Lee & Bob Ray\u201d.")
    return [person_name(p) for p in parts]


# --- recognising a sheet ---------------------------------------------------------------------


@dataclass
class Columns:
    """A sheet's header row: which column holds what."""

    header_row: int
    kinds: dict[str, int]  # kind → column index
    headers: list[str]
    unknown: list[tuple[int, str]] = field(default_factory=list)

    def label(self, kind: str) -> str:
        index = self.kinds[kind]
        return f"{column_letter(index)} ({self.headers[index]})"

    @property
    def layout(self) -> str:
        if any(k.startswith("s1:") for k in self.kinds):
            return "game"
        if "round" in self.kinds:
            return "round"
        return "side"


def _header_row(sheet: Sheet) -> int | None:
    """The first row (index) with at least two recognised headers."""
    for index, row in enumerate(sheet.rows[:20]):
        if sum(1 for c in row if not blank(c) and header_kind(str(c))) >= 2:
            return index
    return None


def recognise(sheet: Sheet, mapping: dict[str, str] | None = None) -> Columns | None:
    """The sheet's columns, recognised by their headers (or by the director's `mapping` of
    normalised header → kind); None for a sheet with no header row (left alone)."""
    index = _header_row(sheet)
    if index is None:
        return None
    mapping = mapping or {}
    headers = ["" if blank(c) else str(c).strip() for c in sheet.rows[index]]
    columns = Columns(index, {}, headers)
    for col, header in enumerate(headers):
        if not header:
            continue
        kind = mapping.get(_norm(header)) or header_kind(header)
        if kind == "ignore":
            continue
        if kind is None or kind in columns.kinds:
            columns.unknown.append((col, header))
        else:
            columns.kinds[kind] = col
    return columns


def unknown_headers(sheets: list[Sheet], mapping: dict[str, str] | None = None) -> list[str]:
    found: list[str] = []
    for sheet in sheets:
        columns = recognise(sheet, mapping)
        for _, header in columns.unknown if columns else []:
            if header not in found:
                found.append(header)
    return found


def file_headers(sheets: list[Sheet]) -> list[str]:
    headers: list[str] = []
    for sheet in sheets:
        index = _header_row(sheet)
        if index is not None:
            headers += [str(c).strip() for c in sheet.rows[index] if not blank(c)]
    return headers


# --- rows into games -------------------------------------------------------------------------


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
        (`_number_rotations`), so every game read has one."""
        if self.rotation is None:
            raise ValueError(f"{self.source}: the rotation was not numbered.")
        return self.rotation

    @property
    def has_detail(self) -> bool:
        return all(s.detail and set(s.detail) == set(s.rounds) for s in self.sides)

    @property
    def source(self) -> str:
        return f"sheet \u201c{self.sheet}\u201d, row {self.row}"


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
    figures: dict[str, Any] = {k: 0 for k in DETAIL_FIELDS if k != "went_out"}
    figures["went_out"] = False
    for kind in kinds:
        value = row.read(kind, yes_no if kind == "went_out" else integer)
        if value is not None:
            figures[kind] = value
    return figures


def _round_rows(sheet: Sheet, columns: Columns, problems: list[Problem], sheet_date: Any,
                day_first: bool | None) -> list[GameIn]:
    games: list[GameIn] = []
    latest: dict[tuple, GameIn] = {}
    for index in range(columns.header_row + 1, len(sheet.rows)):
        row = _Row(sheet, columns, index, problems)
        if row.empty:
            continue
        date, table, rotation = _when(row, sheet_date, day_first)
        names = _names(row, "")
        number = row.read("round", integer, required=True)
        score_kind = "score" if "score" in columns.kinds else "total"
        score = row.read(score_kind, integer, required=True)
        if not (date and table is not None and names and number is not None and score is not None):
            continue
        team = frozenset(name_key(n) for n in names)
        game = latest.get((date, table, rotation))
        side = next((s for s in game.sides if frozenset(map(name_key, s.names)) == team),
                    None) if game else None
        if side is None:
            if game is None or len(game.sides) == SIDES:
                game = GameIn(sheet.name, row.number, date, table, rotation, [])
                games.append(game)
                latest[(date, table, rotation)] = game
            side = SideIn(names)
            side.where["names"] = row.at("team" if "team" in columns.kinds else "player:1")
            game.sides.append(side)
        if number in side.rounds:
            row.fail("round", f"round {number} of this side is already on row "
                              f"{side.where[f'round:{number}'][0]}.")
        side.rounds[number] = score
        side.where[f"round:{number}"] = row.at(score_kind)
        detail = _round_detail(row)
        if detail is not None:
            side.detail[number] = detail
    for game in games:
        if len(game.sides) != SIDES:
            problems.append(Problem(sheet.name, game.row, None,
                                    "this game has rows for only one side; each round needs a "
                                    "row for each of the two sides."))
    return [g for g in games if len(g.sides) == SIDES]


READERS = {"game": _game_rows, "side": _side_rows, "round": _round_rows}


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
    hint = date_order_hint(
        [sheet.name for sheet in sheets]
        + [row[c.kinds["date"]] for sheet, c in recognised if c and "date" in c.kinds
           for row in sheet.rows[c.header_row + 1:] if c.kinds["date"] < len(row)])
    day_first = hint if hint is not None else day_first
    for sheet, columns in recognised:
        if columns is None:
            if any(not blank(v) for row in sheet.rows for v in row):
                problems.append(Problem(sheet.name, None, None, "no row of this sheet has the "
                                        "usual headers (Date, Table, Team, R1 … Total)."))
            continue
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
            continue
        games += READERS[columns.layout](sheet, columns, problems, sheet_date, day_first)
    _number_rotations(games)
    for game in games:
        problems += game_problems(game, today=today)
    return games, problems


def _number_rotations(games: list[GameIn]) -> None:
    """A table seen again on the same night without a rotation column is its next rotation."""
    seen: dict[tuple, int] = {}
    for game in games:
        if game.rotation is None:
            seen[(game.date, game.table)] = seen.get((game.date, game.table), 0) + 1
            game.rotation = seen[(game.date, game.table)]


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

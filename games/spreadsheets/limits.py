"""How much one reading of a spreadsheet may take (`Limits`: the web request's `PREVIEW`, the
worker's and the command line's `IMPORT`), and the refusal in words when a file is larger
(`TooLarge`: what it has, what is read). The readers of each format (`csv_files`, `xlsx`, `ods`)
check their sizes here; `Sheet` is what they all give."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_ROWS = 20_000


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


def too_large(what: str, has: int, most: int, limits: Limits, unit: str,
               *, more: bool = False, unit_again: bool = False) -> TooLarge:
    """'The sheet “Oct” has 2,000 columns; a preview reads at most 60.' (`more`: counted until
    past the limit, "or more"; `unit_again`: the limit with its unit, "256 KB")."""
    most_words = f"{most:,}{unit if unit_again else ''}"
    return TooLarge(f"{what} has {has:,}{unit}{' or more' if more else ''}; {limits.name} reads "
                    f"at most {most_words}. Remove the rows and columns that are not results, "
                    "or split the file.")


def sizes_check(sheet: str, rows: int, columns: int, cells: int, limits: Limits,
               *, stated: bool = False) -> None:
    """`stated`: the sizes the file states (exact), else those read so far (at least)."""
    more = not stated
    if columns > limits.columns:
        raise too_large(f"The sheet \u201c{sheet}\u201d", columns, limits.columns, limits,
                         " columns", more=more)
    if rows > limits.rows:
        raise too_large(f"The sheet \u201c{sheet}\u201d", rows, limits.rows, limits, " rows",
                         more=more)
    if cells > limits.cells:
        raise too_large("The file", cells, limits.cells, limits, " cells", more=more)

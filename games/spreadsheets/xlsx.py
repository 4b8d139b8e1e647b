"""An XLSX workbook: its stated sizes (each sheet's dimension, the shared strings) checked from
the zip's directory and the sheets' first bytes before any cell is read, then its sheets read
by openpyxl, bounded again while reading (a sheet may state no dimension, or a wrong one)."""

from __future__ import annotations

import io
import re
import zipfile

from games.spreadsheets.limits import Limits, Sheet, Unreadable, sizes_check, too_large
from games.spreadsheets.zipped import refuse_document_types

_DIMENSION = re.compile(rb"<(?:\w+:)?dimension\s+ref=\"([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?\"")


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


def xlsx_sizes_check(data: bytes, limits: Limits) -> None:
    """An XLSX's sizes before it is read: each sheet's dimension (rows and columns as the sheet
    states them) and the shared strings' size, from the zip's directory and the sheets' first
    bytes; no cell is read."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        parts = archive.infolist()
    except (zipfile.BadZipFile, OSError):
        raise Unreadable("The workbook cannot be read (not a complete XLSX file).") from None
    with archive:
        refuse_document_types(archive)
        cells = 0
        for part in parts:
            if part.filename.endswith("sharedStrings.xml") and part.file_size > limits.text_bytes:
                raise too_large("The workbook's text", part.file_size // 1000,
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
            sizes_check(sheet.replace("sheet", "Sheet "), rows, columns, cells, limits, stated=True)


def read_xlsx(data: bytes, limits: Limits) -> list[Sheet]:
    import openpyxl  # type: ignore[import-untyped]  # no stubs (types-openpyxl is no dependency)

    xlsx_sizes_check(data, limits)
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
            sizes_check(ws.title, len(rows), len(values), cells, limits)
            if any(isinstance(v, str) and len(v) > limits.cell_chars for v in values):
                raise too_large(f"A cell in row {len(rows)} of the sheet \u201c{ws.title}\u201d",
                                 max(len(v) for v in values if isinstance(v, str)),
                                 limits.cell_chars, limits, " characters", unit_again=True)
        sheets.append(Sheet(ws.title, rows))
    book.close()
    return sheets

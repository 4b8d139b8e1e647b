"""A CSV file read as one sheet: its encoding (UTF-8, else Windows' Western) and delimiter
guessed, its rows, columns, cells and each field bounded while it is read (a CSV states no
size)."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from games.spreadsheets.limits import Limits, Sheet, sizes_check, too_large


def read_csv(data: bytes, file_name: str, limits: Limits) -> Sheet:
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
            sizes_check(name, len(rows), len(row), cells, limits)
    except csv.Error:
        raise too_large(f"A cell in row {reader.line_num} of the file", limits.cell_chars + 1,
                         limits.cell_chars, limits, " characters", more=True,
                         unit_again=True) from None
    finally:
        csv.field_size_limit(previous)
    return Sheet(name, rows)

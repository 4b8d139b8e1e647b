"""A spreadsheet file read into its sheets, told apart by its content, then by its name: a zip
is an ODS (by name or its mimetype) or an XLSX, anything else a CSV. Each format's reader
bounds what it reads by the reading's `Limits`; `stated_sizes_check` checks only the sizes a
workbook states, without reading a cell (before a job is started for it)."""

from __future__ import annotations

from games.spreadsheets.csv_files import read_csv
from games.spreadsheets.limits import IMPORT, Limits, Sheet, Unreadable
from games.spreadsheets.ods import ods_sizes_check, read_ods
from games.spreadsheets.xlsx import read_xlsx, xlsx_sizes_check


def _zipped(data: bytes) -> bool:
    return data[:2] == b"PK"


def _is_ods(data: bytes, file_name: str) -> bool:
    return file_name.lower().endswith(".ods") or b"opendocument" in data[:200]


def read_workbook(data: bytes, file_name: str, limits: Limits = IMPORT) -> list[Sheet]:
    """The sheets of a CSV, XLSX or ODS file (told apart by content, then by name), read within
    `limits` (`TooLarge` in words, before reading where the file says its size)."""
    if _zipped(data):
        return read_ods(data, limits) if _is_ods(data, file_name) else read_xlsx(data, limits)
    if file_name.lower().endswith((".xlsx", ".ods", ".xls")):
        raise Unreadable("The file is not a spreadsheet this site reads (CSV, XLSX or ODS).")
    return [read_csv(data, file_name, limits)]


def stated_sizes_check(data: bytes, file_name: str, limits: Limits = IMPORT) -> None:
    """`TooLarge` in words when a workbook states sizes over `limits` (an XLSX's sheet
    dimensions and shared strings, an ODS's content), from the zip's directory and the sheets'
    first bytes: no cell is read. A CSV states none (it is bounded while it is read)."""
    if not _zipped(data):
        return
    if _is_ods(data, file_name):
        ods_sizes_check(data, limits)
    else:
        xlsx_sizes_check(data, limits)

"""Recognising a sheet: its header row (the first with two headers the import knows), which
column holds what (by the headers' usual names, or the director's mapping), the headers it does
not know, and the layout they make (a row per game, per side, or per round)."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.spreadsheets.cells import blank
from games.spreadsheets.headers import column_letter, header_kind, normalised
from games.spreadsheets.limits import Sheet


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


def header_row_index(sheet: Sheet) -> int | None:
    """The first row (index) with at least two recognised headers."""
    for index, row in enumerate(sheet.rows[:20]):
        if sum(1 for c in row if not blank(c) and header_kind(str(c))) >= 2:
            return index
    return None


def recognise(sheet: Sheet, mapping: dict[str, str] | None = None) -> Columns | None:
    """The sheet's columns, recognised by their headers (or by the director's `mapping` of
    normalised header → kind); None for a sheet with no header row (left alone)."""
    index = header_row_index(sheet)
    if index is None:
        return None
    mapping = mapping or {}
    headers = ["" if blank(c) else str(c).strip() for c in sheet.rows[index]]
    columns = Columns(index, {}, headers)
    for col, header in enumerate(headers):
        if not header:
            continue
        kind = mapping.get(normalised(header)) or header_kind(header)
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
        index = header_row_index(sheet)
        if index is not None:
            headers += [str(c).strip() for c in sheet.rows[index] if not blank(c)]
    return headers

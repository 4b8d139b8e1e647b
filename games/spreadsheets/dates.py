"""The night's date as clubs write it: 2026-03-04, 3/4/2026 in the club's order (settled by a
date such as 25/3/2026 elsewhere in the file, `date_order_hint`), 4 Mar 2026, March 4, 2026, a
spreadsheet's own date cell, or "Oct 13" with the season's year."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from typing import Any

from games.spreadsheets.cells import CellError

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

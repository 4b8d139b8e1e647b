"""One cell's value as a club writes it: blank or not, a whole number ("1,250", with a minus
sign), yes or no, a player's name ("Lee, Ann") and a side's two players in one cell ("Ann Lee &
Bob Ray"). A value that is none of these raises `CellError` in words (dates:
`games.spreadsheets.dates`)."""

from __future__ import annotations

import re
from typing import Any

from games.spreadsheets.headers import normalised

PLAYERS_PER_SIDE = 2


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
    text = normalised(value)
    if text in ("", "no", "n", "false", "0", "-"):
        return False
    if text in ("yes", "y", "true", "1", "x", "out", "went out"):
        return True
    raise CellError(f"\u201c{str(value).strip()[:40]}\u201d is not yes or no.")


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

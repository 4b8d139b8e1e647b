"""A spreadsheet's headers and what they mean: the column kinds (`KIND_WORDS`, as the director's
form names them; the parts of a round's score as `handfoot.rules.ENTERED_PARTS` declares them),
the names clubs write for each ("R2", "Team 1 Total", "Us") recognised in any case and order, a
file's headers as the key its mapping is remembered by, and a column as the spreadsheet shows it
("C")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from handfoot.rules import ENTERED_PARTS

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
    # a column per part a scorer writes, as declared once (handfoot.rules.ENTERED_PARTS)
    **{part.name: part.words for part in ENTERED_PARTS},
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
    # a part a scorer writes: its name with spaces ("clean books") or the other words its
    # declaration gives a column header (`ScoringPart.headers`)
    *(("|".join(re.escape(words) for words in (part.name.replace("_", " "), *part.headers)),
       part.name) for part in ENTERED_PARTS),
]


def normalised(text: str) -> str:
    """A header or cell as compared: casefolded, punctuation and extra spaces taken out."""
    return " ".join(re.sub(r"[^\w\s]", " ", str(text).casefold().replace("3's", "3s")).split())


def header_kind(header: str) -> str | None:
    """The kind of column a header names ("R2" → "round:2", "Team 1 Total" → "s1:total"),
    or None when it is not one of the usual names."""
    text = normalised(header)
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
    return "|".join(sorted({normalised(h) for h in headers if normalised(h)}))


def column_letter(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA: the column as the spreadsheet shows it."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters

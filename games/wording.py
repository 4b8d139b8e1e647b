"""The one translation from the engine's and the intake's error codes to the table's words.

Pages never show an engine message as it is: they show `table_words(...)`, which names sides
and seats from 1 (players by name where known), uses no field names, and says which form field
the problem concerns. Codes stay in the API: a page's small "details" line says only where
(round, move).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.errors import Code
from handfoot.errors import ErrorCode
from handfoot.rules import ENTERED_PARTS

# How people at the table call the sheet's fields: its parts of a side's score as declared
# (`handfoot.rules.ENTERED_PARTS`), then the others.
FIELD_WORDS = {
    **{part.name: part.words.lower() for part in ENTERED_PARTS},
    "ended_by": "how the round ended",
    "cut_bonus": "cut bonus",
    "stock_out": "the stock ran out",
    "seats": "seats",
    "dealer": "dealer",
}

# One headline per code: what happened, in the table's words. `{message}` is the engine's own
# explanation after translation (field names and seat numbers replaced).
HEADLINES: dict[str, str] = {
    # The engine's codes (formats.md): every one of handfoot.errors.ErrorCode.
    ErrorCode.BAD_FORMAT: "This is not a score sheet or move log the site can read: {message}",
    ErrorCode.BAD_RULES: "The rule set is not valid: {message}",
    ErrorCode.BAD_SEATS: "The seating does not work for these rules: {message}",
    ErrorCode.BAD_DEAL: "The deal in the move log is not a real deal: {message}",
    ErrorCode.WRONG_DEALER: "The wrong player deals: {message}",
    ErrorCode.NOT_YOUR_TURN: "Someone plays out of turn: {message}",
    ErrorCode.WRONG_PHASE: "A move comes at the wrong moment of a turn: {message}",
    ErrorCode.CARD_NOT_HELD: "A player plays a card they do not hold: {message}",
    ErrorCode.PICKUP_NOT_ALLOWED: "Taking the discard pile is not allowed here: {message}",
    ErrorCode.MELD_TOO_SMALL: "A meld is too small: {message}",
    ErrorCode.MELD_MIXED_RANKS: "A meld mixes ranks: {message}",
    ErrorCode.MELD_TOO_MANY_WILDS: "A meld has too many wild cards: {message}",
    ErrorCode.BOOK_CLOSED: "A card goes onto a finished book: {message}",
    ErrorCode.WILD_MELD_NOT_ALLOWED: "A meld of wild cards is not allowed: {message}",
    ErrorCode.BELOW_MINIMUM: "A first meld is below the minimum: {message}",
    ErrorCode.ILLEGAL_DISCARD: "That card cannot be discarded: {message}",
    ErrorCode.CANNOT_GO_OUT: "Going out is not allowed yet: {message}",
    ErrorCode.ROUND_OVER: "The round is already over: {message}",
    ErrorCode.ROUND_NOT_OVER: "The round is not finished: {message}",
    ErrorCode.SCORE_MISMATCH: "The scores written down differ from the cards: {message}",
    ErrorCode.SHEET_GOING_OUT: "Check who went out: {message}",
    ErrorCode.SHEET_BOOKS: "Check the books: {message}",
    ErrorCode.SHEET_RED_THREES: "Check the red 3s: {message}",
    ErrorCode.SHEET_POINTS: "Check the points: {message}",
    ErrorCode.INTERNAL_ERROR: "The site could not check this entry because of a fault on our "
    "side, not in what you entered. Please try again later or tell the director.",
    # The results app's own codes (games.errors.Code), and the page's REPLACE_NOT_CONFIRMED.
    Code.RULES_MISMATCH: "{message}",
    Code.SEATS_MISMATCH: "The move log's players are not this table's players in seat order.",
    Code.DEALER_MISMATCH: "In the move log a different player deals round 1 than at this table.",
    Code.SIDES_MISMATCH: "The sheet or log has a different number of sides than this table.",
    Code.PLAYERS_MISMATCH: "The sheet has a different number of players than sit at this table.",
    Code.BAD_ROUND: "There is no such round in this game: {message}",
    Code.NO_ROUNDS: "The move log holds no finished round yet.",
    Code.TOO_LARGE: "The file is larger than 2 MB; is it a move log?",
    Code.ALREADY_CONFIRMED: "This game's result is already confirmed; ask the director for a "
    "correction.",
    Code.EVENT_NOT_RUNNING: "{message}",
    Code.WRONG_TABLE_LINK: "This table link belongs to another game.",
    Code.SIDE_MISMATCH: "Each side enters with its own link only.",
    Code.NOT_AN_ENTRANT: "Only the game's players, the club's scorers and directors may enter "
    "results.",
    Code.SAME_ENTRANT: "You entered these figures yourself; the other side (or the director) "
    "confirms them.",
    Code.DIRECTOR_SETTLES_DISPUTES: "The two sides entered different figures: only the director "
    "can settle this, or both sides enter the same figures.",
    Code.NOT_AWAITING_CONFIRMATION: "These figures are no longer waiting for confirmation; reload "
    "the page.",
    Code.NO_SUCH_VERSION: "These figures are no longer there; reload the page.",
    Code.IDEMPOTENCY_KEY_REUSED: "This form was already sent with other figures; reload the page "
    "and enter the round again.",
    Code.BAD_IDEMPOTENCY_KEY: "The form is damaged; reload the page and enter the round again.",
    Code.REASON_REQUIRED: "Say why the result is corrected.",
    Code.NO_FIGURES: "Enter the corrected figures.",
    Code.INCOMPLETE: "Every round needs its figures: {message}",
    Code.NO_CHANGE: "These are the figures already confirmed.",
    Code.STALE_VERSION: "The result changed while you were editing it; reload and correct again.",
    "REPLACE_NOT_CONFIRMED": "Round {round} is already saved. To change it, compare both "
    "versions below and press “Replace round {round}”.",
}

_SEAT = re.compile(r"\b([Ss])eat (\d+)('s)?")
_SIDE = re.compile(r"\b([Ss])ide (\d+)\b")
_FIELD = re.compile(r"`?\b(" + "|".join(FIELD_WORDS) + r")\b`?")
_QUOTED_CODE = re.compile(r"\s*\(([A-Z][A-Z_]{3,})\)")
# A field path of a sheet or log as the engine's schema step names it ("sides[0].table_points",
# "rounds[2]", "seats[1]"): 0-based, turned into the table's words (from 1).
_SIDE_PATH = re.compile(r"\bsides\[(\d+)\](?:\.(\w+))?")
_INDEXED_PATH = re.compile(r"\b(round|seat|move|event|card|meld)s\[(\d+)\]\.?")
_OTHER_PATH = re.compile(r"\b(\w+)\[(\d+)\]\.?")
# What a page never shows: an engine or intake code, bare ("REPLACE_NOT_CONFIRMED").
CODE_WORD = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")


@dataclass(frozen=True)
class TableWords:
    """An error as the table reads it: `text`, the form `field` it concerns (side number and
    field name, or a top-level field, or None), and the `details` line (the code, its place)."""

    text: str
    details: str
    field: str | None = None


def _seat_words(seat_names: list[str] | None):
    def replace(match: re.Match[str]) -> str:
        seat = int(match.group(2))
        if seat_names and 0 <= seat < len(seat_names):
            return seat_names[seat] + (match.group(3) or "")
        return f"{match.group(1)}eat {seat + 1}{match.group(3) or ''}"

    return replace


def _side_words(side_names: list[str] | None):
    def replace(match: re.Match[str]) -> str:
        side = int(match.group(2))  # the engine's sheet messages number sides from 1
        if side_names and 1 <= side <= len(side_names):
            return f"{match.group(1)}ide {side} ({side_names[side - 1]})"
        return match.group(0)

    return replace


def plain(
    message: str,
    *,
    seat_names: list[str] | None = None,
    side_names: list[str] | None = None,
    zero_based_seats: bool = True,
) -> str:
    """An engine message without field names, with seats (0-based in the engine) as players."""
    text = _QUOTED_CODE.sub("", message or "")
    text = _SIDE_PATH.sub(
        lambda m: f"side {int(m.group(1)) + 1}" + (f"'s {m.group(2)}" if m.group(2) else ""), text
    )
    text = _INDEXED_PATH.sub(lambda m: f"{m.group(1)} {int(m.group(2)) + 1} ", text)
    text = _OTHER_PATH.sub(lambda m: f"{m.group(1)} {int(m.group(2)) + 1} ", text)
    text = CODE_WORD.sub("", text).replace("  ", " ")
    if zero_based_seats:
        text = _SEAT.sub(_seat_words(seat_names), text)
    text = _SIDE.sub(_side_words(side_names), text)
    text = _FIELD.sub(lambda m: FIELD_WORDS[m.group(1)], text)
    text = text.replace("marked went out", "marked as went out")
    return text.strip()


def _sheet_field(code: str, message: str) -> str | None:
    """Which field of the table form a sheet error concerns, e.g. "side0_red_threes"."""
    side = _SIDE.search(message or "")
    path = _SIDE_PATH.search(message or "")
    if code == ErrorCode.BAD_FORMAT and path and path.group(2) in FIELD_WORDS:
        return f"side{path.group(1)}_{path.group(2)}"
    if code == ErrorCode.SHEET_GOING_OUT and "stock ran out" in (message or ""):
        return "ended_by"
    names: dict[str, str | None] = {
        ErrorCode.SHEET_GOING_OUT: "went_out",
        ErrorCode.SHEET_RED_THREES: "red_threes",
        ErrorCode.SHEET_POINTS: "held_points" if "held_points" in message else "table_points",
        ErrorCode.SHEET_BOOKS: next(
            (f"{kind}_books" for kind in ("wild", "dirty", "clean") if f"{kind} book" in message),
            None,
        ),
        ErrorCode.BAD_FORMAT: next((f for f in FIELD_WORDS if f in (message or "")), None),
    }
    name = names.get(code)
    if name is None:
        return None
    if name == "ended_by":
        return name
    return f"side{int(side.group(2)) - 1}_{name}" if side else None


def table_words(
    code: str,
    message: str = "",
    *,
    round: int | None = None,
    event: int | None = None,
    seat_names: list[str] | None = None,
    side_names: list[str] | None = None,
) -> TableWords:
    """Plain words for one error code and the engine's (or the intake's) message."""
    headline = HEADLINES.get(str(code), "{message}")
    explained = plain(message, seat_names=seat_names, side_names=side_names)
    text = headline.format(message=explained, round=round or "")
    if str(code) == ErrorCode.BAD_FORMAT and _SIDE_PATH.search(message or ""):
        text = explained[:1].upper() + explained[1:]  # a typed sheet's figure: just the problem
    where = []
    if round is not None:
        where.append(f"round {round}")
    if event is not None:
        where.append(f"move {event + 1}")
    # The code stays in the API; a page says only where the problem is.
    details = f"Where: {', '.join(where)}." if where else ""
    return TableWords(text=text, details=details, field=_sheet_field(str(code), message or ""))

"""Engine errors: one exception type carrying a stable code from formats.md."""

from __future__ import annotations

from enum import StrEnum

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Any


class ErrorCode(StrEnum):
    BAD_FORMAT = "BAD_FORMAT"
    BAD_RULES = "BAD_RULES"
    BAD_SEATS = "BAD_SEATS"
    BAD_DEAL = "BAD_DEAL"
    WRONG_DEALER = "WRONG_DEALER"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WRONG_PHASE = "WRONG_PHASE"
    CARD_NOT_HELD = "CARD_NOT_HELD"
    PICKUP_NOT_ALLOWED = "PICKUP_NOT_ALLOWED"
    MELD_TOO_SMALL = "MELD_TOO_SMALL"
    MELD_MIXED_RANKS = "MELD_MIXED_RANKS"
    MELD_TOO_MANY_WILDS = "MELD_TOO_MANY_WILDS"
    BOOK_CLOSED = "BOOK_CLOSED"
    WILD_MELD_NOT_ALLOWED = "WILD_MELD_NOT_ALLOWED"
    BELOW_MINIMUM = "BELOW_MINIMUM"
    ILLEGAL_DISCARD = "ILLEGAL_DISCARD"
    CANNOT_GO_OUT = "CANNOT_GO_OUT"
    ROUND_OVER = "ROUND_OVER"
    ROUND_NOT_OVER = "ROUND_NOT_OVER"
    SCORE_MISMATCH = "SCORE_MISMATCH"
    SHEET_GOING_OUT = "SHEET_GOING_OUT"
    SHEET_BOOKS = "SHEET_BOOKS"
    SHEET_RED_THREES = "SHEET_RED_THREES"
    SHEET_POINTS = "SHEET_POINTS"
    # Not the document's fault: an unexpected exception inside the engine (a bug). Logged with
    # its traceback; the fuzz tests assert that no mutated log or sheet ever produces it.
    INTERNAL_ERROR = "INTERNAL_ERROR"


def shown(value: Any, limit: int = 40) -> str:
    """A short rendering of a value from a document, for a message (safe for any depth)."""
    try:
        text = repr(value)
    except RecursionError:
        return "a deeply nested value"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class EngineError(Exception):
    """A problem with a log, a sheet or a rule set, located by round and event."""

    def __init__(
        self,
        code: ErrorCode | str,
        message: str,
        round: int | None = None,
        event: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.round = round
        self.event = event

    def located(self, round: int | None, event: int | None) -> EngineError:
        """Fill in the position if the raiser did not know it."""
        if self.round is None:
            self.round = round
        if self.event is None:
            self.event = event
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "event": self.event,
            "code": str(self.code),
            "message": self.message,
        }

    @classmethod
    def internal(cls, what: str) -> EngineError:
        """The error reported for an unexpected exception while checking `what`."""
        return cls(
            ErrorCode.INTERNAL_ERROR,
            f"The engine failed while checking this {what}. This is a fault in the engine, not "
            "in the document; it has been logged.",
        )

    def __repr__(self) -> str:
        return f"EngineError({self.code!s}, {self.message!r}, round={self.round}, event={self.event})"

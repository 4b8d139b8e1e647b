"""One entry point for both public formats: `check_document` tells a move log from a score
sheet by its `format` field and checks it (used by the command line and by the Django side)."""

from __future__ import annotations

from .errors import EngineError, ErrorCode, shown
from .formats import LOG_FORMAT, SHEET_FORMAT
from .jsontext import parse_document
from .report import GameReport

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Any

    from .rules import RuleSet

_SHEET_PREFIX = "hand-and-foot-sheet/"
_LOG_PREFIX = "hand-and-foot-log/"


def document_kind(doc: Any) -> str:
    """ "sheet" for a score sheet, else "log" (also the guess when the format is unknown)."""
    if isinstance(doc, dict):
        fmt = doc.get("format")
        if isinstance(fmt, str) and fmt.startswith(_SHEET_PREFIX):
            return "sheet"
    return "log"


def check_document(doc: Any, rules: RuleSet | None = None) -> GameReport:
    """Check a move log or a score sheet (a parsed dict, or JSON text/bytes). Never raises.

    Move logs go to `replay.replay_log`, score sheets to `sheets.check_sheet`; anything whose
    `format` is neither is BAD_FORMAT with kind "log". `rules`, when given, is the document's
    rule set already parsed (its `rules` field is then not parsed again).
    """
    if isinstance(doc, str | bytes | bytearray):
        try:
            doc = parse_document(doc)
        except EngineError as err:
            return GameReport("log", False, err)
    kind = document_kind(doc)
    if kind == "sheet":
        fmt = doc.get("format")
        if fmt != SHEET_FORMAT:
            return GameReport(
                kind,
                False,
                EngineError(
                    ErrorCode.BAD_FORMAT,
                    f"Unknown score sheet format {shown(fmt)}; this engine reads {SHEET_FORMAT!r}.",
                ),
            )
        from .sheets import check_sheet  # imported late: a log's check needs none of it

        return check_sheet(doc, rules)
    if not isinstance(doc, dict):
        return GameReport(
            "log",
            False,
            EngineError(
                ErrorCode.BAD_FORMAT,
                "A move log or score sheet should be a JSON object with a format field.",
            ),
        )
    fmt = doc.get("format")
    if fmt != LOG_FORMAT:
        if fmt is None:
            message = (
                f"The document has no format field; expected {LOG_FORMAT!r} (a move log) or "
                f"{SHEET_FORMAT!r} (a score sheet)."
            )
        elif isinstance(fmt, str) and fmt.startswith(_LOG_PREFIX):
            message = f"Unknown move log format {shown(fmt)}; this engine reads {LOG_FORMAT!r}."
        else:
            message = (
                f"Unknown format {shown(fmt)}; expected {LOG_FORMAT!r} (a move log) or "
                f"{SHEET_FORMAT!r} (a score sheet)."
            )
        return GameReport("log", False, EngineError(ErrorCode.BAD_FORMAT, message))
    from .replay import replay_log  # imported late: replay pulls in the whole engine

    return replay_log(doc, rules)


__all__ = ["LOG_FORMAT", "SHEET_FORMAT", "check_document", "document_kind", "parse_document"]

"""The API's JSON parser: a size limit, a nesting limit, and no text the database cannot keep.

orjson is strict (RFC 8259): it refuses NaN and Infinity, and it stops at 1,024 levels of
nesting instead of overflowing the stack. On top of that the raw bytes (never the parsed
value: no Python walk over every node) are checked for deeper nesting than
`API_MAX_JSON_DEPTH` and for a NUL character (`\\u0000`) in any string or key, which PostgreSQL's
jsonb cannot store. Every check is a few passes of C-speed byte operations (`bytes.replace`,
`translate`, `split`), so a hostile body costs little more than reading it.

A view may set a smaller body limit than `API_MAX_BODY_BYTES` (`max_body_bytes` on the view):
the anonymous engine checks take a sheet of at most `API_MAX_SHEET_BYTES` and a move log of at
most `API_MAX_LOG_BYTES`. Every refusal is a 400 (413 for size) in the API's error shape, never a
500.
"""

import gc
from collections.abc import Mapping
from typing import Any

import orjson
from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser

from web.errors import REGISTRY, Code

DEFAULT_MAX_BYTES = 2_000_000
DEFAULT_MAX_DEPTH = 32
# A real score sheet is under 5 KB. The largest simulated move logs (`python -m handfoot
# simulate`, every preset and table size, both strategies) are under 90 KB compact and under
# 300 KB indented; 600 KB leaves room for a long game written out with wide indentation.
DEFAULT_MAX_SHEET_BYTES = 20_000
DEFAULT_MAX_LOG_BYTES = 600_000

NUL_MESSAGE = "Text with a NUL character (\\u0000) is not accepted."
# What the depth check keeps of the text: brackets, quotes (with escapes taken out first) and
# `[` / `]` for both kinds of bracket (orjson has already checked that they pair up).
_BRACKETS_AND_QUOTES = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS_OR_QUOTES = bytes(b for b in range(256) if b not in b'[]{}"')


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = Code.BODY_TOO_LARGE.value

    def __init__(self, limit: int, hint: str = "") -> None:
        super().__init__(REGISTRY.message(Code.BODY_TOO_LARGE, limit=f"{limit:,}",
                                          hint=f" {hint}" if hint else ""))


def max_body_bytes() -> int:
    return int(getattr(settings, "API_MAX_BODY_BYTES", DEFAULT_MAX_BYTES))


def max_sheet_bytes() -> int:
    return min(int(getattr(settings, "API_MAX_SHEET_BYTES", DEFAULT_MAX_SHEET_BYTES)),
               max_body_bytes())


def max_log_bytes() -> int:
    return min(int(getattr(settings, "API_MAX_LOG_BYTES", DEFAULT_MAX_LOG_BYTES)), max_body_bytes())


def max_depth() -> int:
    return int(getattr(settings, "API_MAX_JSON_DEPTH", DEFAULT_MAX_DEPTH))


def body_limit(view: Any) -> int:
    """The view's own body limit (`max_body_bytes()` on the view), never over API_MAX_BODY_BYTES."""
    own = getattr(view, "max_body_bytes", None)
    limit = max_body_bytes()
    return min(own(), limit) if callable(own) else limit


def read_limited(stream: Any, limit: int, hint: str = "") -> bytes:
    """At most `limit` bytes of the stream; refuses (413, with the view's `hint`) a longer one
    without reading it all."""
    data = stream.read(limit + 1) if stream is not None else b""
    if len(data) > limit:
        raise BodyTooLarge(limit, hint)
    return data


def holds_nul(raw: bytes) -> bool:
    """Whether any string or key of this (valid) JSON text holds a NUL character. JSON cannot
    hold a raw NUL byte, so only the escape `\\u0000` counts, and not after an escaped backslash
    (`\\\\u0000` is the text "\\u0000"): escaped backslashes are taken out first."""
    return b"\\u0000" in raw and b"\\u0000" in raw.replace(b"\\\\", b"")


def nesting_deeper_than(raw: bytes, limit: int) -> bool:
    """Whether this (valid) JSON text nests arrays and objects more than `limit` levels deep.

    Only C-speed passes over the bytes: escapes removed (an escaped backslash, then an escaped
    quote), everything but brackets and quotes deleted, the text inside quotes dropped (every
    other piece of a split on the quote), then the innermost `[]` pairs removed `limit` times:
    whatever is left was nested deeper."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = raw.translate(_BRACKETS_AND_QUOTES, _NOT_BRACKETS_OR_QUOTES)
    if b'"' in kept:
        kept = b"".join(kept.split(b'"')[::2])
    for _ in range(limit):
        shorter = kept.replace(b"[]", b"")
        if len(shorter) == len(kept):
            break
        kept = shorter
    return bool(kept)


def parse_strict_json(raw: bytes) -> Any:
    """Parse strict JSON; refuses NaN, Infinity, too deep nesting and NUL characters."""
    # The cyclic garbage collector paused while orjson builds the value: a body of tens of
    # thousands of small lists and objects would otherwise set off full collections (every
    # object of the process walked) in the middle of the parse. Nothing made here is cyclic.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as err:
        raise ParseError(f"The body is not valid JSON: {err}.") from None
    finally:
        if was_enabled:
            gc.enable()
    limit = max_depth()
    if nesting_deeper_than(raw, limit):
        raise ParseError(f"JSON nested deeper than {limit} levels is not accepted.")
    if holds_nul(raw):
        raise ParseError(NUL_MESSAGE)
    return value


class StrictJSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        view = (parser_context or {}).get("view")
        hint = getattr(view, "body_limit_hint", "")
        return parse_strict_json(read_limited(stream, body_limit(view), hint))

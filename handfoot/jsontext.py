"""The engine's one JSON reader (for move logs, score sheets and the command line).

Stricter than `json.loads` where a stored document would break later: NaN and Infinity (and
numbers too large for a float, which Python reads as infinity) are refused, and so is any text
holding the NUL character (\\u0000), which PostgreSQL cannot store in jsonb. Every refusal is a
BAD_FORMAT `EngineError` with a plain message.
"""

from __future__ import annotations

import json
import math

from .errors import EngineError, ErrorCode

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Any

_NUL_ESCAPE = "\\u0000"


def _bad(message: str) -> EngineError:
    return EngineError(ErrorCode.BAD_FORMAT, message)


def _refuse_constant(name: str) -> Any:
    raise _bad(f"The file holds {name}, which is not a number here; write a whole number.")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _bad(f"The number {text[:20]}{'...' if len(text) > 20 else ''} is too large.")
    return value


def holds_nul(value: Any) -> bool:
    """Whether any text (string or object key) inside a JSON value holds a NUL character."""
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is str:
            if "\x00" in v:
                return True
        elif type(v) is dict:
            for k, item in v.items():
                if type(k) is str and "\x00" in k:
                    return True
                stack.append(item)
        elif type(v) is list:
            stack.extend(v)
    return False


NUL_MESSAGE = "Text in the file holds a NUL character (\\u0000), which no field may hold."


def parse_document(data: str | bytes | bytearray) -> Any:
    """JSON text (UTF-8, a byte-order mark allowed) -> Python value; BAD_FORMAT if it is not
    JSON, holds NaN or Infinity, or holds a NUL character in any text."""
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise _bad(f"The file is not UTF-8 text: {exc}.") from None
    elif data.startswith("\ufeff"):
        data = data[1:]
    try:
        value = json.loads(data, parse_constant=_refuse_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as exc:
        raise _bad(f"The file is not valid JSON: {exc}.") from None
    # a NUL can only come in escaped: the text check is cheap, the walk only when it is there
    if _NUL_ESCAPE in data and holds_nul(value):
        raise _bad(NUL_MESSAGE)
    return value

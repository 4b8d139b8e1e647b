"""The API's JSON parser: a size limit, a nesting limit, and no text the database cannot keep.

orjson is strict (RFC 8259): it refuses NaN and Infinity, and it stops at 1,024 levels of
nesting instead of overflowing the stack. On top of that the parsed body is walked once
(iteratively) to refuse deeper nesting than `API_MAX_JSON_DEPTH` and any string or key holding
a NUL character, which PostgreSQL's jsonb cannot store. Every refusal is a 400 (413 for size) in
the API's error shape, never a 500.
"""

from typing import Any

import orjson
from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser

DEFAULT_MAX_BYTES = 2_000_000
DEFAULT_MAX_DEPTH = 32


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "BODY_TOO_LARGE"

    def __init__(self, limit: int) -> None:
        super().__init__(f"The request body is larger than {limit:,} bytes.")


def max_body_bytes() -> int:
    return int(getattr(settings, "API_MAX_BODY_BYTES", DEFAULT_MAX_BYTES))


def max_depth() -> int:
    return int(getattr(settings, "API_MAX_JSON_DEPTH", DEFAULT_MAX_DEPTH))


def read_limited(stream: Any, limit: int) -> bytes:
    """At most `limit` bytes of the stream; refuses (413) a longer one without reading it all."""
    data = stream.read(limit + 1) if stream is not None else b""
    if len(data) > limit:
        raise BodyTooLarge(limit)
    return data


def check_plain_json(value: Any, depth_limit: int) -> None:
    """Refuse nesting deeper than `depth_limit` and NUL characters in any key or string."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list) and depth > depth_limit:
            raise ParseError(f"JSON nested deeper than {depth_limit} levels is not accepted.")
        if isinstance(item, dict):
            for key, child in item.items():
                if "\x00" in key:
                    raise ParseError("Text with a NUL character (\\u0000) is not accepted.")
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str) and "\x00" in item:
            raise ParseError("Text with a NUL character (\\u0000) is not accepted.")


def parse_strict_json(raw: bytes) -> Any:
    """Parse strict JSON; refuses NaN, Infinity, too deep nesting and NUL characters."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as err:
        raise ParseError(f"The body is not valid JSON: {err}.") from None
    check_plain_json(value, max_depth())
    return value


class StrictJSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict | None = None) -> Any:
        return parse_strict_json(read_limited(stream, max_body_bytes()))

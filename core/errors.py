"""One hierarchy of refusals for every service of every app.

A service that refuses a request raises one of these and changes nothing. Each carries a `code`
for machines (UPPER_SNAKE, stable: clients and tests match on it), a `message` in plain words to
show people as is, and optionally the `field` of the input it is about and machine `details`.

The kind says what went wrong, and so (in `web.http`, the one place) which HTTP status it is:

    Invalid    the request itself is wrong (a bad value, a missing field)      400
    Forbidden  this caller may not do it                                        403
    NotFound   what it names does not exist (or is not visible to the caller)  404
    Conflict   the current state does not allow it (already done, not yet)     409
    Gone       the thing no longer (or not yet) takes this request             410
    Stale      it was prepared against an older version; reload and retry      412
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class DomainError(Exception):
    """A refused request: `code` for machines, `message` in plain words for people."""

    def __init__(
        self, code: str, message: str, *, field: str | None = None, details: Any = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.details = details

    def as_dict(self) -> dict[str, Any]:
        """The API's error body: {"code", "message", "details"}."""
        details = self.details
        if details is None and self.field is not None:
            details = {"field": self.field}
        return {"code": self.code, "message": self.message, "details": details}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class Invalid(DomainError):
    """The request itself is wrong: a bad value, a missing field, a document that fails."""


class Forbidden(DomainError):
    """The caller may not do this."""


class NotFound(DomainError):
    """What the request names does not exist, or the caller may not know that it does."""


class Conflict(DomainError):
    """The current state does not allow it: already done, not yet possible, a duplicate."""


class Gone(DomainError):
    """The thing no longer (or not yet) takes this kind of request, e.g. a table link outside
    its event's running time."""


class Stale(DomainError):
    """The change was prepared against an older version; reload and make it again."""


class Registry[C: StrEnum]:
    """A layer's refusal codes with one message each (`league.errors`, `games.errors`, ...):
    `refusal(Conflict, Code.X, name=...)` builds the error to raise with the code's message, its
    `{blanks}` filled."""

    def __init__(self, messages: Mapping[C, str]) -> None:
        self.messages = messages

    def message(self, code: C, **values: Any) -> str:
        return self.messages[code].format(**values)

    def refusal(self, kind: type[DomainError], code: C, /, *, field: str | None = None,
                details: Any = None, **values: Any) -> DomainError:
        return kind(code, self.message(code, **values), field=field, details=details)

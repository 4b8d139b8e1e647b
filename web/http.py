"""The one mapping from the domain's refusals to HTTP, used by the API's exception handler
(`config.api_errors`) and by pages (`refusal_status`, and `DomainErrorMiddleware` for a refusal
no page handled itself)."""

from __future__ import annotations

from core.errors import Conflict, DomainError, Forbidden, Gone, Invalid, NotFound, Stale

STATUS: dict[type[DomainError], int] = {
    Invalid: 400,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    Gone: 410,
    Stale: 412,
}


def refusal_status(error: DomainError) -> int:
    """The HTTP status of a refusal (400 for a kind this table does not name)."""
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 400

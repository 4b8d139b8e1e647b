"""The refusal codes of the HTTP edge: what the API (and a page's JSON) answers before or beside
a service, each declared once with its one message (the same shape as `league.errors`). A
service's own refusals are in its app's registry; these are the edge's: a thing not found or not
allowed at the door, an account locked out, the database away, a missing precondition, a body
too large, a query value out of its range."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from core.errors import Registry


class Code(StrEnum):
    NOT_FOUND = "NOT_FOUND"
    FORBIDDEN = "FORBIDDEN"
    LOCKED_OUT = "LOCKED_OUT"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"
    PRECONDITION_REQUIRED = "PRECONDITION_REQUIRED"
    BODY_TOO_LARGE = "BODY_TOO_LARGE"
    BAD_MIN_GAMES = "BAD_MIN_GAMES"


MESSAGES: dict[Code, str] = {
    Code.NOT_FOUND: "No such {what}.",
    Code.FORBIDDEN: "Only a director of this club may do that.",
    Code.LOCKED_OUT: (
        "Too many failed sign-ins for this account; try again in {wait}. A browser that has "
        "signed in to this account before can still sign in, and resetting the password lifts "
        "the lock."),
    Code.SERVICE_UNAVAILABLE: (
        "The database is not reachable for a moment. Try again shortly: sending the same entry "
        "again never stores it twice."),
    Code.PRECONDITION_REQUIRED: (
        "Send If-Match with the result's ETag (its revision) so a stale correction is refused."),
    Code.BODY_TOO_LARGE: "The request body is larger than {limit} bytes.{hint}",
    Code.BAD_MIN_GAMES: "min_games must be a whole number such as 3.",
}

REGISTRY = Registry(MESSAGES)


def edge_error(code: Code, **values: Any) -> dict[str, Any]:
    """The API's error body for an edge refusal: {"code", "message"} (the `detail` a DRF
    exception is raised with, or the inside of {"error": ...})."""
    return {"code": code.value, "message": REGISTRY.message(code, **values)}

"""Every refusal code of the notifications app (mail addresses, a player's own choices), declared
once with its one message (the same shape as `league.errors`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from core.errors import DomainError


class Code(StrEnum):
    BAD_EMAIL = "BAD_EMAIL"
    NOT_YOURS = "NOT_YOURS"


MESSAGES: dict[Code, str] = {
    Code.BAD_EMAIL: "Give an e-mail address like ann@example.org.",
    Code.NOT_YOURS: "Only the player themself chooses this.",
}


def refusal(kind: type[DomainError], code: Code, /, *, field: str | None = None,
            **values: Any) -> DomainError:
    """The refusal to raise: `kind` with `code` and its message (blanks from `values`)."""
    return kind(code, MESSAGES[code].format(**values), field=field)

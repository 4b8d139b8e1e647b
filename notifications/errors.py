"""Every refusal code of the notifications app (mail addresses, a player's own choices), declared
once with its one message (the same shape as `league.errors`)."""

from __future__ import annotations

from enum import StrEnum

from core.errors import Registry


class Code(StrEnum):
    BAD_EMAIL = "BAD_EMAIL"
    NOT_YOURS = "NOT_YOURS"
    BAD_REMINDER_HOURS = "BAD_REMINDER_HOURS"


MESSAGES: dict[Code, str] = {
    Code.BAD_EMAIL: "Give an e-mail address like ann@example.org.",
    Code.NOT_YOURS: "Only the player themself chooses this.",
    Code.BAD_REMINDER_HOURS: "Give a whole number of hours from 0 (no reminders) to {most}.",
}


REGISTRY = Registry(MESSAGES)
refusal = REGISTRY.refusal

"""The mail jobs: thin, idempotent callers of `notifications.services` (a retry sends nothing
twice: `notifications.services.mail.mail_send` records each mail before sending it)."""

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from notifications.services.mail import MailDeferred
from notifications.services.nights import due_night_results_send, due_reminders_send
from notifications.services.results import result_mails_send

_RETRY: dict[str, Any] = {
    # The mail server away or busy (MailDeferred) or the database away: try again later.
    "autoretry_for": (OperationalError, InterfaceError, MailDeferred),
    "retry_backoff": 2,
    "retry_backoff_max": 600,
    "max_retries": 12,
}


@shared_task(name="notifications.result_mails", ignore_result=True, **_RETRY)
def result_mails_task(game_id: int) -> int:
    return result_mails_send(game_id=game_id)


@shared_task(name="notifications.send_due_reminders", ignore_result=True, **_RETRY)
def send_due_reminders() -> int:
    """Every quarter of an hour (beat): the reminders whose time has come, and the results of
    the nights just finished."""
    return due_reminders_send() + due_night_results_send()

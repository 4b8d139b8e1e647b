"""The mail jobs: thin, idempotent callers of `notifications.services` (a retry sends nothing
twice: `notifications.services.mail.mail_send` records each mail before sending it)."""

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from notifications.services.mail import MailDeferred
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

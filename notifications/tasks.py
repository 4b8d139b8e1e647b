"""The mail jobs: thin, idempotent callers of `notifications.services` (a retry sends nothing
twice: `notifications.services.mail.mail_send` records each mail before sending it)."""

import smtplib
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from notifications.services.results import result_mails_send

_RETRY: dict[str, Any] = {
    # A mail server away (refused connection, timeout) or the database away: try again later.
    "autoretry_for": (
        OperationalError,
        InterfaceError,
        smtplib.SMTPServerDisconnected,
        smtplib.SMTPConnectError,
        ConnectionError,
        TimeoutError,
    ),
    "retry_backoff": 10,
    "retry_backoff_max": 600,
    "max_retries": 10,
}


@shared_task(name="notifications.result_mails", ignore_result=True, **_RETRY)
def result_mails_task(game_id: int) -> int:
    return result_mails_send(game_id=game_id)

"""The mail jobs: thin, idempotent callers of `notifications.services` (a retry sends nothing
twice: `notifications.services.mail.mail_send` records each mail before sending it).

The mail server away, busy or refusing (`MailDeferred`, `MailServerDown`): the job tries again
later with a growing wait (2 s doubling up to 10 min, some 3 hours in all). In-process (no
worker) it cannot wait: it gives up at once, the outage recorded for the directors' pages."""

import logging
from collections.abc import Callable
from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from notifications.services.claims import claim_mail_send
from notifications.services.mail import MailDeferred
from notifications.services.nights import due_night_results_send, due_reminders_send
from notifications.services.results import result_mails_send
from notifications.services.seat_calls import seat_call_mails_send

log = logging.getLogger(__name__)

BACKOFF_FIRST = 2
BACKOFF_MAX = 600

_RETRY: dict[str, Any] = {
    # The database away: try again later (the mail server's faults: `_retrying`).
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 2,
    "retry_backoff_max": BACKOFF_MAX,
    "max_retries": 24,
    "bind": True,
}


def _retrying(task: Task, send: Callable[[], int]) -> int:
    try:
        return send()
    except MailDeferred as deferred:
        if task.request.is_eager:  # no worker to wait: said on the directors' pages
            log.warning("%s not retried in-process: %s", task.name, deferred)
            return 0
        wait = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** task.request.retries)
        raise task.retry(exc=deferred, countdown=wait) from deferred


@shared_task(name="notifications.result_mails", ignore_result=True, **_RETRY)
def result_mails_task(self: Task, game_id: int) -> int:
    return _retrying(self, lambda: result_mails_send(game_id=game_id))


@shared_task(name="notifications.claim_mail", ignore_result=True, **_RETRY)
def claim_mail_task(self: Task, claim_id: int) -> int:
    """An invitation the mail server did not take when the director sent it."""
    return _retrying(self, lambda: int(claim_mail_send(claim_id=claim_id)))


@shared_task(name="notifications.send_due_reminders", ignore_result=True, **_RETRY)
def send_due_reminders(self: Task) -> int:
    """Every quarter of an hour (beat): the reminders whose time has come, and the results of
    the nights just finished."""
    return _retrying(self, lambda: due_reminders_send() + due_night_results_send())


@shared_task(name="notifications.seat_call_mails", ignore_result=True, **_RETRY)
def seat_call_mails_task(self: Task, rotation_id: int) -> int:
    """A rotation started: its seat calls to the players who asked for them."""
    return _retrying(self, lambda: seat_call_mails_send(rotation_id=rotation_id))

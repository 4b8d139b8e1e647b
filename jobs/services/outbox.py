"""Sending a job from a hook that runs after a commit (a result confirmed, a night started, a
merge of players): what the request stored stays stored and acknowledged whatever the broker
does. `task_send` hands the job to Celery; with the broker (Redis) away it keeps the job as a
`PendingTask` row, and `pending_resend` (the beat's `jobs.resend_pending`, every minute, and a
worker as soon as it has connected: `config.celery`) sends it once the broker is back. This is
the rule the recompute follows (its job is re-sent by the stale snapshot sweep), for the jobs
whose need cannot be read back from the database."""

import hashlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from celery import Task, current_app
from django.db import IntegrityError, transaction

from jobs.models import PendingTask

log = logging.getLogger(__name__)


def _key(name: str, args: list[Any], queue: str) -> str:
    text = json.dumps([name, args, queue], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _park(name: str, args: list[Any], queue: str) -> None:
    try:
        with transaction.atomic():
            PendingTask.objects.get_or_create(
                key=_key(name, args, queue), defaults={"task": name, "args": args, "queue": queue}
            )
    except IntegrityError:
        pass  # kept already by another request
    except Exception:  # the database away as well: nothing more can be kept
        log.exception("job %s%s neither sent nor kept", name, tuple(args))


def _apply(task: Task, args: list[Any], queue: str, countdown: float | None) -> None:
    options: dict[str, Any] = {"queue": queue} if queue else {}
    if countdown:
        options["countdown"] = countdown
    task.apply_async(tuple(args), **options)


def _registered(name: str) -> Task:
    """The task registered under `name`; the apps' task modules are imported first when it is
    not yet (Celery discovers them lazily: a web process may not have imported them)."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[name]


def task_send(
    *, task: Task | str, args: Sequence[Any] = (), queue: str | None = None,
    countdown: float | None = None,
) -> bool:
    """Send the job `task(*args)` (to `queue`, in `countdown` seconds); True when it went to the
    broker (or ran, in-process). Never raises: with the broker away the job is kept and re-sent
    within a minute of its return (logged). In-process (no worker) a job asked for later cannot
    wait: it is kept for the resend too. `task` may be the task's registered name ("jobs.plan"):
    a service then need not import the module of tasks that imports it."""
    if isinstance(task, str):
        task = _registered(task)
    arguments, where = list(args), queue or ""
    if countdown and current_app.conf.task_always_eager:
        _park(task.name, arguments, where)
        return False
    try:
        _apply(task, arguments, where, countdown)
    except Exception:
        log.warning("job %s%s not sent (broker down?); kept to be sent again", task.name,
                    tuple(arguments), exc_info=True)
        _park(task.name, arguments, where)
        return False
    return True


def pending_resend(*, limit: int = 1000) -> int:
    """Send the kept jobs, oldest first, each removed once the broker has it; stops at the first
    that cannot be sent (the broker still away: the next run tries again). The number sent."""
    sent = 0
    for row in PendingTask.objects.all()[:limit]:
        task = current_app.tasks.get(row.task)
        if task is None:
            log.warning("kept job %s is no task of this version: dropped", row.task)
        else:
            try:
                _apply(task, list(row.args), row.queue, None)
            except Exception:
                log.warning("kept jobs not sent yet (broker down?)", exc_info=True)
                break
            sent += 1
        PendingTask.objects.filter(pk=row.pk).delete()
    return sent

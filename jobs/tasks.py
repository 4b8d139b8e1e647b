"""The worker's side of jobs: thin callers of `jobs.services.jobs`. The parts of a job go out as
separate tasks, so the worker's processes (and other workers) compute them side by side."""

import uuid
from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from jobs.services import jobs, outbox

_RETRY: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 8,
}


@shared_task(name="jobs.plan", bind=True, ignore_result=True, **_RETRY)
def job_plan_task(self: Task, job_id: str) -> None:
    # The parts go to the queue the plan came from: a worker serving a dedicated queue gets them.
    queue = None if self.request.is_eager else (self.request.delivery_info or {}).get("routing_key")
    routing: dict[str, Any] = {"queue": queue} if queue else {}
    for index in jobs.job_plan(job_id=uuid.UUID(job_id)):
        job_part_task.apply_async((job_id, index), **routing)


@shared_task(name="jobs.part", ignore_result=True, **_RETRY)
def job_part_task(job_id: str, index: int) -> None:
    jobs.job_part_run(job_id=uuid.UUID(job_id), index=index)


@shared_task(name="jobs.resend_pending", ignore_result=True, **_RETRY)
def resend_pending() -> int:
    """Celery beat, every minute (and a worker just connected): the jobs kept while the broker
    was away (`jobs.services.outbox`) are sent."""
    return outbox.pending_resend()

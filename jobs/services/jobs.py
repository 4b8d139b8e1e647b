"""Writes of jobs: ask for one, plan it, compute its parts, finish or fail it.

The page asks (`job_request`): the same kind and fingerprint give the same job, so asking twice
computes once, and a failed job asked again starts afresh. The worker plans the parts
(`job_plan`), computes each one (`job_part_run`, idempotent: a part whose output is stored is
not computed again, so a retried or twice-delivered task changes nothing), and the part that
completes the set assembles the result (`_job_finish_if_complete`).
"""

import hashlib
import json
import logging
import threading
import uuid
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import F

from jobs.kinds import kind_get
from jobs.models import Job, JobPart

log = logging.getLogger(__name__)


class JobRefused(Exception):
    """A job cannot be done, for a reason the page shows as it is (in words)."""


# The part being computed in this thread or task: (job, part index, part size).
_RUNNING_PART: ContextVar[tuple[uuid.UUID, int, int] | None] = ContextVar(
    "running_part", default=None
)
PART_PROGRESS_SECONDS = 3600


def part_progress_key(job_id: uuid.UUID, index: int) -> str:
    return f"jobs:part-progress:{job_id}:{index}"


def job_part_progress(*, done: int, of: int) -> None:
    """Called by a kind's `run_part` as it goes: how far the part has got, so the page's bar
    moves within a long part. Kept in the cache, not the database: a part that writes in one
    transaction could not show its progress there. Outside a running part it does nothing."""
    running = _RUNNING_PART.get()
    if running is None or of <= 0:
        return
    job_id, index, size = running
    try:
        cache.set(part_progress_key(job_id, index), size * min(done, of) // of,
                  PART_PROGRESS_SECONDS)
    except Exception:  # the cache away: the bar jumps when the part ends, nothing else changes
        log.warning("job progress not kept", exc_info=True)


def job_fingerprint(*, kind: str, inputs: Any) -> str:
    text = json.dumps([kind, inputs], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def job_request(*, kind: str, fingerprint: str, params: dict[str, Any]) -> Job:
    """The job for these inputs, started when new (or when it failed before)."""
    kind_get(kind)  # an unknown kind is a programming error: fail here, not in the worker
    with transaction.atomic():
        job, created = Job.objects.get_or_create(
            kind=kind, fingerprint=fingerprint, defaults={"params": params}
        )
        if not created and job.status != Job.Status.FAILED:
            return job
        if not created:
            # Locked so that two pages asking again at once restart it once.
            job = Job.objects.select_for_update().get(pk=job.pk)
            if job.status != Job.Status.FAILED:
                return job
            job.part_rows.all().delete()
            job.status, job.error, job.result = Job.Status.QUEUED, "", None
            job.done = job.total = job.parts = job.parts_done = 0
            job.params = params
            job.save()
        job_id = job.pk
        if settings.JOBS_RUNNER != "inline":
            transaction.on_commit(lambda: _dispatch_plan(job_id))
    if settings.JOBS_RUNNER == "inline":  # the tests: done before the page answers
        job_run_inline(job_id=job_id)
        job.refresh_from_db()
    return job


def _dispatch_plan(job_id: uuid.UUID) -> None:
    runner = settings.JOBS_RUNNER
    if runner == "celery":
        from jobs.services.outbox import task_send

        kind = Job.objects.filter(pk=job_id).values_list("kind", flat=True).first()
        queue = settings.BULK_QUEUE if kind is not None and kind_get(kind).bulk else None
        # its parts follow the plan's queue; the broker away: sent later
        # by its name: jobs.tasks imports this module
        task_send(task="jobs.plan", args=[str(job_id)], queue=queue)
    elif runner == "thread":
        threading.Thread(
            target=_run_in_thread, args=(job_id,), daemon=True, name=f"job-{job_id}"
        ).start()
    else:
        raise ValueError(f"JOBS_RUNNER must be celery, thread or inline, not {runner!r}")


def _run_in_thread(job_id: uuid.UUID) -> None:
    """The embedded mode's worker: the job runs beside the web server, which answers at once."""
    try:
        job_run_inline(job_id=job_id)
    finally:
        connection.close()


def job_run_inline(*, job_id: uuid.UUID) -> None:
    """Plan and compute every part here, one after the other (embedded mode and tests)."""
    for index in job_plan(job_id=job_id):
        job_part_run(job_id=job_id, index=index)


def job_plan(*, job_id: uuid.UUID) -> list[int]:
    """Split the job into its parts (once); the indexes of the parts still to compute."""
    job = Job.objects.get(pk=job_id)
    if job.status in (Job.Status.DONE, Job.Status.FAILED):
        return []
    if job.status == Job.Status.QUEUED:
        try:
            planned = kind_get(job.kind).plan(job.params)
        except Exception as error:
            _job_fail(job_id, error)
            return []
        with transaction.atomic():
            JobPart.objects.bulk_create(
                [
                    JobPart(job_id=job_id, index=index, size=size, input=part_input)
                    for index, (size, part_input) in enumerate(planned)
                ],
                ignore_conflicts=True,
            )
            Job.objects.filter(pk=job_id, status=Job.Status.QUEUED).update(
                status=Job.Status.RUNNING,
                parts=len(planned),
                total=sum(size for size, _ in planned),
            )
        if not planned:
            _job_finish_if_complete(job_id)
    return list(
        JobPart.objects.filter(job_id=job_id, output__isnull=True).values_list("index", flat=True)
    )


def job_part_run(*, job_id: uuid.UUID, index: int) -> None:
    """Compute one part, unless it is computed already; the last part finishes the job."""
    part = JobPart.objects.select_related("job").get(job_id=job_id, index=index)
    if part.output is None and part.job.status == Job.Status.RUNNING:
        running = _RUNNING_PART.set((job_id, index, part.size))
        try:
            output = kind_get(part.job.kind).run_part(part.job.params, part.input)
        except Exception as error:
            _job_fail(job_id, error)
            return
        finally:
            _RUNNING_PART.reset(running)
        with transaction.atomic():
            stored = JobPart.objects.filter(pk=part.pk, output__isnull=True).update(
                output={"value": output}
            )
            if stored:
                Job.objects.filter(pk=job_id).update(
                    done=F("done") + part.size, parts_done=F("parts_done") + 1
                )
    _job_finish_if_complete(job_id)


def _job_finish_if_complete(job_id: uuid.UUID) -> None:
    with transaction.atomic():
        # Locked: two last parts finishing at once on two worker processes assemble it once.
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status != Job.Status.RUNNING or job.parts_done < job.parts:
            return
        stored = job.part_rows.order_by("index").values_list("output", flat=True)
        outputs = [row["value"] for row in stored if row is not None]
        try:
            job.result = kind_get(job.kind).finish(job.params, outputs)
        except Exception as error:
            failure = error  # `error` is unbound once the except block ends
            transaction.on_commit(lambda: _job_fail(job_id, failure))
            return
        job.status = Job.Status.DONE
        job.save(update_fields=["result", "status", "updated_at"])
        job.part_rows.all().delete()  # the outputs are in the result now


def _job_fail(job_id: uuid.UUID, error: Exception) -> None:
    if isinstance(error, OperationalError | InterfaceError):
        raise error  # the database is away: the task is retried (jobs.tasks), the job goes on
    if isinstance(error, JobRefused):
        words = str(error)
    else:
        log.exception("job %s failed", job_id, exc_info=error)
        words = (
            "The job stopped because of an error on the server. It has been logged; "
            "asking again starts it afresh."
        )
    Job.objects.filter(pk=job_id).exclude(status=Job.Status.DONE).update(
        status=Job.Status.FAILED, error=words
    )

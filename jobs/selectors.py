"""Reads of jobs, for the pages."""

import logging
import uuid
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from jobs.kinds import kind_get
from jobs.models import Job, JobPart
from jobs.services.jobs import part_progress_key

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class JobProgress:
    id: uuid.UUID
    status: str
    done: int
    total: int
    words: str
    unit: str
    error: str

    @property
    def percent(self) -> int:
        if self.status == Job.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0

    def as_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "percent": self.percent,
            "error": self.error,
            "words": self.words,
            "unit": self.unit,
        }


def job_progress(*, job: Job) -> JobProgress:
    kind = kind_get(job.kind)
    return JobProgress(
        id=job.pk,
        status=job.status,
        done=min(job.done + _parts_under_way(job), job.total),
        total=job.total,
        words=kind.words,
        unit=kind.unit,
        error=job.error,
    )


def job_by_id(*, job_id: uuid.UUID) -> Job | None:
    return Job.objects.filter(pk=job_id).first()


def _parts_under_way(job: Job) -> int:
    """What the parts still running have done so far (`jobs.services.jobs.job_part_progress`)."""
    if job.status != Job.Status.RUNNING:
        return 0
    running = JobPart.objects.filter(job=job, output__isnull=True).values_list("index", flat=True)
    keys = [part_progress_key(job.pk, index) for index in running]
    try:
        return sum(int(units) for units in cache.get_many(keys).values()) if keys else 0
    except Exception:  # the cache away: the bar shows the parts done
        log.warning("job progress unreadable", exc_info=True)
        return 0

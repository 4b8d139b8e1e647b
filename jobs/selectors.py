"""Reads of jobs, for the pages."""

import uuid
from dataclasses import dataclass
from typing import Any

from jobs.kinds import kind_get
from jobs.models import Job


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
        done=job.done,
        total=job.total,
        words=kind.words,
        unit=kind.unit,
        error=job.error,
    )


def job_by_id(*, job_id: uuid.UUID) -> Job | None:
    return Job.objects.filter(pk=job_id).first()

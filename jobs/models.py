"""A job: long work (what-if re-scoring, imports, recomputes) done by the worker in parts, with
its progress for the page that asked for it and its result kept under a fingerprint of its
inputs, so asking twice computes once."""

import uuid

from django.db import models


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for the worker"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=40)
    fingerprint = models.CharField(max_length=64, help_text="sha256 of the job's inputs")
    params = models.JSONField(default=dict)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    parts = models.PositiveIntegerField(default=0)
    parts_done = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="Why the job failed, in words")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "fingerprint"], name="job_once_per_inputs"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.status} {self.done}/{self.total}"


class JobPart(models.Model):
    """One part of a job: its input, and its output once computed (a retried part whose output is
    there is not computed again)."""

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="part_rows")
    index = models.PositiveIntegerField()
    size = models.PositiveIntegerField()
    input = models.JSONField()
    output = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="job_part_once"),
        ]

    def __str__(self) -> str:
        return f"part {self.index} of {self.job_id}"


class PendingTask(models.Model):
    """A job that could not be handed to the worker when it was asked for (the broker, Redis,
    away; or asked for later while tasks run in-process): `jobs.resend_pending` sends it (Celery
    beat every minute, and a worker as soon as it has connected). Every job is idempotent and
    recomputes from the database, so one sent twice changes nothing."""

    task = models.CharField(max_length=100, help_text="The Celery task's name")
    args = models.JSONField(default=list)
    queue = models.CharField(max_length=60, blank=True)
    key = models.CharField(max_length=64, unique=True, help_text="sha256 of task, args and queue")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)} waiting to be sent"

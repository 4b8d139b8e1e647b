"""Compute the cross-club ladder now (`analytics.ladder.jobs.ladder_job`): one part per club
that shares its ratings, on the worker (in this process without a broker), with a progress bar
over the parts."""

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from analytics.ladder.jobs import ladder_job
from jobs.models import Job

FINISHED = (Job.Status.DONE, Job.Status.FAILED)


class Command(BaseCommand):
    help = "Compute the cross-club ladder from the games of every club that shares its ratings."

    def handle(self, *args: Any, **options: Any) -> None:
        job = ladder_job()
        with tqdm(total=job.parts or None, unit="clubs", desc="ladder") as bar:
            while job.status not in FINISHED:
                time.sleep(0.5)
                job.refresh_from_db()
                bar.total = job.parts
                bar.update(job.parts_done - bar.n)
        if job.status == Job.Status.FAILED:
            raise CommandError(job.error)
        result = job.result or {}
        self.stdout.write(f"Ladder computed: {result.get('players', 0)} players of "
                          f"{result.get('clubs', 0)} clubs, {result.get('games', 0)} games.")

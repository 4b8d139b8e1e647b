"""Rebuild standings, ratings and statistics from the database (all clubs, or one), fanned out
over the worker's processes (`analytics.tasks.recompute_fanout`), with a progress bar over the
parts."""

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from analytics import tasks
from league.models import Club


class Command(BaseCommand):
    help = ("Recompute every standings snapshot, rating and statistic of all clubs (or --club), "
            "in parts the worker computes (in this process without a broker).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="the club's slug (default: every club)")
        parser.add_argument("--no-wait", action="store_true",
                            help="send the parts to the worker and return at once")

    def handle(self, *args: Any, club: str | None = None, no_wait: bool = False,
               **options: Any) -> None:
        clubs = Club.objects.order_by("pk")
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"No club with the slug {club!r}.")
        club_ids = list(clubs.values_list("pk", flat=True))
        plan = tasks.recompute_fanout(club_ids, queue=settings.BULK_QUEUE)  # behind live work
        if plan.done_here:  # no broker: the parts ran here, one after the other
            self.stdout.write(f"{len(club_ids)} club(s) recomputed in {len(plan.parts)} parts")
            return
        if no_wait:
            self.stdout.write(f"{len(plan.parts)} parts sent for {len(club_ids)} club(s)")
            return
        results = [result for _, result in plan.parts]
        with tqdm(total=len(results), unit="parts", desc="recompute") as bar:
            while (done := sum(result.ready() for result in results)) < len(results):
                bar.update(done - bar.n)
                time.sleep(0.5)
            bar.update(done - bar.n)
        failed = [name for name, result in plan.parts if result.failed()]
        for result in results:
            result.forget()  # read: nothing left behind in the result backend
        if failed:
            raise CommandError(f"{len(failed)} part(s) failed: {', '.join(sorted(set(failed)))}")
        self.stdout.write(f"{len(club_ids)} club(s) recomputed in {len(results)} parts")

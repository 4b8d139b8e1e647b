import logging
import time

from django.core.management.base import BaseCommand

from league.models import Event
from site_pages.demo import DIRECTOR_PASSWORD, DIRECTOR_USERNAME, demo_load


class Command(BaseCommand):
    help = (
        "Load the demo club (players, a league season of weekly nights, a finished tournament, "
        "results from the engine's simulator). Does nothing when the demo is already loaded. "
        "HANDFOOT_TODAY=YYYY-MM-DD moves its dates; its content is the same on every day."
    )

    def handle(self, *args: object, **options: object) -> None:
        started = time.monotonic()
        # One line per analytics job run in-process would bury the summary.
        trace = logging.getLogger("celery.app.trace")
        level = trace.level
        trace.setLevel(logging.WARNING)
        try:
            demo = demo_load()
        finally:
            trace.setLevel(level)
        if demo is None:
            self.stdout.write("Demo data is already loaded.")
            return
        events = Event.objects.filter(club=demo.club)
        nights = events.filter(kind=Event.Kind.LEAGUE_NIGHT).count()
        self.stdout.write(self.style.SUCCESS(
            f"Loaded the demo club {demo.club.name} in {time.monotonic() - started:.1f} s: "
            f"{len(demo.players)} players, {nights} league nights and "
            f"{events.count() - nights} tournaments, {demo.games} games played."))
        self.stdout.write(f"Director login: {DIRECTOR_USERNAME} / {DIRECTOR_PASSWORD}")

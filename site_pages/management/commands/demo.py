import logging
import secrets
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.models import Event
from site_pages.demo import (
    DIRECTOR_PASSWORD,
    DIRECTOR_USERNAME,
    demo_load,
    demo_move,
)


class Command(BaseCommand):
    help = (
        "Load the demo club (players, a league season of weekly nights, a finished tournament, "
        "results from the engine's simulator); its content is the same on every day, its dates "
        "follow today (HANDFOOT_TODAY=YYYY-MM-DD moves its clock). When the demo is already "
        "loaded, only its dates move, by whole weeks, if today's week is another than its own."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--yes-on-production", action="store_true",
            help="Load the demo even under DJANGO_ENV=production; the director and scorer then "
                 "get a random password, printed once.")

    def handle(self, *args: object, **options: object) -> None:
        password = None
        if getattr(settings, "PRODUCTION", False):
            if not options["yes_on_production"]:
                raise CommandError(
                    "This site runs with production settings (DJANGO_ENV=production): the demo "
                    "would add a superuser called director and a made-up club. Nothing was "
                    "changed. To load it anyway, run: python manage.py demo --yes-on-production")
            password = secrets.token_urlsafe(12)
        started = time.monotonic()
        # One line per analytics job run in-process would bury the summary.
        trace = logging.getLogger("celery.app.trace")
        level = trace.level
        trace.setLevel(logging.WARNING)
        try:
            demo = demo_load(password=password)
        finally:
            trace.setLevel(level)
        if demo is None:
            self._already_loaded()
            return
        events = Event.objects.filter(club=demo.club)
        nights = events.filter(kind=Event.Kind.LEAGUE_NIGHT).count()
        self.stdout.write(self.style.SUCCESS(
            f"Loaded the demo club {demo.club.name} in {time.monotonic() - started:.1f} s: "
            f"{len(demo.players)} players, {nights} league nights and "
            f"{events.count() - nights} tournaments, {demo.games} games played."))
        if password is None:
            self.stdout.write(f"Director login: {DIRECTOR_USERNAME} / {DIRECTOR_PASSWORD}")
        else:
            self.stdout.write(
                f"Director login: {DIRECTOR_USERNAME} / {password} (also the scorer's password). "
                "It is shown only this once: keep it now, or set another one with "
                f"python manage.py changepassword {DIRECTOR_USERNAME}")

    def _already_loaded(self) -> None:
        """The demo is there: move its dates by whole weeks to follow today (or HANDFOOT_TODAY),
        and say so in one line."""
        moved = demo_move()
        night = f"{moved.night:%A %-d %B %Y}" if moved else "?"
        if moved is None or moved.weeks == 0:
            self.stdout.write(f"Demo data is already loaded; its dates already follow today "
                              f"(tonight's league night: {night}). Nothing changed.")
            return
        weeks = abs(moved.weeks)
        self.stdout.write(self.style.SUCCESS(
            f"Demo data is already loaded; moved its dates {weeks} week{'s' if weeks != 1 else ''} "
            f"{'later' if moved.weeks > 0 else 'earlier'} (whole weeks, so nights stay on their "
            f"weekday and tonight's is {night}; results and seating unchanged)."))

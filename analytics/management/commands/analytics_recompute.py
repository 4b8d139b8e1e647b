"""Rebuild standings, ratings and statistics from the database (all clubs, or one)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from analytics import services
from league.models import Club


class Command(BaseCommand):
    help = "Recompute every standings snapshot, rating and statistic of all clubs (or --club)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="the club's slug (default: every club)")

    def handle(self, *args: Any, club: str | None = None, **options: Any) -> None:
        clubs = Club.objects.all()
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"No club with the slug {club!r}.")
        for item in clubs:
            services.club_recompute(club_id=item.pk)
            self.stdout.write(f"{item.slug}: recomputed")

import json

from django.core.management.base import BaseCommand, CommandError

from league.models import Club
from site_pages.backup import ExportEncoder, club_export


class Command(BaseCommand):
    help = (
        "Write a club's whole record (players, events, seating, every submission and result "
        "version with history) as versioned JSON: manage.py export_club SLUG > club.json"
    )

    def add_arguments(self, parser) -> None:  # noqa: ANN001
        parser.add_argument("slug", help="The club's slug (its address on the site).")

    def handle(self, *args, slug: str, **options) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"No club has the slug {slug!r}.")
        json.dump(club_export(club=club), self.stdout, cls=ExportEncoder, indent=1)
        self.stdout.write("")

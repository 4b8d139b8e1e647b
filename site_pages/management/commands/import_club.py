import json
import sys

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from site_pages.backup import club_import


class Command(BaseCommand):
    help = (
        "Restore a club from export_club's JSON into an empty database, then recompute its "
        "standings, ratings and statistics: manage.py import_club club.json (or - for stdin)"
    )

    def add_arguments(self, parser) -> None:  # noqa: ANN001
        parser.add_argument("file", help="The export file, or - to read standard input.")

    def handle(self, *args, file: str, **options) -> None:
        try:
            with (open(file) if file != "-" else sys.stdin) as source:  # noqa: SIM115
                data = json.load(source)
        except (OSError, ValueError) as err:
            raise CommandError(f"Cannot read {file}: {err}") from None
        try:
            club = club_import(data=data)
        except DomainError as err:
            raise CommandError(err.message) from None
        self.stdout.write(self.style.SUCCESS(f"Restored {club.name} ({club.slug})."))

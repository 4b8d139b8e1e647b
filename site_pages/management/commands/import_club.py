import json
import sys

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from site_pages.backup import ImportResult, club_import


class Command(BaseCommand):
    help = (
        "Restore a club from export_club's JSON as a new club (never over one that exists), then "
        "recompute its standings, ratings and statistics: manage.py import_club club.json "
        "(or - for stdin) [--link-accounts] [--dry-run]"
    )

    def add_arguments(self, parser) -> None:  # noqa: ANN001
        parser.add_argument("file", help="The export file, or - to read standard input.")
        parser.add_argument(
            "--link-accounts", action="store_true",
            help="Attach the file's accounts to this site's accounts of the same username "
                 "(without it, a username that exists here is refused).")
        parser.add_argument("--dry-run", action="store_true",
                            help="Say what would be restored, and store nothing.")

    def handle(self, *args, file: str, link_accounts: bool, dry_run: bool, **options) -> None:
        try:
            with (open(file) if file != "-" else sys.stdin) as source:  # noqa: SIM115
                data = json.load(source)
        except (OSError, ValueError) as err:
            raise CommandError(f"Cannot read {file}: {err}") from None
        try:
            result = club_import(data=data, link_accounts=link_accounts, dry_run=dry_run)
        except DomainError as err:
            raise CommandError(err.message) from None
        self.report(result)

    def report(self, result: ImportResult) -> None:
        club = result.club
        if club is None:  # a restore always makes its club; only a failed one has none
            raise CommandError("Nothing was restored.")
        made = ", ".join(f"{count} {name}" for name, count in result.counts.items())
        if result.dry_run:
            self.stdout.write(f"Dry run, nothing stored. Would restore {club.name} ({club.slug}): "
                              f"{made}.")
        else:
            self.stdout.write(self.style.SUCCESS(f"Restored {club.name} ({club.slug}): {made}."))
        verb = "would be" if result.dry_run else "were"
        if result.created_accounts:
            self.stdout.write(f"New accounts (no password yet, no admin rights) {verb} made for: "
                              f"{', '.join(result.created_accounts)}.")
        if result.linked_accounts:
            self.stdout.write(f"Records of {', '.join(result.linked_accounts)} {verb} attached to "
                              "this site's accounts of the same username.")
        if result.dry_run:
            return
        self.stdout.write("Next steps:")
        for name in result.directors:
            if name in result.created_accounts:
                self.stdout.write(f"  give the director {name} a password:  "
                                  f".venv/bin/python manage.py changepassword {name}")
        if result.directors:
            self.stdout.write(f"  they can then sign in and run the club as its director "
                              f"({', '.join(result.directors)}); to also let one use /admin/, "
                              "tick 'Staff status' for them there, signed in as a superuser "
                              "(.venv/bin/python manage.py createsuperuser makes one).")
        else:
            self.stdout.write("  the club has no director: add one in /admin/ (Memberships).")

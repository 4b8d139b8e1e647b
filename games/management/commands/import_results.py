"""Import a club's past results from a spreadsheet (CSV, XLSX or ODS).

    python manage.py import_results FILE --club SLUG [--create-club "Name"] [--season "Name"]
        [--day-first | --month-first] [--profile CLUB] [--map 'Header=kind,...']
        [--dry-run] [--json]

Exit 0 when imported (or, with --dry-run, importable, or already imported: nothing changes);
1 when refused, every problem named by sheet, row and column. See docs/results.md.
"""

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from core.errors import DomainError
from games import spreadsheets
from games.services import imports
from league.models import Club
from league.services.clubs import club_create


class Command(BaseCommand):
    help = "Check and import past results from a spreadsheet into a club (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="A .csv, .xlsx or .ods file.")
        parser.add_argument("--club", required=True, help="The club's slug.")
        parser.add_argument("--create-club", metavar="NAME",
                            help="Create the club under this name if no club has the slug.")
        parser.add_argument("--season", help="Put the nights in this season (made if missing).")
        order = parser.add_mutually_exclusive_group()
        order.add_argument("--day-first", action="store_const", const=True, dest="day_first",
                           help="Dates such as 3/4/2026 are day first (3 April); remembered.")
        order.add_argument("--month-first", action="store_const", const=False, dest="day_first",
                           help="Dates such as 3/4/2026 are month first (4 March); remembered.")
        parser.add_argument("--profile", metavar="CLUB",
                            help="Read headers as the import page was told for this club "
                                 "(its slug): every mapping saved there.")
        parser.add_argument("--map", metavar="'Header=kind,...'",
                            help="What headers hold, e.g. 'Pts=score,Who=team' (kinds as on the "
                                 "import page: date, table, team, s1:total, round:1 ...).")
        parser.add_argument("--dry-run", action="store_true", help="Check only; store nothing.")
        parser.add_argument("--json", action="store_true", help="Print the summary as JSON.")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as err:
            self._refuse(options, f"Cannot read {path}: {err.strerror}.")
        club = self._club(options)
        # The bar counts the games as they are stored (the file is read and checked first).
        bar = tqdm(desc="Importing", unit="game", file=sys.stderr,
                   disable=options["json"] or options["verbosity"] == 0 or len(data) < 200_000)

        def stored(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        try:
            plan = imports.results_import(
                club=club, file_name=path.name, data=data, season_name=options["season"],
                day_first=options["day_first"], dry_run=options["dry_run"], progress=stored,
                mapping=self._mapping(options))
        except DomainError as refused:
            bar.close()
            self._refuse(options, refused.message)
        if plan.imported is not None:
            stored(len(plan.games), len(plan.games))
        bar.close()
        if options["json"]:
            self.stdout.write(json.dumps(plan.to_dict(), indent=2, ensure_ascii=False))
        else:
            for problem in plan.problems:
                self.stderr.write(problem.words())
            self.stdout.write(plan.summary())
        if plan.problems:
            sys.exit(1)

    def _mapping(self, options: dict[str, Any]) -> dict[str, str] | None:
        """--profile's saved mapping, then --map's (which wins); raises a refusal in words."""
        mapping: dict[str, str] = {}
        if options.get("profile"):
            source = Club.objects.filter(slug=options["profile"]).first()
            if source is None:
                self._refuse(options, f"No club has the slug {options['profile']!r} (--profile).")
            mapping.update(imports.mapping_saved(club=source))
        if options.get("map"):
            try:
                mapping.update(imports.mapping_parse(text=options["map"]))
            except DomainError:
                kinds = ", ".join(k for k in spreadsheets.KIND_WORDS if ":" not in k[2:])
                self._refuse(options, "--map takes Header=kind pairs separated by commas, a kind "
                                      f"being one of: {kinds}, s1:total, s2:round:1 ...")
        return mapping or None

    def _club(self, options: dict[str, Any]) -> Club:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None and options["create_club"]:
            club = club_create(name=options["create_club"])
            Club.objects.filter(pk=club.pk).update(slug=options["club"])
            club.refresh_from_db()
        if club is None:
            self._refuse(options, f"No club has the slug {options['club']!r} (add --create-club "
                                  "\"Name\" to create it).")
        return club

    def _refuse(self, options: dict[str, Any], message: str) -> NoReturn:
        if options["json"]:
            self.stdout.write(json.dumps({"importable": False, "summary": message,
                                          "problems": [{"message": message, "words": message}]}))
        else:
            self.stderr.write(message)
        sys.exit(1)

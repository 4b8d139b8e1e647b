"""``manage.py check_seating FILE``: check a seating (``schedule --json`` output, or a CSV of
rotation, table, seat, player) with the independent checker (`league.seating.checker`), print
each player's partners, opponents, sit-outs and first deals, and exit 1 with every problem in
words when it is not sound. A JSON file's `wishes` are checked too (kept, or a reason given)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.seating.checker import (
    MAX_PLAYERS,
    SeatingCheck,
    SeatingFileError,
    seating_check,
    seating_from_csv,
    seating_from_json,
    wishes_from_json,
)

MAX_FILE_BYTES = 20_000_000


class Command(BaseCommand):
    help = ("Check a seating (schedule --json output, or a CSV of rotation, table, seat, player): "
            "exit 0 when it is sound, 1 with each problem in words.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the seating: .json (schedule --json) or .csv")
        parser.add_argument("--players", type=int, default=None,
                            help="the night's players are 1..N (default: everyone in the file)")

    def handle(self, *args: object, **options: Any) -> None:
        path = Path(str(options["file"]))
        players: int | None = options["players"]  # argparse: type=int
        if players is not None and not 1 <= players <= MAX_PLAYERS:
            raise CommandError(f"--players must be between 1 and {MAX_PLAYERS}.")
        check = self._check(path, players)
        self._print_counts(check)
        if check.sound:
            self.stdout.write(self.style.SUCCESS("The seating is sound."))
            return
        for problem in check.problems:
            self.stderr.write(f"- {problem}")
        raise CommandError(f"The seating is not sound: {len(check.problems)} problem(s) above.",
                           returncode=1)

    def _check(self, path: Path, players: int | None) -> SeatingCheck:
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise CommandError(f"{path} is larger than {MAX_FILE_BYTES // 1_000_000} MB.")
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from error
        try:
            if path.suffix.lower() == ".csv":
                return seating_check(seating_from_csv(text, players), players=players)
            rotations, report = seating_from_json(text)
            return seating_check(rotations, players=players, report=report,
                                 wishes=wishes_from_json(text))
        except SeatingFileError as error:
            raise CommandError(f"{path} is not a seating: {error}") from error

    def _print_counts(self, check: SeatingCheck) -> None:
        figures = check.figures()
        self.stdout.write(f"Players: {len(check.players)}. Partner repeats: "
                          f"{figures['partner_repeats']}. Two players meet as opponents "
                          f"{figures['opponent_min']} to {figures['opponent_max']} times.")
        self.stdout.write("player  partners  opponents  sat out  first deals")
        for player in check.players:
            partners = sum(n for pair, n in check.partners.items() if player in pair)
            opponents = sum(n for pair, n in check.opponents.items() if player in pair)
            self.stdout.write(f"{player:>6}  {partners:>8}  {opponents:>9}  "
                              f"{figures['sit_outs'][player]:>7}  {figures['deals'][player]:>11}")

"""Import many move logs into an event's games.

    python manage.py import_logs PATH... --event SLUG [--user USERNAME]

Each file (or each *.json in a folder) is one game's move log. The game is the one named by a
top-level "game" hint (its id or one of its sides' codes), else the event's game whose players
sit in the log's `seats` order (by player slug); among several, the one still waiting for a result.
Bad files are reported and skipped; the command exits non-zero if any failed. Re-running is
safe: a file already imported for a game is recognised and not entered twice. The logs are
checked and stored `--batch-size` at a time (`games.services.bulk_import.logs_import`: a
constant number of SQL queries per batch), with a progress bar; `--workers` processes check the
logs ahead of the writes (one per core by default).
"""

import argparse
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.models import Submission
from games.services import Entrant
from games.services.bulk_import import LogOutcome, logs_import
from league.models import Event


class Command(BaseCommand):
    help = "Check and import move logs (one game each) into an event's games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="Log files, or folders of *.json logs.")
        parser.add_argument("--event", required=True, help="The event's slug.")
        parser.add_argument("--user", help="Enter the results as this user (default: 'import').")
        parser.add_argument(
            "--workers",
            type=_workers,
            default=min(os.cpu_count() or 1, 8),
            help="Processes that check the logs ahead of the writes, 1 to 64 "
            "(default: one per core, at most 8).",
        )
        parser.add_argument(
            "--batch-size",
            type=_batch_size,
            default=500,
            help="Logs checked and stored together, 1 to 5000 (default 500).",
        )

    def handle(
        self,
        *args: Any,
        paths: list[str],
        event: str,
        user: str | None,
        batch_size: int = 200,
        workers: int = 1,
        **options: Any,
    ) -> None:
        the_event = Event.objects.filter(slug=event).first()
        if the_event is None:
            raise CommandError(f"No event has the slug {event!r}.")
        entrant = self._entrant(user)
        files = _expand(paths)
        verbose = options["verbosity"] > 1
        failed = 0
        # No monitor thread: the check-ahead pool forks this process, which should hold one thread.
        tqdm.monitor_interval = 0
        bar = tqdm(
            total=len(files), desc="Importing", unit="log", disable=options["verbosity"] == 0
        )

        def failure(name: str, message: str) -> None:
            nonlocal failed
            failed += 1
            tqdm.write(f"FAILED {name}: {message}", file=self.stderr._out)

        def done(outcome: LogOutcome) -> None:
            bar.update(1)
            if not outcome.ok:
                failure(outcome.name, outcome.message)
            elif verbose:
                tqdm.write(f"ok {outcome.name}: {outcome.message}", file=self.stdout._out)

        def read() -> Iterator[tuple[str, bytes]]:
            for path in files:
                try:
                    raw = path.read_bytes()
                except OSError as err:
                    bar.update(1)
                    failure(str(path), f"cannot read the file ({err.strerror})")
                    continue
                yield str(path), raw

        with bar:
            logs_import(
                event=the_event,
                documents=read(),
                entrant=entrant,
                batch_size=batch_size,
                progress=done,
                workers=workers,
            )
        summary = f"{len(files) - failed} of {len(files)} logs imported."
        if failed:
            raise CommandError(f"{summary} {failed} failed (see above).")
        self.stdout.write(self.style.SUCCESS(summary))

    def _entrant(self, username: str | None) -> Entrant:
        if username is None:
            return Entrant(key="import", via=Submission.Via.IMPORT)
        found = get_user_model().objects.filter(username=username).first()
        if found is None:
            raise CommandError(f"No user is called {username!r}.")
        return Entrant.for_user(found, via=Submission.Via.IMPORT)


def _whole_number(least: int, most: int, refused: str) -> Callable[[str], int]:
    """An option's type: a whole number from `least` to `most`, else `refused` (in words)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(refused)
        return value

    return parse


_batch_size = _whole_number(1, 5000, "a batch is 1 to 5000 logs.")
_workers = _whole_number(1, 64, "workers are 1 to 64 processes.")


def _expand(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    return files

"""Keep the running public events' polled fragments as files for the proxy
(`site_pages.live_files`): production runs it beside the web pools (docker-compose.yml's
`live-pages`); without it nginx asks Django for every poll, as in the embedded mode."""

import signal
import time
from pathlib import Path
from types import FrameType
from typing import cast

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, close_old_connections

from site_pages.live_files import LivePages

INTERVAL_RANGE = (0.05, 10.0)
ALIVE_FILE = "publisher-alive"  # touched every ALIVE_SECONDS (docker-compose.yml's health check)
ALIVE_SECONDS = 10.0


class Command(BaseCommand):
    help = ("Keep the polled fragments of every running public event as files for the proxy, "
            "drawn again within --interval seconds of a change; the files go when it stops.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--interval", type=float, default=0.2,
                            help="Seconds between two looks at the events (0.05 to 10; 0.2).")
        parser.add_argument("--root", type=Path, default=None,
                            help="Where the files go (default: the LIVE_PAGES_ROOT setting).")
        parser.add_argument("--once", action="store_true",
                            help="Bring the files up to date once, keep them, and stop.")

    def handle(self, *args: object, **options: object) -> None:
        interval = cast(float, options["interval"])  # argparse's type=float
        if not INTERVAL_RANGE[0] <= interval <= INTERVAL_RANGE[1]:
            raise CommandError(f"--interval must be between {INTERVAL_RANGE[0]} and "
                               f"{INTERVAL_RANGE[1]} seconds, not {interval}.")
        root = cast(Path | None, options["root"]) or Path(settings.LIVE_PAGES_ROOT)
        pages = LivePages(root=root)
        if options["once"]:
            drawn = pages.tick()
            self.stdout.write(f"{len(drawn)} event(s) drawn into {root}.")
            return
        self.stdout.write(f"Keeping the live fragments in {root} (every {interval} s).")
        self._run(pages, interval)

    def _run(self, pages: LivePages, interval: float) -> None:
        stopping: list[int] = []

        def stop(signum: int, frame: FrameType | None) -> None:
            stopping.append(signum)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        pages.clear()  # whatever an earlier run left may be stale
        alive = pages.root / ALIVE_FILE
        alive_at = 0.0
        try:
            while not stopping:
                started = time.monotonic()
                if started - alive_at >= ALIVE_SECONDS:
                    pages.root.mkdir(parents=True, exist_ok=True)
                    alive.touch()
                    alive_at = started
                try:
                    pages.tick()
                except DatabaseError:
                    # The database away: nothing can be known fresh, so nothing is served.
                    self.stderr.write("The database is unreachable; the files are removed "
                                      "until it answers again.")
                    pages.clear()
                    close_old_connections()
                time.sleep(max(0.0, interval - (time.monotonic() - started)))
        finally:
            pages.clear()
            alive.unlink(missing_ok=True)

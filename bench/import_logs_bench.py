"""What `manage.py import_logs` costs for many move logs (issue 25: "bulk import in bulk").

Run: .venv/bin/python bench/import_logs_bench.py [--logs 1000] [--distinct 20] [--path both]
     DATABASE_URL=postgres://postgres@127.0.0.1:5432/hf_d .venv/bin/python bench/import_logs_bench.py

Creates a test database (SQLite in memory, or `test_<name>` on DATABASE_URL's server) and one
event with `--logs` games at as many tables (four players each, first dealer the last seat).
Each game gets a simulated classic move log (`handfoot.simulate.simulate_game`; `--distinct`
different seeds, reused with each table's players as the log's `seats`: the simulator takes
about 0.2 s a game), written as one file per game in a temporary folder. Then the command imports
the folder once (every log new) and a second time (every log already imported); the time, the
SQL queries and the queries per log of each run are printed beside the target, with the load
average. `--path one-by-one` measures instead what the command did before the bulk path (each
log through `games.services.submission_create`, under the same key), in a second event of the
same size; `--path both` (the default) measures both, one-by-one first. Target (issue 25): at least 10 x faster than before for 5,000 logs (before: 34 ms and
about 17 queries a log), a constant number of queries per batch.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import logging  # noqa: E402

import django  # noqa: E402

django.setup()
logging.disable(logging.WARNING)

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

BEFORE_MS_PER_LOG = 34.0  # issue 25, measured before the bulk path (5,000 logs in 172 s)
TARGET_SPEEDUP = 10


def loadavg() -> str:
    with open("/proc/loadavg") as f:
        return f.read().strip()


def make_event(logs: int) -> Any:
    """One running event with `logs` games, each at its own table of four new players."""
    from league.models import Game, Player, Rotation, Seat, Table
    from tests.games.factories import running_event

    event = running_event()
    rotation = Rotation.objects.create(event=event, number=1)
    tables = Table.objects.bulk_create(
        [Table(rotation=rotation, number=n + 1) for n in range(logs)]
    )
    players = Player.objects.bulk_create(
        [
            Player(club=event.club, slug=f"t{n}-s{i}", name=f"Table {n} seat {i}")
            for n in range(logs)
            for i in range(4)
        ]
    )
    Seat.objects.bulk_create(
        [
            Seat(
                rotation=rotation,
                table=table,
                player=players[4 * n + i],
                seat_number=i,
                side=i % 2,
            )
            for n, table in enumerate(tables)
            for i in range(4)
        ]
    )
    Game.objects.bulk_create([Game(table=table, first_dealer=3) for table in tables])
    return event


def write_logs(folder: Path, logs: int, distinct: int) -> None:
    from handfoot.simulate import simulate_game

    bases = [simulate_game(seed=seed) for seed in range(distinct)]
    for n in range(logs):
        document = {**bases[n % distinct], "seats": [f"t{n}-s{i}" for i in range(4)]}
        (folder / f"log-{n:06d}.json").write_text(json.dumps(document))


def one_by_one(folder: Path, event: Any) -> str:
    """The command before the bulk path: each log through submission_create."""
    import hashlib

    from games import services
    from games.models import Submission
    from games.services import Entrant
    from handfoot.checking import parse_document
    from league.models import Game

    entrant = Entrant(key="import", via=Submission.Via.IMPORT)
    games = {
        tuple(s.player.slug for s in sorted(g.table.seats.all(), key=lambda s: s.seat_number)): g
        for g in Game.objects.filter(table__rotation__event=event).prefetch_related(
            "table__seats__player"
        )
    }
    files = sorted(folder.glob("*.json"))
    for path in files:
        raw = path.read_bytes()
        document = parse_document(raw)
        game = games[tuple(document["seats"])]
        key = f"import:{game.pk}:{hashlib.sha256(raw).hexdigest()}"
        services.submission_create(
            game=game, document=document, entrant=entrant, idempotency_key=key
        )
        game.refresh_from_db()
    return f"{len(files)} logs one by one."


def run(folder: Path, event: Any, path: str, workers: int) -> tuple[float, int, str]:
    out, err = io.StringIO(), io.StringIO()
    queries = 0

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        started = time.perf_counter()
        if path == "one-by-one":
            summary = one_by_one(folder, event)
        else:
            call_command(
                "import_logs", str(folder), event=event.slug, stdout=out, stderr=err, verbosity=0,
                workers=workers,
            )
            summary = out.getvalue().strip()
        elapsed = time.perf_counter() - started
    return elapsed, queries, summary


def _first(folder: Path, logs: int, into: Path) -> Path:
    into.mkdir(exist_ok=True)
    for path in sorted(folder.glob("*.json"))[:logs]:
        (into / path.name).write_bytes(path.read_bytes())
    return into


def _verdicts(per_log_ms: float, baseline_ms: float | None) -> None:
    speedup = BEFORE_MS_PER_LOG / per_log_ms
    ok = "ok" if speedup >= TARGET_SPEEDUP else "BELOW TARGET"
    print(f"  bulk import: {speedup:.1f} x faster than the issue's {BEFORE_MS_PER_LOG:.0f} ms a "
          f"log (target >= {TARGET_SPEEDUP} x: {ok})")
    if baseline_ms is not None:
        here = baseline_ms / per_log_ms
        ok = "ok" if here >= TARGET_SPEEDUP else "BELOW TARGET"
        print(f"  bulk import: {here:.1f} x faster than one by one measured here "
              f"({baseline_ms:.1f} ms a log; target >= {TARGET_SPEEDUP} x: {ok})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=1000, help="move logs (one game each)")
    parser.add_argument("--distinct", type=int, default=20, help="different simulated games")
    parser.add_argument("--path", choices=("both", "bulk", "one-by-one"), default="both")
    parser.add_argument("--one-by-one-logs", type=int, default=500,
                        help="logs for the one-by-one baseline (default 500: it is slow)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="the command's --workers (default: one per core)")
    args = parser.parse_args()
    paths = ("one-by-one", "bulk") if args.path == "both" else (args.path,)

    from games import signals
    from games.models import ResultVersion, Submission

    signals.results_changed.receivers = []  # the analytics' recompute jobs are not measured
    setup_test_environment()
    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = ":memory:"  # no file beside the tests' own
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"database: {connection.vendor} ({name}); {args.logs} logs")
        with tempfile.TemporaryDirectory(prefix="import-logs-bench-") as tmp:
            folder = Path(tmp)
            write_logs(folder, args.logs, args.distinct)
            baseline_ms = None
            for path in paths:
                logs = min(args.logs, args.one_by_one_logs) if path == "one-by-one" else args.logs
                here = folder if logs == args.logs else _first(folder, logs, Path(tmp) / "few")
                event = make_event(logs)
                runs = ("first import", "second import") if path == "bulk" else ("first import",)
                for label in runs:
                    print(f"load average before: {loadavg()}")
                    cpu = time.process_time()
                    elapsed, queries, summary = run(here, event, path, args.workers)
                    cpu = time.process_time() - cpu
                    per_log_ms = elapsed * 1000 / logs
                    if path == "one-by-one":
                        baseline_ms = per_log_ms
                    print(
                        f"{path}, {label}, {logs} logs: {elapsed:.1f} s, {per_log_ms:.2f} ms a log "
                        f"(this process's CPU {cpu * 1000 / logs:.2f} ms a log), {queries} queries "
                        f"({queries / logs:.2f} a log) -- {summary}"
                    )
                    if path == "bulk" and label == "first import":
                        _verdicts(per_log_ms, baseline_ms)
                    print(f"load average after:  {loadavg()}")
                stored = Submission.objects.filter(game__table__rotation__event=event)
                assert stored.count() == logs
                versions = ResultVersion.objects.filter(game__table__rotation__event=event)
                assert versions.count() == logs
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()

"""How well the night's forecast (issue 47, `league.pace.forecast`) knows when the last table
will be done, measured at each night's midpoint.

Run: .venv/bin/python bench/pace_forecast_bench.py [--clubs 20] [--nights 15] [--demo-nights 8]
     DATABASE_URL=postgres://postgres@127.0.0.1:5432/hf_b .venv/bin/python bench/pace_forecast_bench.py
     (part of `make bench`)

For each night: its midpoint is halfway between the first rotation's start and the last entry;
the forecast sees only what was known then (`league.pace.forecast.known_at`: the rounds entered
before it, the rotations started before it, the number of rotations the night really played)
and the club's nights before this one, and its "last table about" is compared with the night's
real last entry: the mean absolute error in minutes, the median, and how often the truth fell
within its 10th-90th percentile range. Beside it, a forecast without learning (every round 30
minutes, 5 minutes between rotations) on the same nights.

(a) Simulated nights (pure, no database): `--clubs` clubs, each with a usual round of 26-34
minutes, 20 past nights and `--nights` nights measured; a night of 6-20 tables and 3 rotations
of 4 rounds, players reseated each rotation: a table's hidden pace is lognormal (sd 0.2 on the
log scale), the night's own (sd 0.1), each round's luck (sd 0.25); 3-10 minutes between
rotations. (b) The demo's finished nights (`site_pages.demo.build_demo` with `--demo-nights`
league nights and the two tournaments, whose times `site_pages.demo.night_timed` gives), loaded
into a test database (SQLite in memory, or `test_<name>` on DATABASE_URL's server).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league.pace.forecast import known_at, night_forecast  # noqa: E402
from league.pace.rounds import TableRounds  # noqa: E402

ROUNDS = 4
ROTATIONS = 3
NAIVE_ROUND = 30.0  # minutes, the forecast without learning
NAIVE_CHANGEOVER = 5.0


@dataclass(frozen=True)
class Measured:
    """One night's forecast at its midpoint against the truth (minutes, signed: late > 0)."""

    error: float
    covered: bool
    naive_error: float
    seconds: float  # the forecast's CPU time (what a wall's redraw pays)


def _progress(items: Sequence, label: str) -> Iterable:
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, desc=label, leave=False, disable=not sys.stderr.isatty())


def simulated_night(rng: random.Random, *, start: datetime, club_minutes: float,
                    tables: int, first_id: int) -> list[TableRounds]:
    """A night of `tables` tables and ROTATIONS rotations of ROUNDS rounds (see the docstring)."""
    night = rng.gauss(0, 0.1)
    rows: list[TableRounds] = []
    for rotation in range(1, ROTATIONS + 1):
        done = []
        for number in range(1, tables + 1):
            pace = math.log(club_minutes) + night + rng.gauss(0, 0.2)
            ends, at = [], start
            for _round in range(ROUNDS):
                at += timedelta(minutes=math.exp(pace + rng.gauss(0, 0.25)))
                ends.append(at)
            done.append(at)
            rows.append(TableRounds(
                table_id=first_id + len(rows), rotation_number=rotation, table_number=number,
                players=4, preset="classic", rounds=ROUNDS, started_at=start, ends=tuple(ends),
                done_at=at))
        start = max(done) + timedelta(minutes=rng.uniform(3, 10))
    return rows


def simulated_clubs(seed: int, clubs: int, nights: int,
                    past: int = 20) -> list[tuple[list[TableRounds], list[TableRounds]]]:
    """(the club's past tables, the night) for each measured night of each club."""
    rng = random.Random(seed)
    cases = []
    first = datetime(2026, 1, 6, 18, 30, tzinfo=UTC)
    for club in range(clubs):
        minutes = rng.uniform(26, 34)
        history: list[list[TableRounds]] = []
        for week in range(past + nights):
            night = simulated_night(rng, start=first + timedelta(weeks=week), tables=rng.randint(6, 20),
                                    club_minutes=minutes, first_id=(club * 100 + week) * 1000)
            if week >= past:
                cases.append(([t for n in history[-past:] for t in n], night))
            history.append(night)
    return cases


def midpoint(tables: Sequence[TableRounds]) -> tuple[datetime, datetime]:
    """(the night's midpoint, its last entry)."""
    start = min(t.started_at for t in tables if t.started_at is not None)
    end = max(t.done_at for t in tables if t.done_at is not None)
    return start + (end - start) / 2, end


def naive_end(known: Sequence[TableRounds], rotations_left: int, now: datetime) -> datetime:
    """Every round 30 minutes, 5 between rotations: the forecast a director does in their head."""
    end = now
    for table in known:
        if table.finished or table.started_at is None:
            continue
        began = table.round_began(table.rounds_done + 1) or table.started_at
        round_end = max(began + timedelta(minutes=NAIVE_ROUND), now)
        end = max(end, round_end + timedelta(minutes=NAIVE_ROUND * (table.rounds - table.rounds_done - 1)))
    rounds = max((t.rounds for t in known), default=ROUNDS)
    return end + rotations_left * timedelta(minutes=NAIVE_CHANGEOVER + NAIVE_ROUND * rounds)


def measure(night: Sequence[TableRounds], past: Sequence[TableRounds], *, seed: int) -> Measured | None:
    """The forecast at the night's midpoint against its real last entry."""
    now, truth = midpoint(night)
    known = [k for t in night if (k := known_at(t, now)) is not None]
    rotations_left = (len({t.rotation_number for t in night})
                      - len({t.rotation_number for t in known}))
    start = time.process_time()
    forecast = night_forecast(tonight=known, past=past, rotations_left=rotations_left, now=now,
                              seed=seed)
    seconds = time.process_time() - start
    if forecast is None:
        return None
    room = forecast.room
    minutes = timedelta(minutes=1)
    return Measured(error=(room.about - truth) / minutes,
                    covered=room.earliest <= truth <= room.latest,
                    naive_error=(naive_end(known, rotations_left, now) - truth) / minutes,
                    seconds=seconds)


def summary(label: str, measured: Sequence[Measured], seconds: float) -> str:
    errors = [abs(m.error) for m in measured]
    naive = [abs(m.naive_error) for m in measured]
    covered = sum(m.covered for m in measured)
    return (f"{label}: {len(measured)} nights, mean absolute error {statistics.fmean(errors):.1f} min"
            f" (median {statistics.median(errors):.1f}, worst {max(errors):.1f}), mean signed"
            f" {statistics.fmean(m.error for m in measured):+.1f} min, truth in the 10-90 % range"
            f" {covered}/{len(measured)} ({100 * covered / len(measured):.0f} %); without learning"
            f" (30-minute rounds) {statistics.fmean(naive):.1f} min; a forecast"
            f" {1000 * statistics.median(m.seconds for m in measured):.0f} ms of CPU (median,"
            f" worst {1000 * max(m.seconds for m in measured):.0f}); {seconds:.1f} s")


def simulated(args: argparse.Namespace) -> list[Measured]:
    cases = simulated_clubs(args.seed, args.clubs, args.nights)
    return [m for n, (past, night) in enumerate(_progress(cases, "simulated nights"))
            if (m := measure(night, past, seed=n)) is not None]


def demo_nights(past_nights: int) -> list[Measured]:
    """The demo's finished nights, each against the club's nights before it (a test database)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import logging

    import django

    django.setup()
    logging.disable(logging.WARNING)
    from django.db import connection
    from django.test.utils import setup_test_environment

    from games.selectors.round_times import club_past_round_times, event_round_times
    from league.models import Event
    from site_pages.demo import build_demo

    setup_test_environment()
    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = ":memory:"
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"database: {connection.vendor} ({name})", flush=True)
        demo = build_demo(past_nights=past_nights, player_count=16, tournament=True)
        finished = list(Event.objects.filter(club=demo.club, status=Event.Status.FINISHED)
                        .order_by("date", "pk"))
        return [m for event in _progress(finished, "demo nights")
                if (m := measure(event_round_times(event=event),
                                 club_past_round_times(club=demo.club, before=event),
                                 seed=event.seed)) is not None]
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=20, choices=range(1, 101), metavar="1-100")
    parser.add_argument("--nights", type=int, default=15, choices=range(1, 101), metavar="1-100")
    parser.add_argument("--demo-nights", type=int, default=8, choices=range(0, 41),
                        metavar="0-40", help="the demo's league nights (0: no demo)")
    parser.add_argument("--seed", type=int, default=47)
    args = parser.parse_args(argv)
    with open("/proc/loadavg") as f:
        print(f"load average: {f.read().strip()}")
    start = time.perf_counter()
    print(summary("simulated", simulated(args), time.perf_counter() - start), flush=True)
    if args.demo_nights:
        start = time.perf_counter()
        print(summary("demo", demo_nights(args.demo_nights), time.perf_counter() - start))
    with open("/proc/loadavg") as f:
        print(f"load average: {f.read().strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

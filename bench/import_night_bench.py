"""A bulk import while a night runs (issue 42: "A bulk import starves the room").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/handfoot \
    .venv/bin/python bench/import_night_bench.py [--tables 20] [--import-games 2000]
        [--imports 1] [--every 0.5] [--one-queue | --compare] [--database hf_import_night]
        [--redis-db 13] [--port 8775] [--work-dir /tmp/hf-bench-import-night] [--keep]

(`make bench-import-night` runs it with --compare, then with --compare --imports 2; `make bench`
without.) The bench creates its
database (--database on DATABASE_URL's server) and prepares a club's running league night of
--tables tables x 4 rotations, every table seated (bench/night.py), and a past season of
--import-games games of the same players, written as a spreadsheet (CSV, one row a game, as
tests/games/import_helpers.py's `game_row_totals`). It starts gunicorn and the workers as
docker-compose.yml runs them (its `worker`: the default queue, and its `worker-bulk`: the bulk
queue, with their concurrency; broker and cache: Redis db --redis-db), then asks for the import
as the import page does (the file kept by `games.services.imports.upload_keep`, the job by
`games.jobs.results_import_job`, run by the bulk worker) and, while the import and the club's
rebuild it asks for run, a table after another enters its game and the other side confirms it
through the API (one game every --every seconds, as bench/faults.py's tables do). For each
confirmation: the time from its commit (its answer; the request's own time is printed too) to
the first poll (every 50 ms) of the event's StandingsSnapshot that counts it.

Prints count, p50, p95 and max of those delays, the import's own duration (asked -> its games
stored) and the rebuild's, the load average, and the verdict against the issue's target: the
night's results reach its standings p95 < 2 s. --one-queue measures the same with the bulk queue
disabled (CELERY_BULK_QUEUE=celery: one worker of two processes serves everything, as before
issue 42); --compare runs both, one after the other on a fresh database each, side by side.
--imports N splits the past games into N files of whole nights, imported at once (N jobs), as
two directors (or one, twice) might: the bulk work then fills every process of one worker.

On the way out, also on Ctrl-C or SIGTERM, it stops every process it started, drops its
database, flushes its Redis db and removes its work folder (bench/load_bench.py's Cleanup;
--keep leaves them). Exits non-zero when the target is missed in the bench's own mode (split
queues) or a confirmed result never reaches the standings.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import faults  # noqa: E402
import night  # noqa: E402

TARGET_P95 = 2.0  # issue 42: the night's results reach its standings p95 < 2 s
SEASON = "Last season"
FILE_NAME = "last-season.csv"
POLL = 0.05


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--import-games", type=int, default=2000)
    parser.add_argument("--imports", type=int, default=1,
                        help="the past games in this many files, imported at once (default 1)")
    parser.add_argument("--every", type=float, default=0.5,
                        help="seconds from one table's confirmation to the next (default 0.5: "
                             "the room's 80 games in 40 s, a burst longer than the import)")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--one-queue", action="store_true",
                       help="the bulk queue disabled: everything on the default queue")
    modes.add_argument("--compare", action="store_true",
                       help="split queues, then one queue, side by side")
    parser.add_argument("--port", type=int, default=8775, help="gunicorn's port")
    parser.add_argument("--database", default="hf_import_night",
                        help="its database on DATABASE_URL's server (created, then dropped)")
    parser.add_argument("--database-url", default="",
                        help="or the whole URL of its database (created, then dropped)")
    parser.add_argument("--work-dir", default="/tmp/hf-bench-import-night")
    parser.add_argument("--redis-db", type=int, default=13,
                        help="its Redis database (broker and cache), flushed before and after")
    parser.add_argument("--keep", action="store_true",
                        help="keep the database, the work folder and the Redis db at the end")
    return parser.parse_args(argv)


# --- the past season -------------------------------------------------------------------------


def past_season(names: list[str], games: int, *, files: int = 1, seed: int = 42) -> list[bytes]:
    """`games` past games of these players, a night a week before today (4 rotations of
    len(names) // 4 tables, everyone re-seated each rotation), as CSVs of game totals: `files`
    of them, each a run of whole nights."""
    from tests.games.import_helpers import PastGame, game_row_totals

    rng = random.Random(seed)
    tables = len(names) // 4
    out: list[PastGame] = []
    night_number = 0
    while len(out) < games:
        night_number += 1
        date = datetime.date.today() - datetime.timedelta(weeks=night_number)
        for rotation in range(1, 5):
            seated = rng.sample(names, 4 * tables)
            for table in range(1, tables + 1):
                if len(out) == games:
                    break
                a, b, c, d = seated[4 * (table - 1):4 * table]
                scores = [(5 * rng.randint(-60, 1000), 5 * rng.randint(-60, 1000))
                          for _ in range(4)]
                out.append(PastGame(date, rotation, table, ((a, b), (c, d)), scores=scores))
    dates = sorted({g.date for g in out})
    share = -(-len(dates) // files)
    return [game_row_totals([g for g in out if g.date in dates[i * share:(i + 1) * share]])
            for i in range(files)]


# --- watching the standings, the import and the rebuild --------------------------------------


class Watcher(threading.Thread):
    """Polls, on a connection of its own: the event's StandingsSnapshot's games (every `poll`
    s, each first time a count was seen), the import job's status, then the club's rebuild (every
    imported night has its standings, every imported game is rated and every player of them has
    statistics computed after the import stored its games: recompute_club's fan-out is over)."""

    def __init__(self, *, event_id: int, club_id: int, job_ids: list[Any],
                 poll: float = POLL) -> None:
        super().__init__(daemon=True)
        self.event_id, self.club_id, self.job_ids, self.poll = event_id, club_id, job_ids, poll
        self.seen: list[tuple[float, int]] = []  # (monotonic, games in the snapshot), rising
        self.job_done: float | None = None
        self.job_status = ""
        self.job_stored_at: datetime.datetime | None = None
        self.rebuilt: float | None = None
        self.error: BaseException | None = None
        self._stop_event = threading.Event()

    @property
    def finished(self) -> bool:
        return self.rebuilt is not None or self.job_status == "failed"

    def games_shown(self) -> int:
        return self.seen[-1][1] if self.seen else 0

    def shown_at(self, games: int) -> float | None:
        return next((at for at, shown in self.seen if shown >= games), None)

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=30)

    def run(self) -> None:
        from django.db import connection

        try:
            last_slow = 0.0
            while not self._stop_event.is_set():
                now = time.monotonic()
                self._standings(now)
                if now - last_slow >= 0.5 and not self.finished:
                    last_slow = now
                    self._import(now)
                self._stop_event.wait(self.poll)
        except BaseException as error:  # noqa: BLE001 - reported by the caller
            self.error = error
        finally:
            connection.close()

    def _standings(self, now: float) -> None:
        from analytics.models import StandingsSnapshot

        games = (StandingsSnapshot.objects.filter(event_id=self.event_id)
                 .values_list("games", flat=True).first()) or 0
        if games > self.games_shown():
            self.seen.append((now, games))

    def _import(self, now: float) -> None:
        from django.db.models import Count

        from analytics.models import PlayerStats, RatedGame, StandingsSnapshot
        from jobs.models import Job
        from league.models import Event, Game, Seat

        if self.job_done is None:
            jobs = list(Job.objects.filter(pk__in=self.job_ids).values_list("status",
                                                                             "updated_at"))
            statuses = {status for status, _ in jobs}
            self.job_status = ("failed" if Job.Status.FAILED in statuses
                               else "done" if statuses == {Job.Status.DONE} else "running")
            if self.job_status != "running":
                self.job_done, self.job_stored_at = now, max(at for _, at in jobs)
            return
        imported = Event.objects.filter(club_id=self.club_id, season__name__startswith=SEASON)
        nights = dict(Game.objects.filter(table__rotation__event__in=imported,
                                          status=Game.Status.CONFIRMED)
                      .values("table__rotation__event_id").annotate(n=Count("pk"))
                      .values_list("table__rotation__event_id", "n"))
        shown = dict(StandingsSnapshot.objects.filter(event__in=imported)
                     .values_list("event_id", "games"))
        rated = RatedGame.objects.filter(game__table__rotation__event__in=imported).count()
        # A live game's statistics refresh touches its four players; the rebuild every player.
        players = Seat.objects.filter(rotation__event__in=imported).values("player_id").distinct()
        fresh = PlayerStats.objects.filter(club_id=self.club_id,
                                           computed_at__gte=self.job_stored_at)
        if (nights and shown == nights and rated == sum(nights.values())
                and fresh.count() >= players.count()):
            self.rebuilt = now


# --- the measurement (the bench's core, also run small by the tests) -------------------------


@dataclass
class Figures:
    mode: str
    delays: list[float] = field(default_factory=list)  # confirmation answered -> in standings
    confirm_seconds: list[float] = field(default_factory=list)  # the confirmation's request
    missing: int = 0  # confirmed, never in the standings within the timeout
    refused: int = 0  # games the API did not confirm
    import_seconds: float | None = None  # job asked -> its games stored (job done)
    rebuild_seconds: float | None = None  # job done -> the club rebuilt
    import_status: str = ""
    ran_out: bool = False  # every game of the night confirmed before the import was over
    load: str = ""
    uptime_end: str = ""

    @property
    def met(self) -> bool:
        return (bool(self.delays) and not self.missing and not self.refused
                and night.percentile(self.delays, 0.95) < TARGET_P95)


def timed_play(client: faults.Client, game: dict) -> tuple[bool, float, float]:
    """A table enters its game's rounds and the other side confirms it through the API
    (bench/faults.py's play_game); (confirmed, the confirmation's request seconds, when its
    answer came). The confirmation is play_game's last request: its time is the client's last."""
    log: list = []
    ok = faults.play_game(client, game, log)
    answered = time.monotonic()
    return ok, (client.times[-1] if client.times else 0.0), answered


def night_during_import(*, club: Any, event_id: int, user: Any, games: list[dict],
                        files: list[bytes],
                        client: faults.Client, every: float, mode: str = "split queues",
                        timeout: float = 300) -> Figures:
    """Ask for the import of `files` into `club` (each kept as the import page keeps an upload and
    imported by its own job, all at once, each into a season of its own) and, until the import is stored and the club rebuilt (at least one game; at most
    every game of `games`), play a game every `every` seconds; then wait for the standings to
    count every confirmed game. Returns the figures."""
    from django.db import connection

    from games.jobs import results_import_job
    from games.services import imports
    from tests.waiting import wait_for

    figures = Figures(mode=mode)
    tokens = [imports.upload_keep(club=club, file_name=f"{n}-{FILE_NAME}", data=data)
              for n, data in enumerate(files, start=1)]
    asked = time.monotonic()
    jobs = [results_import_job(club=club, token=token, user=user,
                               season=SEASON if len(files) == 1 else f"{SEASON} {n}",
                               day_first=None, choices={})
            for n, token in enumerate(tokens, start=1)]
    watcher = Watcher(event_id=event_id, club_id=club.pk, job_ids=[job.pk for job in jobs])
    watcher.start()
    answered: list[float] = []
    try:
        with night.LoadSampler() as load:
            for index, game in enumerate(games):
                slot = asked + index * every
                time.sleep(max(0.0, slot - time.monotonic()))
                if index and watcher.finished:
                    break
                ok, request, at = timed_play(client, game)
                if not ok:
                    figures.refused += 1
                    continue
                answered.append(at)
                figures.confirm_seconds.append(request)
            else:
                figures.ran_out = not watcher.finished
            try:
                wait_for(lambda: watcher.shown_at(len(answered)) is not None and watcher.finished,
                         what="every confirmed game in the standings and the import over",
                         seconds=timeout, interval=POLL, alive=watcher.is_alive)
            except AssertionError as gave_up:  # reported in the figures (missing, not done)
                print(f"  {gave_up}", flush=True)
        figures.load, figures.uptime_end = load.summary(), night.uptime()
    finally:
        watcher.stop()
        connection.close()
    if watcher.error is not None:
        raise watcher.error
    # The snapshot counts the night's confirmed games, confirmed here one after the other from
    # none: the k-th confirmation is in it once it counts k games.
    for number, at in enumerate(answered, start=1):
        shown = watcher.shown_at(number)
        if shown is None:
            figures.missing += 1
        else:
            figures.delays.append(max(0.0, shown - at))
    figures.import_status = watcher.job_status
    if watcher.job_done is not None:
        figures.import_seconds = watcher.job_done - asked
        if watcher.rebuilt is not None:
            figures.rebuild_seconds = watcher.rebuilt - watcher.job_done
    return figures


def report(figures: Figures) -> None:
    d = figures.delays
    print(f"  {figures.mode}: {len(d)} confirmations measured"
          + (f", {figures.missing} never in the standings" if figures.missing else "")
          + (f", {figures.refused} refused" if figures.refused else ""))
    if d:
        print(f"    confirmation -> standings: p50 {night.percentile(d, .5):.2f} s, "
              f"p95 {night.percentile(d, .95):.2f} s, max {max(d):.2f} s "
              f"(the confirmation's own request: p50 "
              f"{night.percentile(figures.confirm_seconds, .5) * 1000:.0f} ms, max "
              f"{max(figures.confirm_seconds) * 1000:.0f} ms)")
    imported = (f"{figures.import_seconds:.1f} s ({figures.import_status})"
                if figures.import_seconds is not None else "not done")
    rebuilt = (f"{figures.rebuild_seconds:.1f} s" if figures.rebuild_seconds is not None
               else "not done")
    print(f"    import: asked -> games stored {imported}; then the club's rebuild {rebuilt}"
          + ("; the night ran out of games before the import was over" if figures.ran_out
             else ""))
    print(f"    load average during it: {figures.load}; at the end: {figures.uptime_end}")
    print(f"    night's results reach standings p95 < {TARGET_P95:.0f} s: "
          f"{'met' if figures.met else 'NOT met'}")


# --- the stack -------------------------------------------------------------------------------


def compose_worker(service: str) -> tuple[str, int]:
    """(queue, concurrency) of a worker service as docker-compose.yml runs it."""
    import yaml

    command = yaml.safe_load((night.ROOT / "docker-compose.yml").read_text())[
        "services"][service]["command"]
    concurrency = next(int(a.split("=", 1)[1]) for a in command if a.startswith("--concurrency="))
    return command[command.index("-Q") + 1], concurrency


class ImportNightStack(night.Stack):
    """gunicorn and docker-compose.yml's two workers, `worker` (the default queue) and
    `worker-bulk` (the bulk queue); with `one_queue`, one worker as `worker` serving everything
    (the bulk queue disabled: CELERY_BULK_QUEUE is the default queue's name)."""

    def __init__(self, env: dict[str, str], *, port: int, one_queue: bool) -> None:
        self.one_queue = one_queue
        if one_queue:
            env = {**env, "CELERY_BULK_QUEUE": compose_worker("worker")[0]}
        super().__init__(env, port=port, web_workers=3)
        self.bulk: subprocess.Popen | None = None

    def _celery(self, name: str, service: str) -> subprocess.Popen:
        queue, concurrency = compose_worker(service)
        return self._spawn(name, [
            str(night.BIN / "celery"), "-A", "config", "worker", "--loglevel=INFO",
            f"--concurrency={concurrency}", "-Q", queue, "--without-gossip", "--without-mingle",
            "-n", f"{name}-{os.getpid()}@%h"], LOG_LEVEL="INFO")

    def start_worker(self) -> None:  # also the supervisor's restart of `worker`
        self.worker = self._celery("worker", "worker")
        if not self.one_queue and (self.bulk is None or self.bulk.poll() is not None):
            self.bulk = self._celery("worker-bulk", "worker-bulk")

    def stop(self) -> None:
        super().stop()
        if self.bulk is not None and self.bulk.poll() is None:
            os.killpg(self.bulk.pid, signal.SIGTERM)
            try:
                self.bulk.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.bulk.pid, signal.SIGKILL)


@contextmanager
def bulk_queue_setting(one_queue: bool) -> Iterator[None]:
    """This process's settings.BULK_QUEUE as its workers' (it sends the import's job)."""
    from django.conf import settings

    saved = settings.BULK_QUEUE
    if one_queue:
        settings.BULK_QUEUE = compose_worker("worker")[0]
    try:
        yield
    finally:
        settings.BULK_QUEUE = saved


def run_mode(args: argparse.Namespace, url: str, broker: str, cleanup: Any, *,
             one_queue: bool) -> Figures:
    import redis
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections

    from league.models import Club, Event

    mode = "one queue" if one_queue else "split queues"
    connections.close_all()
    redis.Redis.from_url(broker).flushdb()
    night.recreate_database(url)
    call_command("migrate", verbosity=0)
    started = time.monotonic()
    plan = night.night_prepare(tables=args.tables, rotations=4)
    event = Event.objects.get(slug=plan["event"])
    club = Club.objects.get(slug=plan["club"])
    names = sorted(club.players.values_list("name", flat=True))
    files = past_season(names, args.import_games, files=args.imports)
    user = User.objects.create_user("bench-director")
    print(f"[{mode}] night prepared in {time.monotonic() - started:.1f} s: {args.tables} tables "
          f"x 4 rotations = {plan['games']} games, {len(names)} players; the past season: "
          f"{args.import_games} games, {sum(map(len, files)) // 1024} KiB of CSV in "
          f"{len(files)} file(s), imported at once", flush=True)
    env = night.stack_env(url, broker)
    night.collect_static(env)
    stack = cleanup.stack = ImportNightStack(env, port=args.port, one_queue=one_queue)
    stack.start()
    (live, live_n), (bulk, bulk_n) = compose_worker("worker"), compose_worker("worker-bulk")
    workers = (f"one worker ({live}, {live_n} processes; the bulk queue disabled)" if one_queue
               else f"worker ({live}, {live_n} processes) and worker-bulk ({bulk}, {bulk_n})")
    print(f"[{mode}] gunicorn (3 workers), {workers} up; {night.uptime()}", flush=True)
    client = faults.Client(stack.url)
    try:
        with bulk_queue_setting(one_queue):
            figures = night_during_import(club=club, event_id=event.pk, user=user,
                                          games=faults.night_games(plan), files=files,
                                          client=client, every=args.every, mode=mode)
    finally:
        stack.stop()
        cleanup.stack = None
    return figures


def main(argv: list[str] | None = None) -> int:
    import load_bench

    args = parse_args(argv)
    night.WORK = Path(args.work_dir)
    night.WORK.mkdir(parents=True, exist_ok=True)
    url, broker = load_bench.database_url(args), load_bench.broker_url(args)
    cleanup = load_bench.Cleanup(args, url, broker)
    print(f"{night.uptime()}\nDatabase {url.rsplit('/', 1)[1]}; Redis {broker}; work folder "
          f"{night.WORK}; gunicorn on port {args.port}; a confirmation every {args.every} s",
          flush=True)
    try:
        night.recreate_database(url)
        night.setup_django(url, broker)
        modes = [False, True] if args.compare else [args.one_queue]
        results = [run_mode(args, url, broker, cleanup, one_queue=m) for m in modes]
    finally:
        cleanup.run()
    print(f"A bulk import ({args.import_games} games"
          + (f" in {args.imports} files at once" if args.imports > 1 else "")
          + f") while a {args.tables}-table night runs (issue 42):")
    for figures in results:
        report(figures)
    own = results[0]  # the mode asked for (split queues unless --one-queue)
    return 0 if own.met and not own.missing else 1


if __name__ == "__main__":
    sys.exit(main())

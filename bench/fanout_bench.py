"""Benchmark of the fanned-out full recompute over a real Celery worker (PostgreSQL and Redis).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/handfoot \
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \
    nice -n 10 .venv/bin/python bench/fanout_bench.py [--clubs 20] [--games 10000] [--reuse]

Builds `--clubs` clubs of `--games` games each in its own database (`hf_fanout_bench` on
DATABASE_URL's server, or `--database`; dropped at the end unless --reuse, which also keeps a
previous build) with `analytics_bench`'s COPY builder, then times:
  1. before: the rebuild as one process doing one club after the other (`club_recompute`, what
     the nightly task did in one task), with its CPU time and peak RSS;
  2. after: the fanned-out rebuild (`analytics.tasks.recompute_fanout`) through a real worker,
     `celery -A config worker --concurrency=1` then `=2`: wall time from sending to the last
     part, each kind of part's time (from the worker's log), the worker processes' CPU time and
     each one's peak RSS (VmHWM).
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import analytics_bench as builder  # noqa: E402  (the bench's own folder)

ROOT = builder.ROOT
VISIBILITY_TIMEOUT = 300
PART_TARGET = VISIBILITY_TIMEOUT / 5  # "well under" the visibility timeout
PART_LINE = re.compile(r"Task (analytics\.part\.\w+)\[[^\]]+\] succeeded in ([\d.]+)s")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=20)
    parser.add_argument("--games", type=int, default=10_000, help="games per club")
    parser.add_argument("--players", type=int, default=400, help="players per club")
    parser.add_argument("--concurrency", default="1,2", help="worker processes to try")
    parser.add_argument("--database", default="hf_fanout_bench")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reuse", action="store_true", help="keep (and reuse) the built database")
    parser.add_argument("--skip-before", action="store_true",
                        help="leave out the one-process rebuild")
    parser.add_argument("--sequential-child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def database_url(name: str) -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres") or not os.environ.get("CELERY_BROKER_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis).")
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def finish(url: str, *, keep: bool) -> None:
    """The end of a bench run: its database dropped (unless kept) and the load average said."""
    if not keep:
        from django.db import connections

        connections.close_all()
        drop_database(url)
    print(f"Load average at the end {', '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC")


def drop_database(url: str) -> None:
    import psycopg

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{builder.bench_database_name(url)}" WITH (FORCE)')


def database_exists(url: str) -> bool:
    import psycopg

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                            (builder.bench_database_name(url),)).fetchone() is not None


def build(args: argparse.Namespace, url: str) -> list[int]:
    """The clubs' ids: the kept build's with --reuse, else a new build."""
    from league.models import Club

    clubs = list(Club.objects.order_by("pk").values_list("pk", flat=True))
    if args.reuse and len(clubs) == args.clubs:
        print(f"Database {builder.bench_database_name(url)}: reusing its {len(clubs)} clubs")
        return clubs
    if clubs:
        builder.recreate_database(url)
        builder.setup_django(url)
    print(f"Building {args.clubs} clubs x {args.games:,} games ({args.players} players each)")
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(args.clubs):
        builder.build_league(args.games, args.players, args.seed + i, slug=f"club-{i + 1}")
    print(f"  build (COPY) {time.perf_counter() - start:.1f} s (CPU here "
          f"{time.process_time() - cpu:.1f} s)", flush=True)
    return list(Club.objects.order_by("pk").values_list("pk", flat=True))


def sequential_child() -> None:
    """Run in a child process (so its peak RSS is its own): every club one after the other."""
    from analytics import services
    from league.models import Club

    start, cpu = time.perf_counter(), time.process_time()
    for club_id in Club.objects.order_by("pk").values_list("pk", flat=True):
        services.club_recompute(club_id=club_id)
    print(f"{time.perf_counter() - start:.3f} {time.process_time() - cpu:.3f}")


def before(url: str) -> dict[str, float]:
    process = subprocess.Popen(
        [sys.executable, __file__, "--sequential-child", "--database",
         builder.bench_database_name(url)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ})
    out = process.stdout.read() if process.stdout else ""
    _, status, usage = os.wait4(process.pid, 0)
    if status:
        sys.exit("the one-process rebuild failed")
    wall, cpu = (float(x) for x in out.split()[-2:])
    peak = usage.ru_maxrss / 1024  # KiB on Linux
    print(f"  before, one process, club after club: {wall:.1f} s (CPU {cpu:.1f} s), "
          f"peak RSS {peak:.0f} MiB", flush=True)
    return {"wall": wall, "cpu": cpu, "rss": peak}


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_worker(concurrency: int, queue: str, log: Path, url: str) -> subprocess.Popen:
    from config.celery import app

    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", f"--concurrency={concurrency}",
         "-Q", queue, "-n", f"{queue}@%h", "--loglevel=INFO", f"--logfile={log}",
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env={**os.environ, "DATABASE_URL": url}, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not app.control.ping(destination=[f"{queue}@{os.uname().nodename}"], timeout=0.5):
        if time.monotonic() > deadline or worker.poll() is not None:
            sys.exit("the worker did not start")
    return worker


def wait_for(parts: list, worker: subprocess.Popen) -> None:
    from celery.result import ResultSet

    results = ResultSet([result for _, result in parts])
    while not results.ready():
        if worker.poll() is not None:
            sys.exit("the worker died")
        time.sleep(0.05)
    if results.failed():
        sys.exit("a part failed: see the worker's log")
    results.forget()  # nobody reads them after this


def part_times(log: Path) -> dict[str, list[float]]:
    times: dict[str, list[float]] = defaultdict(list)
    for name, seconds in PART_LINE.findall(log.read_text()):
        times[name].append(float(seconds))
    return times


def after(concurrency: int, club_ids: list[int], url: str, per_club: int) -> dict[str, float]:
    import psutil

    from analytics.tasks import recompute_fanout
    from config.celery import app

    queue = f"fanout-bench-{os.getpid()}-{concurrency}"
    log = Path(tempfile.mkdtemp(prefix="fanout-bench-")) / "worker.log"
    app.conf.task_always_eager, app.conf.task_default_queue = False, queue
    worker = start_worker(concurrency, queue, log, url)
    try:
        children = psutil.Process(worker.pid).children()
        start = time.perf_counter()
        plan = recompute_fanout(club_ids, queue=queue)
        wait_for(plan.parts, worker)
        wall = time.perf_counter() - start
        cpu = sum(sum(p.cpu_times()[:2]) for p in children)
        rss = [peak_rss_mib(p.pid) for p in children]
    finally:
        worker.terminate()
        worker.wait(timeout=60)
    times = part_times(log)
    games = len(club_ids) * per_club
    print(f"  after, {concurrency} worker process(es): {wall:.1f} s wall for {len(plan.parts)} "
          f"parts, the processes' CPU {cpu:.1f} s ({cpu / games * 1000:.2f} ms a game), peak RSS "
          f"per process {', '.join(f'{r:.0f}' for r in rss)} MiB", flush=True)
    for name, samples in sorted(times.items()):
        print(f"    {name:<28} {len(samples):4d} parts, mean {sum(samples) / len(samples):6.2f} s,"
              f" longest {max(samples):6.2f} s")
    longest = max(max(s) for s in times.values())
    verdict = "ok" if longest < PART_TARGET else "BELOW TARGET"
    print(f"  longest part: {longest:.1f} s (target < {PART_TARGET:.0f} s, a fifth of the "
          f"{VISIBILITY_TIMEOUT} s visibility timeout: {verdict})")
    ratings = times.get("analytics.part.ratings", [0.0])
    print(f"  ratings replay per game: {max(ratings) / per_club * 1000:.2f} ms (longest club)")
    return {"wall": wall, "cpu": cpu, "rss": max(rss), "longest": longest}


def main() -> None:
    args = parse_args()
    url = database_url(args.database)
    if args.sequential_child:
        builder.setup_django(url)
        sequential_child()
        return
    print(f"Load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} "
          f"cores; {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC")
    if not args.reuse or not database_exists(url):
        builder.recreate_database(url)
    builder.setup_django(url)
    try:
        club_ids = build(args, url)
        print("Full recompute")
        if not args.skip_before:
            before(url)
        walls = {}
        for concurrency in (int(c) for c in args.concurrency.split(",")):
            walls[concurrency] = after(concurrency, club_ids, url, args.games)["wall"]
            print(f"  load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if 1 in walls and 2 in walls:
            print(f"  2 processes against 1: {walls[1] / walls[2]:.2f} x faster")
    finally:
        finish(url, keep=args.reuse)


if __name__ == "__main__":
    main()

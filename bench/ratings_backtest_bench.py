"""Benchmark of the ratings backtest job (issue 46) at 100,000 games over a real worker.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/handfoot \
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \
    nice -n 10 .venv/bin/python bench/ratings_backtest_bench.py [--games 100000] [--reuse]

Builds a club of `--games` confirmed games in its own database (`hf_backtest_bench`, dropped at
the end unless --reuse) with `analytics_bench`'s COPY builder, then asks for the club's backtest
as the page does (`analytics.ratings.backtests.ratings_backtest_job`): one part per candidate
rating system, shared by a worker of `--concurrency` processes. Prints the time to done (target
< 5 minutes), the worker's CPU and the candidates' figures.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import analytics_bench as builder  # noqa: E402  (the bench's own folder)
from fanout_bench import database_exists, database_url, finish, start_worker  # noqa: E402

TIME_TARGET = 300.0  # s, issue 46


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--database", default="hf_backtest_bench")
    parser.add_argument("--reuse", action="store_true", help="keep (and reuse) the built database")
    return parser.parse_args()


def build(args: argparse.Namespace):
    from league.models import Club

    club = Club.objects.first()
    if args.reuse and club is not None:
        print("Reusing the built club")
        return club
    print(f"Building {args.games:,} confirmed games ({args.players} players)", flush=True)
    start = time.perf_counter()
    club, _ = builder.build_league(args.games, args.players, 1)
    print(f"  build {time.perf_counter() - start:.1f} s", flush=True)
    return club


def run_job(club, url: str, concurrency: int) -> None:
    import psutil
    from django.conf import settings

    from analytics.ratings.backtests import ratings_backtest_job
    from config.celery import app
    from jobs.models import Job

    queue = f"backtest-bench-{os.getpid()}"
    app.conf.task_always_eager, app.conf.task_default_queue = False, queue
    settings.JOBS_RUNNER = "celery"
    log = Path(f"/tmp/backtest-bench-{os.getpid()}.log")
    worker = start_worker(concurrency, queue, log, url)
    try:
        children = psutil.Process(worker.pid).children()
        cpu_before = sum(sum(p.cpu_times()[:2]) for p in children)
        Job.objects.all().delete()  # a reused database would answer from the last run
        start = time.perf_counter()
        job = ratings_backtest_job(club=club)
        shown = -1.0
        while job.status not in (Job.Status.DONE, Job.Status.FAILED):
            if worker.poll() is not None or time.perf_counter() - start > 1800:
                raise SystemExit("the worker died or the job never finished")
            time.sleep(0.2)
            job.refresh_from_db()
            if time.perf_counter() - start >= shown + 15:
                shown = time.perf_counter() - start
                print(f"    {shown:5.0f} s: {job.parts_done} of {job.parts} parts", flush=True)
        elapsed = time.perf_counter() - start
        cpu = sum(sum(p.cpu_times()[:2]) for p in children) - cpu_before
    finally:
        worker.terminate()
        worker.wait(timeout=60)
        log.unlink(missing_ok=True)
    if job.status != Job.Status.DONE:
        raise SystemExit(f"the job failed: {job.error}")
    verdict = "ok" if elapsed < TIME_TARGET else "ABOVE TARGET"
    print(f"  {job.result['games']:,} games predicted by {job.parts} candidates; worker processes: "
          f"{concurrency}")
    print(f"  time to done: {elapsed:.1f} s (target < {TIME_TARGET:.0f} s: {verdict}); "
          f"worker CPU {cpu:.1f} s")
    for line in job.result["lines"]:
        print(f"    {line['name']:24s} log-loss {line['log_loss']:.4f}  right {line['accuracy']:.1%}")


def main() -> None:
    args = parse_args()
    url = database_url(args.database)
    print(f"Load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} "
          f"cores; {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC", flush=True)
    if not args.reuse or not database_exists(url):
        builder.recreate_database(url)
    builder.setup_django(url)
    try:
        run_job(build(args), url, args.concurrency)
    finally:
        finish(url, keep=args.reuse)
        print(f"Load average at the end {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

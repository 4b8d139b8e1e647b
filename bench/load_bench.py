"""Load held: a 50-table club night against gunicorn + PostgreSQL + a real Celery worker.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/handfoot \
    CELERY_BROKER_URL=redis://127.0.0.1:6379/3 \
    .venv/bin/python bench/load_bench.py [--tables 50] [--rotations 4] [--readers 300]

(`make bench-load`.) Recreates its own database (hf_load_bench on DATABASE_URL's server, or
BENCH_DATABASE), prepares the night (bench/night.py), starts gunicorn, a worker and beat, runs
bench/locustfile.py headless (200 scorers entering and confirming, 300 readers) until every
table has played every rotation, then checks that every accepted submission is stored with no
partial rows and that the standings show every confirmed result. Prints p50/p95/p99 and the
error counts per request kind; exits non-zero when a check fails.

The throttles count per client address and every client runs here: their rates are raised
for the run through THROTTLE_CHECK / THROTTLE_LOOKUP / THROTTLE_TOKEN (bench/night.py).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import night  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rotations", type=int, default=4)
    parser.add_argument("--readers", type=int, default=300)
    parser.add_argument("--round-seconds", default="15-25",
                        help="time a table takes for a round, low-high (default 15-25)")
    parser.add_argument("--web-workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--max-minutes", type=float, default=20)
    return parser.parse_args()


def run_locust(args: argparse.Namespace, stack: night.Stack, plan_path: Path, out: Path,
               scorers: int) -> float:
    users = scorers + args.readers
    env = {**os.environ, "LOAD_PLAN": str(plan_path), "LOAD_OUT": str(out),
           "ROUND_SECONDS": args.round_seconds, "READERS": str(args.readers)}
    start = time.monotonic()
    subprocess.run([str(night.BIN / "locust"), "-f", str(Path(__file__).with_name("locustfile.py")),
                    "--headless", "-u", str(users), "-r", "50", "--host", stack.url,
                    "--run-time", f"{int(args.max_minutes * 60)}s", "--only-summary",
                    "--loglevel", "WARNING", "--stop-timeout", "5"],
                   env=env, check=False, cwd=night.WORK)
    return time.monotonic() - start


def children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def report(result: dict) -> tuple[dict, int]:
    """Per request kind: count, errors, p50/p95/p99 (ms). Returns (rows, total errors)."""
    rows = {}
    for name, samples in sorted(result["timings"].items()):
        rows[name] = {"count": len(samples),
                      **{f"p{p}": night.percentile(samples, p / 100) for p in (50, 95, 99)},
                      "max": max(samples)}
    print(f"  {'request':<38} {'count':>6} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>7}  (ms)")
    for name, row in rows.items():
        print(f"  {name:<38} {row['count']:6d} {row['p50']:6.0f} {row['p95']:6.0f} "
              f"{row['p99']:6.0f} {row['max']:7.0f}")
    entries = [t for name in ("entry: submit round", "entry: confirm")
               for t in result["timings"].get(name, [])]
    print(f"  {'entries (submit + confirm)':<38} {len(entries):6d} "
          f"{night.percentile(entries, .5):6.0f} {night.percentile(entries, .95):6.0f} "
          f"{night.percentile(entries, .99):6.0f}")
    return rows, len(result["errors"])


def main() -> None:
    args = parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the stack on the way out
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis"):
        sys.exit("Set CELERY_BROKER_URL to your Redis database (e.g. redis://127.0.0.1:6379/3).")
    url = night.bench_database_url()
    night.WORK.mkdir(parents=True, exist_ok=True)
    print(f"{night.uptime()}\nDatabase {url.rsplit('/', 1)[1]}: recreating", flush=True)
    night.recreate_database(url)
    night.setup_django(url, broker)
    started = time.monotonic()
    plan = night.night_prepare(tables=args.tables, rotations=args.rotations)
    plan_path = night.WORK / "plan.json"
    plan_path.write_text(json.dumps(plan))
    print(f"Night prepared in {time.monotonic() - started:.1f} s: {args.tables} tables x "
          f"{args.rotations} rotations = {plan['games']} games, {len(plan['players'])} players",
          flush=True)
    import redis

    client = redis.Redis.from_url(broker)
    for key in client.scan_iter(":1:recompute:*"):  # a killed earlier run's pending marks
        client.delete(key)
    env = night.stack_env(url, broker)
    night.collect_static(env)
    stack = night.Stack(env, port=args.port, web_workers=args.web_workers, beat=True)
    out = night.WORK / "load-result.json"
    out.unlink(missing_ok=True)
    try:
        stack.start()
        print(f"gunicorn ({args.web_workers} sync workers), worker (2 processes), beat up; "
              f"{len(plan['players'])} scorers + {args.readers} readers, rounds of "
              f"{args.round_seconds} s", flush=True)
        parts = {"gunicorn": stack.web, "worker": stack.worker, "beat": stack.beat}
        cpu_before = {name: night.tree_cpu_seconds(p.pid) for name, p in parts.items()}
        busy_before, children_before = night.machine_busy_seconds(), children_cpu()
        pg_before = night.postgres_cpu_seconds()
        with night.LoadSampler() as load:
            wall = run_locust(args, stack, plan_path, out, len(plan["players"]))
            uptime_end = night.uptime()
        cpu = {name: night.tree_cpu_seconds(p.pid) - cpu_before[name] for name, p in parts.items()}
        cpu["locust"] = children_cpu() - children_before
        cpu["postgresql (all databases)"] = night.postgres_cpu_seconds() - pg_before
        busy = night.machine_busy_seconds() - busy_before
        print(f"CPU seconds over the run ({wall:.0f} s, {os.cpu_count()} cores): "
              + ", ".join(f"{k} {v:.0f}" for k, v in cpu.items())
              + f"; the whole machine busy {busy:.0f} of {wall * (os.cpu_count() or 1):.0f} "
                f"(everything else {busy - sum(cpu.values()):.0f})")
        result = json.loads(out.read_text())
        print(f"Run: {wall:.0f} s; load average during it {load.summary()}; at the end: "
              f"{uptime_end}")
        print(f"Scorers finished the night: {result['finished']} of {len(plan['players'])}")
        result["errors"] = result["failures"]
        rows, errors = report(result)
        waited, shown, confirmed = night.wait_until_current(plan["event"], timeout=180)
        print(f"Standings current {'after ' + format(waited, '.1f') + ' s' if waited is not None else 'NOT within 180 s'}"
              f": {shown} games shown, {confirmed} confirmed")
    finally:
        stack.stop()
    check = night.night_consistency(plan["event"], accepted_keys=set(result["accepted"]),
                                    confirmed_games=set(result["confirmed"]))
    print(f"Stored: {check.submissions} submissions ({len(result['accepted'])} accepted), "
          f"{check.versions} versions, {check.confirmed_games} games confirmed "
          f"({len(set(result['confirmed']))} confirmations accepted) of {plan['games']}")
    problems = check.problems + ([] if waited is not None else ["standings not current"])
    print(f"Errors: {errors}" + (f" ({', '.join(result['errors'][:5])})" if errors else ""))
    print("Checks: " + ("all passed" if not problems else "; ".join(problems)))
    (night.WORK / "load-summary.json").write_text(json.dumps(
        {"rows": rows, "errors": result["errors"], "problems": problems, "load": load.samples,
         "cpu": cpu, "machine_busy": busy, "wall": wall},
        indent=1))
    if problems or errors:
        sys.exit(1)


if __name__ == "__main__":
    main()

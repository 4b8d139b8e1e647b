"""Load held: a club night (50 tables by default, 100 with --tables 100) against nginx +
gunicorn + PostgreSQL + a real Celery worker, as docker-compose.yml runs them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/handfoot \
    .venv/bin/python bench/load_bench.py [--tables 50] [--rotations 4] [--readers 300]
        [--database hf_load_bench | --database-url postgres://...] [--port 8765] [--no-proxy]
        [--web-workers 3] [--reader-workers 2] [--work-dir /tmp/hf-bench-night] [--redis-db 15] [--keep]

(`make bench-load`, `make bench-load BENCH_ARGS="--tables 100"`.) Two runs side by side each
need their own --database, --port (and the two after it), --work-dir and --redis-db. The bench
creates its database (--database on DATABASE_URL's server, or --database-url), prepares the
night (bench/night.py), starts nginx (deploy/nginx.conf; --no-proxy leaves it out) in front of
gunicorn (and the readers' gunicorn nginx routes the public pages to), a worker and beat (broker and cache: Redis db --redis-db on CELERY_BROKER_URL's
server, default 127.0.0.1:6379), runs bench/locustfile.py headless (4 scorers a table entering
and confirming, 300 readers, two thirds of them with an event page, standings page or wall
open, polling every second) until every table has played every rotation, then checks that every
accepted submission is stored with no partial rows and that the standings show every confirmed
result. Prints each figure beside its target: entries p95, readers' pages p95 (per kind and
overall), the standings delay while the load ran (from confirmation to the first poll of an
open page that showed it), Celery results left in Redis, errors. Exits non-zero when a check
fails or a target is missed.

On the way out, also on Ctrl-C, SIGTERM or a failure, it stops every process it started, drops
its database, flushes its Redis db and removes its work folder (--keep leaves the database, the
folder and its logs).

The throttles count per client address and every client runs here: their rates are raised
for the run through THROTTLE_CHECK / THROTTLE_LOOKUP / THROTTLE_TOKEN (bench/night.py).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import night  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rotations", type=int, default=4)
    parser.add_argument("--readers", type=int, default=300)
    parser.add_argument("--round-seconds", default="15-25",
                        help="time a table takes for a round, low-high (default 15-25)")
    # As docker-compose.yml runs it: 3 sync workers. On this 2-core machine 5 (2 x cores + 1)
    # made every process wait for a core (100 tables: entries p95 3.5 s against 1.5 s with 3).
    parser.add_argument("--client-priority", type=int, default=10, choices=range(0, 20),
                        metavar="0-19",
                        help="Run the load generator's processes this much ahead of everything "
                             "else (nice -N; needs root, else they run alike with a warning): "
                             "they stand for phones with their own processors, so they should not "
                             "wait for a core the server uses (default 10; 0: all alike)")
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--reader-workers", type=int, default=2,
                        help="the readers' pool behind nginx (deploy/nginx.conf; default 2)")
    parser.add_argument("--port", type=int, default=8765,
                        help="where the clients connect: nginx, gunicorn behind it on the next "
                             "port and the readers' gunicorn on the one after (with --no-proxy "
                             "gunicorn itself)")
    parser.add_argument("--no-proxy", action="store_true",
                        help="no nginx in front: the clients reach gunicorn directly")
    parser.add_argument("--max-minutes", type=float, default=20)
    parser.add_argument("--database", default="hf_load_bench",
                        help="its database on DATABASE_URL's server (created, then dropped)")
    parser.add_argument("--database-url", default="",
                        help="or the whole URL of its database (created, then dropped)")
    parser.add_argument("--work-dir", default="/tmp/hf-bench-night",
                        help="its folder: plan, logs, static files (removed at the end)")
    parser.add_argument("--redis-db", type=int, default=15,
                        help="its Redis database (broker and cache), flushed before and after")
    parser.add_argument("--keep", action="store_true",
                        help="keep the database, the work folder and the Redis db at the end")
    return parser.parse_args()


def database_url(args: argparse.Namespace) -> str:
    if args.database_url:
        return args.database_url
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL server (or give --database-url).")
    return urlunsplit(urlsplit(base)._replace(path=f"/{args.database}"))


def broker_url(args: argparse.Namespace) -> str:
    base = os.environ.get("CELERY_BROKER_URL", "") or "redis://127.0.0.1:6379/0"
    if not base.startswith("redis"):
        sys.exit("CELERY_BROKER_URL must name a Redis server (its db is --redis-db).")
    return urlunsplit(urlsplit(base)._replace(path=f"/{args.redis_db}"))


class Cleanup:
    """Everything the run leaves, undone on the way out (finally, atexit, SIGINT, SIGTERM)."""

    def __init__(self, args: argparse.Namespace, url: str, broker: str) -> None:
        self.args, self.url, self.broker = args, url, broker
        self.stack: night.Stack | None = None
        self.done = False
        atexit.register(self.run)
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, self._signalled)

    def _signalled(self, number: int, _frame: object) -> None:
        raise SystemExit(128 + number)  # unwinds through main's finally

    def run(self) -> None:
        if self.done:
            return
        self.done = True
        if self.stack is not None:
            self.stack.stop()
        if self.args.keep:
            print(f"Kept: database {self.url.rsplit('/', 1)[1]}, {night.WORK}, Redis {self.broker}")
            return
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # Django never set up: nothing open
            pass
        night.drop_database(self.url)
        import redis

        redis.Redis.from_url(self.broker).flushdb()
        shutil.rmtree(night.WORK, ignore_errors=True)
        print(f"Cleaned up: database {self.url.rsplit('/', 1)[1]} dropped, Redis db "
              f"{self.args.redis_db} flushed, {night.WORK} removed", flush=True)


# The load generator's processes: (user class, its share of the readers, name), the readers in
# three (bench/locustfile.py says why).
LOCUST_PARTS = (("Scorer", "0/1", "scorers"), ("Reader", "0/3", "readers-1"),
                ("Reader", "1/3", "readers-2"), ("Reader", "2/3", "readers-3"))


def client_priority(wanted: int) -> int:
    """The load generator's lead over the server (`--client-priority`): `wanted` when this
    process may raise priorities (root), else 0 with a warning."""
    if wanted and os.geteuid() != 0:
        print(f"warning: --client-priority {wanted} needs root; the load generator runs at the "
              "server's priority", file=sys.stderr)
        return 0
    return wanted


def readers_in(share: str, readers: int) -> int:
    """How many of the readers one process plays (`share` "k/n": the k-th of n)."""
    number, parts = (int(x) for x in share.split("/"))
    return readers // parts + (1 if number < readers % parts else 0)


def run_locust(args: argparse.Namespace, stack: night.Stack, plan_path: Path, out: Path,
               scorers: int, lead: int) -> float:
    """The scorers' and the readers' locust processes side by side until the night is over;
    their outputs merged into `out`."""
    done = night.WORK / "night-done"
    done.unlink(missing_ok=True)
    start = time.monotonic()
    processes = []
    for user_class, share, part in LOCUST_PARTS:
        env = {**os.environ, "LOAD_PLAN": str(plan_path), "LOAD_OUT": f"{out}.{part}",
               "LOAD_DONE": str(done), "ROUND_SECONDS": args.round_seconds,
               "READERS": str(args.readers), "READER_PART": share,
               "READERS_HERE": str(readers_in(share, args.readers))}
        users = scorers if user_class == "Scorer" else readers_in(share, args.readers)
        summary = open(night.WORK / f"locust-{part}.txt", "w")  # noqa: SIM115 - closed below
        processes.append((subprocess.Popen(  # nosec B603
            [*(["nice", "-n", f"-{lead}"] if lead else []), str(night.BIN / "locust"), "-f", str(Path(__file__).with_name("locustfile.py")),
             "--headless", "-u", str(users), "-r", "50", "--host", stack.url,
             "--run-time", f"{int(args.max_minutes * 60)}s", "--only-summary",
             "--loglevel", "WARNING", "--stop-timeout", "5", user_class],
            env=env, cwd=night.WORK, stdout=summary, stderr=subprocess.STDOUT), summary))
    for process, summary in processes:
        process.wait()
        summary.close()
    wall = time.monotonic() - start
    for *_, part in LOCUST_PARTS:
        print((night.WORK / f"locust-{part}.txt").read_text(), end="")
    out.write_text(json.dumps(merged_outputs([Path(f"{out}.{part}") for *_, part in LOCUST_PARTS])))
    return wall


def merged_outputs(paths: list[Path]) -> dict:
    """The processes' outputs as one: each kind's timings and each list joined."""
    merged: dict = {"timings": {}, "finished": 0}
    for path in paths:
        part = json.loads(path.read_text())
        for name, samples in part.pop("timings").items():
            merged["timings"].setdefault(name, []).extend(samples)
        merged["finished"] += part.pop("finished")
        for key, values in part.items():
            merged.setdefault(key, []).extend(values)
    return merged


def children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


ENTRIES_TARGET_MS, PAGES_TARGET_MS, DELAY_TARGET_S = 300, 150, 2.0
ENTRY_NAMES = ("entry: submit round", "entry: confirm")


def verdict(ok: bool) -> str:
    return "ok" if ok else "NOT MET"


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
    return rows, len(result["errors"])


TIMING_LINE = re.compile(r'^(\S+) (\S+) "([^"]*)" "([^"]*)" (\d+) ([\d.]+)( \S+)?$')
KINDS = (  # (method, path pattern, polled, name as the clients report it)
    ("POST", r"/api/results/\d+/submissions/", None, "entry: submit round"),
    ("POST", r"/api/results/\d+/confirmations/", None, "entry: confirm"),
    ("POST", r"/api/sheets/check/", None, "entry: check sheet"),
    ("GET", r"/api/results/\d+/", None, "scorer: result"),
    ("GET", r"/play/[^/]+/", None, "scorer: table page"),
    ("GET", r"/events/[^/]+/", False, "reader: event page"),
    ("GET", r"/events/[^/]+/standings/", True, "reader: standings poll (event or standings page)"),
    ("GET", r"/events/[^/]+/standings/", False, "reader: standings page"),
    ("GET", r"/events/[^/]+/wall/", True, "reader: wall poll"),
    ("GET", r"/events/[^/]+/wall/", False, "reader: wall"),
    # A poll nginx answered from the live fragment's file (its $uri is then the file's).
    ("GET", r"/events/[^/]+/standings\.fragment\.html", None,
     "reader: standings poll (event or standings page)"),
    ("GET", r"/events/[^/]+/wall\.fragment\.html", None, "reader: wall poll"),
    ("GET", r"/players/[^/]+/[^/]+/", None, "reader: player page"),
    ("GET", r"/seasons/\d+/standings/", None, "reader: season standings"),
)


def entry_samples(timings: dict[str, list[float]]) -> list[float]:
    """The entries' times (the entries' target), of every kind."""
    return [t for name in ENTRY_NAMES for t in timings.get(name, [])]


def reader_samples(timings: dict[str, list[float]]) -> dict[str, list[float]]:
    """The readers' pages' times (the readers' target) by kind."""
    return {name: samples for name, samples in timings.items() if name.startswith("reader:")}


def request_kind(method: str, uri: str, args: str, requested_with: str) -> str | None:
    """The clients' name for a request nginx logged (None: not one of the night's kinds)."""
    polled = bool(requested_with and requested_with != "-") or "fragment=1" in args
    for kind_method, pattern, kind_polled, name in KINDS:
        if (method == kind_method and re.fullmatch(pattern, uri)
                and kind_polled in (None, polled)):
            return name
    return None


def server_timings(paths: list[Path], unit: float) -> dict[str, list[float]]:
    """Milliseconds per request kind as nginx (`unit` 1000: seconds) or gunicorn (0.001:
    microseconds) logged them (`night.TIMING_LOG`, `night.WORKER_TIMING`)."""
    timings: dict[str, list[float]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            found = TIMING_LINE.match(line)
            kind = found and request_kind(*found.group(1, 2, 3, 4))
            if found and kind:
                timings.setdefault(kind, []).append(float(found.group(6)) * unit)
    return timings


def server_report(timings: dict[str, list[float]], title: str) -> dict[str, float]:
    """The server's side: per kind and for the targets' two groups, p50/p95 (ms)."""
    print(f"\n{title}:")
    print(f"  {'request':<50} {'count':>6} {'p50':>6} {'p95':>6} {'p99':>6}  (ms)")
    for name, samples in sorted(timings.items()):
        print(f"  {name:<50} {len(samples):6d} {night.percentile(samples, .5):6.0f} "
              f"{night.percentile(samples, .95):6.0f} {night.percentile(samples, .99):6.0f}")
    entries = entry_samples(timings)
    readers = [t for samples in reader_samples(timings).values() for t in samples]
    figures = {"entries p95": night.percentile(entries, .95),
               "readers' pages p95": night.percentile(readers, .95)}
    print("  server side: " + ", ".join(f"{k} {v:.0f} ms" for k, v in figures.items()))
    return figures


def delays_seen(confirmed_at: list[float], pages: list[dict]) -> tuple[list[float], int]:
    """Seconds from each confirmation (the client told) to the first poll of each page open at
    the time that showed it: the k-th confirmation is shown once a poll counts k games. Returns
    (delays, confirmations an open page never showed while it stayed open 5 s or more)."""
    times = sorted(confirmed_at)
    delays, unseen = [], 0
    for page in pages:
        seen = page["seen"]
        for k, at in enumerate(times, start=1):
            if at < page["opened"] or at > page["closed"] - 5:
                continue
            first = next((t for t, games in seen if games >= k), None)
            if first is None:
                unseen += 1
            else:
                delays.append(max(0.0, first - at))
    return delays, unseen


def summary(result: dict, errors: int, redis_results: int) -> bool:
    """Each figure beside its target; True when all are met."""
    timings = result["timings"]
    entries = entry_samples(timings)
    p95 = night.percentile(entries, .95)
    met = [p95 < ENTRIES_TARGET_MS]
    print(f"\nentries p95: {p95:.0f} ms (p50 {night.percentile(entries, .5):.0f}, "
          f"{len(entries)} entries; target < {ENTRIES_TARGET_MS} ms: {verdict(met[-1])})")
    readers = reader_samples(timings)
    for name, samples in sorted(readers.items()):
        value = night.percentile(samples, .95)
        met.append(value < PAGES_TARGET_MS)
        print(f"readers' pages p95, {name[8:]}: {value:.0f} ms ({len(samples)} requests; target "
              f"< {PAGES_TARGET_MS} ms: {verdict(met[-1])})")
    every = [t for samples in readers.values() for t in samples]
    value = night.percentile(every, .95)
    met.append(value < PAGES_TARGET_MS)
    print(f"readers' pages p95, all: {value:.0f} ms ({len(every)} requests; target < "
          f"{PAGES_TARGET_MS} ms: {verdict(met[-1])})")
    delays, unseen = delays_seen(result["confirmed_at"], result["open_pages"])
    p95 = night.percentile(delays, .95)
    met.append(bool(delays) and p95 < DELAY_TARGET_S and unseen == 0)
    print(f"standings delay during the load, confirmation -> first poll of an open page that "
          f"shows it: p50 {night.percentile(delays, .5):.2f} s, p95 {p95:.2f} s, max "
          f"{max(delays, default=0):.2f} s ({len(delays)} confirmation x open page pairs, "
          f"{unseen} never shown; target p95 < {DELAY_TARGET_S:.0f} s: {verdict(met[-1])})")
    watched, _ = delays_seen(result["confirmed_at"], [
        {"opened": 0, "closed": float("inf"), "seen": result["watched"]}])
    print(f"standings delay during the load, confirmation -> the fragment shows it (asked "
          f"every 0.2 s): p50 {night.percentile(watched, .5):.2f} s, p95 "
          f"{night.percentile(watched, .95):.2f} s, max {max(watched, default=0):.2f} s")
    by_kind: dict[str, int] = {}
    for page in result["open_pages"]:
        by_kind[page["kind"]] = by_kind.get(page["kind"], 0) + 1
    print("open pages (polling every second with If-None-Match): " + ", ".join(
        f"{kind} {n}" for kind, n in sorted(by_kind.items())))
    met.append(redis_results == 0)
    print(f"Celery results left in Redis: {redis_results} (target 0: {verdict(met[-1])})")
    met.append(errors == 0)
    print(f"errors: {errors} (target 0: {verdict(met[-1])})")
    return all(met)


def main() -> None:
    args = parse_args()
    night.WORK = Path(args.work_dir)
    url, broker = database_url(args), broker_url(args)
    cleanup = Cleanup(args, url, broker)
    try:
        ok = run(args, url, broker, cleanup)
    finally:
        cleanup.run()
    if not ok:
        sys.exit(1)


def run(args: argparse.Namespace, url: str, broker: str, cleanup: Cleanup) -> bool:
    import redis

    client = redis.Redis.from_url(broker)
    client.flushdb()  # a killed earlier run's pending marks
    night.WORK.mkdir(parents=True, exist_ok=True)
    print(f"{night.uptime()}\nDatabase {url.rsplit('/', 1)[1]}: creating; Redis {broker}; "
          f"work folder {night.WORK}; port {args.port}", flush=True)
    night.recreate_database(url)
    night.setup_django(url, broker)
    started = time.monotonic()
    plan = night.night_prepare(tables=args.tables, rotations=args.rotations)
    plan_path = night.WORK / "plan.json"
    plan_path.write_text(json.dumps(plan))
    print(f"Night prepared in {time.monotonic() - started:.1f} s: {args.tables} tables x "
          f"{args.rotations} rotations = {plan['games']} games, {len(plan['players'])} players",
          flush=True)
    env = night.stack_env(url, broker)
    night.collect_static(env)
    stack = cleanup.stack = night.Stack(env, port=args.port, web_workers=args.web_workers,
                                        reader_workers=args.reader_workers, beat=True, proxy=not args.no_proxy)
    out = night.WORK / "load-result.json"
    stack.start()
    lead = client_priority(args.client_priority)
    priority = f"at nice -{lead}, ahead of the server" if lead else "at the server's priority"
    print(f"{'nginx in front of ' if stack.proxied else ''}"
          f"gunicorn ({args.web_workers} sync workers"
          f"{f' + {args.reader_workers} for readers' if stack.proxied else ''}), worker (2 processes), beat up; "
          f"{len(plan['players'])} scorers + {args.readers} readers, rounds of "
          f"{args.round_seconds} s; the load generator {priority}",
          flush=True)
    parts = {"gunicorn": stack.web, **({"gunicorn (readers)": stack.readers} if stack.readers
                                       else {}), "worker": stack.worker, "beat": stack.beat,
             **({"nginx": stack.proxy} if stack.proxy else {}),
             **({"live pages": stack.live_pages} if stack.live_pages else {})}
    cpu_before = {name: night.tree_cpu_seconds(p.pid) for name, p in parts.items()}
    busy_before, children_before = night.machine_busy_seconds(), children_cpu()
    pg_before = night.postgres_cpu_seconds()
    with night.LoadSampler() as load:
        wall = run_locust(args, stack, plan_path, out, len(plan["players"]), lead)
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
    print(f"Standings current after the load {'after ' + format(waited, '.1f') + ' s' if waited is not None else 'NOT within 180 s'}"
          f": {shown} games shown, {confirmed} confirmed")
    redis_results = sum(1 for _ in client.scan_iter("celery-task-meta-*"))
    server: dict[str, dict[str, float]] = {}
    if stack.proxied:
        time.sleep(1.5)  # nginx writes its log buffer every second
        server["nginx"] = server_report(
            server_timings([stack.timing_log], 1000),
            "The same requests as nginx timed them (its first byte read -> last byte sent: "
            "without the clients' own delays)")
        server["worker"] = server_report(
            server_timings(sorted(stack.logs.glob("gunicorn*-timing.log")), 0.001),
            "The same requests inside a gunicorn worker (the rest of nginx's figure is the "
            "wait for a free worker)")
    stack.stop()
    check = night.night_consistency(plan["event"], accepted_keys=set(result["accepted"]),
                                    confirmed_games=set(result["confirmed"]))
    print(f"Stored: {check.submissions} submissions ({len(result['accepted'])} accepted), "
          f"{check.versions} versions, {check.confirmed_games} games confirmed "
          f"({len(set(result['confirmed']))} confirmations accepted) of {plan['games']}")
    problems = check.problems + ([] if waited is not None else ["standings not current"])
    if errors:
        print("First errors: " + "; ".join(result["errors"][:5]))
    print("Checks: " + ("all passed" if not problems else "; ".join(problems)))
    met = summary(result, errors, redis_results)
    (night.WORK / "load-summary.json").write_text(json.dumps(
        {"rows": rows, "errors": result["errors"], "problems": problems, "load": load.samples,
         "cpu": cpu, "machine_busy": busy, "wall": wall, "server": server}, indent=1))
    return met and not problems


if __name__ == "__main__":
    main()

"""Faults survived, for real and timed: gunicorn + a Celery worker + beat against PostgreSQL and
a Redis of the script's own (a separate redis-server on --redis-port, 6390 by default, that the
script starts and stops; the machine's Redis is never touched).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/handfoot \
    .venv/bin/python bench/faults.py [--skip-postgres]

(`make bench-faults`.) On a prepared club night (bench/night.py), clients enter and confirm
games through the API (each side with its own table link) while:

1. a worker pool child is SIGKILLed in the middle of a standings recompute: the job is held
   mid-way deterministically (the script holds the row lock of the event's standings snapshot,
   so the job waits inside its transaction for it), the child running it is found from
   PostgreSQL's view of the waiting query and killed; then the same with the whole worker
   (main process and pool, SIGKILL), restarted 2 s later as a supervisor would. Timed: kill ->
   standings current (the stored standings equal a fresh computation).
2. PostgreSQL is restarted (`pg_ctlcluster --skip-systemctl-redirect <version> main restart`)
   during a stream of submissions from 8 clients; clients retry a 503 with the same
   Idempotency-Key after a second. Counted: answers by status. Checked: every accepted
   submission stored, no partial rows. This restarts the machine's PostgreSQL for everyone on
   it: --skip-postgres leaves it out.
3. Redis stopped: games are entered and confirmed (answers and time per request); their results
   must be stored while the standings fall behind; Redis started again: time until the
   standings catch up (the beat's stale snapshot sweep, every 60 s, grace 30 s).

Exits non-zero when a check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.request import Request, urlopen

sys.path.insert(0, str(Path(__file__).resolve().parent))

import night  # noqa: E402

PROBLEMS: list[str] = []


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rotations", type=int, default=4)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--redis-port", type=int, default=6390)
    parser.add_argument("--redis-down-seconds", type=float, default=30)
    parser.add_argument("--skip-postgres", action="store_true",
                        help="leave out the PostgreSQL restart (it affects the whole machine)")
    return parser.parse_args()


def check(ok: bool, what: str) -> None:
    print(f"    {'ok' if ok else 'FAILED'}: {what}", flush=True)
    if not ok:
        PROBLEMS.append(what)


# --- clients ---------------------------------------------------------------------------------


class Client:
    """Plain HTTP against gunicorn; answers counted by status."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.statuses: Counter = Counter()
        self.times: list[float] = []
        self.lock = threading.Lock()

    def post(self, path: str, body: dict, **headers: str) -> tuple[int, dict]:
        request = Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                          headers={"Content-Type": "application/json", **headers})
        start = time.monotonic()
        try:
            with urlopen(request, timeout=30) as response:
                status, text = response.status, response.read()
        except HTTPError as error:
            status, text = error.code, error.read()
        except (URLError, OSError) as error:
            status, text = f"no answer ({type(error).__name__})", b"{}"
        with self.lock:
            self.statuses[status] += 1
            self.times.append(time.monotonic() - start)
        try:
            return status, json.loads(text or b"{}")
        except ValueError:
            return status, {"raw": text[:200].decode(errors="replace")}

    def post_until_stored(self, path: str, body: dict, log: list, **headers: str) -> int:
        """Retry while the answer is retryable (503, no answer), as the table page does."""
        for _attempt in range(60):
            status, answer = self.post(path, body, **headers)
            log.append((path, headers.get("Idempotency-Key"), status, answer))
            if status not in (503,) and isinstance(status, int):
                return status
            time.sleep(1)
        return status


def night_games(plan: dict) -> list[dict]:
    """Each game once: its id, the entering side's token and the confirming side's."""
    games: dict[int, dict] = {}
    for player in plan["players"]:
        for g in player["games"]:
            entry = games.setdefault(g["game"], {"game": g["game"], "rotation": g["rotation"]})
            if g["role"] == "enter":
                entry["enter"], entry["side"] = g["token"], g["side"]
            elif g["role"] == "confirm":
                entry["confirm"] = g["token"]
    return [games[k] for k in sorted(games, key=lambda k: (games[k]["rotation"], k))]


def play_game(client: Client, game: dict, log: list) -> bool:
    """Four rounds from one side, the confirmation from the other; True when confirmed."""
    for number in range(1, night.ROUNDS + 1):
        key = f"faults-{game['game']}-{number}"
        status = client.post_until_stored(
            f"/api/results/{game['game']}/submissions/",
            {"document": night.sheet(number, game["game"])}, log,
            **{"X-Entry-Token": game["enter"], "Idempotency-Key": key})
        if status not in (200, 201):
            return False
    status = client.post_until_stored(f"/api/results/{game['game']}/confirmations/",
                                      {"version": 1}, log, **{"X-Entry-Token": game["confirm"]})
    if status == 409:  # confirmed by an earlier attempt whose answer was lost
        return True
    return status == 200


def accepted(log: list) -> tuple[set[str], set[int]]:
    keys = {key for path, key, status, _ in log if key and status in (200, 201)}
    confirmed = {int(path.split("/")[3]) for path, key, status, _ in log
                 if path.endswith("confirmations/") and status == 200}
    return keys, confirmed


# --- processes of the script's own -----------------------------------------------------------


class OwnRedis:
    def __init__(self, port: int) -> None:
        self.port, self.proc = port, None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(night.WORK)],
            stdout=subprocess.DEVNULL, start_new_session=True)
        for _ in range(50):
            if subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True,
                              text=True).stdout.strip() == "PONG":
                return
            time.sleep(0.1)
        raise SystemExit(f"redis-server on port {self.port} did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None


class SnapshotLock:
    """Holds the row lock of the event's standings snapshot: a recompute of the event waits for
    it inside its transaction (after reading the results, before storing the standings)."""

    def __init__(self, url: str, event_id: int) -> None:
        import psycopg

        self.conn = psycopg.connect(url)
        self.conn.execute("SELECT 1 FROM analytics_standingssnapshot WHERE event_id = %s FOR UPDATE",
                          [event_id])

    def release(self) -> None:
        self.conn.commit()
        self.conn.close()


def waiting_recompute_pid(url: str, timeout: float = 30) -> int | None:
    """The worker process whose recompute waits for the snapshot lock (from pg_stat_activity's
    client port), None if none comes within `timeout`."""
    import psutil
    import psycopg

    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT client_port FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE 'UPDATE \"analytics_standingssnapshot\"%%'").fetchone()
            if row:
                for proc in psutil.process_iter():
                    try:
                        if any(c.laddr.port == row[0] for c in proc.net_connections("tcp")):
                            return proc.pid
                    except (psutil.AccessDenied, psutil.NoSuchProcess):
                        continue
            time.sleep(0.1)
    return None


def worker_log_has(stack: night.Stack, text: str, since: int) -> bool:
    return text in stack.worker_log_path.read_text(errors="replace")[since:]


# --- the faults ------------------------------------------------------------------------------


def kill_mid_recompute(stack: night.Stack, url: str, event: dict, games: list[dict],
                       client: Client, *, whole_worker: bool) -> dict:
    what = "whole worker (main + pool)" if whole_worker else "pool child"
    print(f"  SIGKILL of the {what} mid-recompute", flush=True)
    log_from = len(stack.worker_log_path.read_text(errors="replace"))
    lock = SnapshotLock(url, event["id"])
    log: list = []
    check(play_game(client, games.pop(0), log), "game entered and confirmed")
    pid = waiting_recompute_pid(url)
    if pid is None:
        lock.release()
        check(False, "the recompute started and waited for the snapshot lock")
        return {}
    check(pid in stack.pool_children(), f"the waiting recompute runs in pool child {pid}")
    if whole_worker:
        stack.kill_worker()
    else:
        os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    lock.release()
    restarted = None
    if whole_worker:
        time.sleep(2)
        with stack._lock:
            stack.start_worker()
        restarted = time.monotonic() - killed
    waited, shown, confirmed = night.wait_until_current(event["slug"], timeout=300, poll=0.2)
    figures = {"kill_to_current_s": waited, "restart_after_s": restarted,
               "games_shown": shown, "games_confirmed": confirmed}
    if not whole_worker:
        check(worker_log_has(stack, "WorkerLostError", log_from),
              "the worker saw its child die with the job (WorkerLostError: re-queued)")
    check(waited is not None, f"standings current {waited:.1f} s after the kill"
          if waited is not None else "standings current within 300 s of the kill")
    return figures


def postgres_restart(url: str, stack: night.Stack, event: dict, games: list[dict],
                     client: Client) -> dict:
    print("  PostgreSQL restarted during a stream of submissions from 8 clients", flush=True)
    from django.db import connection

    todo: queue.Queue = queue.Queue()
    for game in games[:40]:
        todo.put(game)
    del games[:40]
    log: list = []
    stop = threading.Event()

    def entrant() -> None:
        while not stop.is_set():
            try:
                game = todo.get_nowait()
            except queue.Empty:
                return
            play_game(client, game, log)

    threads = [threading.Thread(target=entrant) for _ in range(8)]
    for t in threads:
        t.start()
    time.sleep(3)
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    before = len(log)
    start = time.monotonic()
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"],
                   check=True)
    took = time.monotonic() - start
    print(f"    restart took {took:.1f} s; {before} answers before it", flush=True)
    for t in threads:
        t.join(timeout=120)
    stop.set()
    connection.close()
    statuses = Counter(status for _path, _key, status, _answer in log)
    retry_after = {a.get("error", {}).get("code") for _p, _k, s, a in log if s == 503}
    keys, confirmed = accepted(log)
    consistency = night.night_consistency(event["slug"], accepted_keys=keys,
                                          confirmed_games=confirmed)
    refused = {key for _path, key, status, _answer in log if key and status == 503}
    replayed = sorted(key for _path, key, status, answer in log
                      if key in refused and status == 200 and answer.get("replayed"))
    print(f"    answers by status: {dict(statuses)}; submissions answered 503 and then, on "
          f"their retry, 200 (stored by the first attempt): {len(replayed)} of {len(refused)}",
          flush=True)
    check(not any(isinstance(s, int) and s >= 500 and s != 503 for s in statuses),
          "no 500s: the database outage answers 503 (retryable)")
    check(retry_after <= {"SERVICE_UNAVAILABLE"}, f"503s say SERVICE_UNAVAILABLE ({retry_after})")
    check(not consistency.problems, "every accepted submission stored, no partial rows"
          + (f" ({'; '.join(consistency.problems)})" if consistency.problems else ""))
    waited, _shown, _confirmed = night.wait_until_current(event["slug"], timeout=180)
    check(waited is not None, "standings current after the restart")
    return {"restart_s": took, "statuses": {str(k): v for k, v in statuses.items()},
            "answered_503_but_stored": replayed,
            "submissions_stored": consistency.submissions,
            "games_confirmed": consistency.confirmed_games, "current_after_s": waited}


def redis_down(redis: OwnRedis, stack: night.Stack, event: dict, games: list[dict],
               client: Client, down_seconds: float) -> dict:
    print("  Redis stopped while games are entered and confirmed", flush=True)
    redis.stop()
    stopped = time.monotonic()
    client.statuses.clear()
    client.times.clear()
    log: list = []
    played = [play_game(client, game, log) for game in games[:5]]
    del games[:5]
    keys, confirmed = accepted(log)
    consistency = night.night_consistency(event["slug"], accepted_keys=keys,
                                          confirmed_games=confirmed)
    ok, shown, confirmed_count = night.standings_current(event["slug"])
    statuses = dict(client.statuses)
    times = sorted(client.times)
    print(f"    answers: {statuses}; per request p50 {night.percentile(times, .5) * 1000:.0f} "
          f"ms, max {times[-1] * 1000:.0f} ms", flush=True)
    check(all(played) and set(statuses) <= {200, 201},
          f"{len(played)} games entered and confirmed with Redis down")
    check(not consistency.problems, "their results stored, no partial rows")
    check(not ok, f"standings behind meanwhile ({shown} of {confirmed_count} games shown)")
    time.sleep(max(0.0, down_seconds - (time.monotonic() - stopped)))
    down_for = time.monotonic() - stopped
    restarts_before = len(stack.worker_restarts)
    redis.start()
    waited, shown, confirmed_count = night.wait_until_current(event["slug"], timeout=240)
    crashed = len(stack.worker_restarts) - restarts_before
    print(f"    worker exits while Redis was down (restarted by the supervisor): "
          f"{len(stack.worker_restarts)}", flush=True)
    check(waited is not None, f"standings caught up {waited:.1f} s after Redis came back "
          f"(target < 10 s, no worker restart)"
          if waited is not None else "standings caught up within 240 s of Redis coming back")
    check(crashed == 0 and not stack.worker_restarts,
          f"the worker rode out the outage: {len(stack.worker_restarts)} restarts (target 0)")
    return {"statuses": {str(k): v for k, v in statuses.items()},
            "p50_ms": night.percentile(times, .5) * 1000, "max_ms": times[-1] * 1000,
            "down_s": down_for, "catch_up_s": waited, "games_shown": shown,
            "worker_restarts": stack.worker_restarts, "restarts_after_back": crashed}


def main() -> None:
    args = parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    night.WORK.mkdir(parents=True, exist_ok=True)
    broker = f"redis://127.0.0.1:{args.redis_port}/3"
    url = night.bench_database_url()
    print(night.uptime(), flush=True)
    redis = OwnRedis(args.redis_port)
    redis.start()
    night.recreate_database(url)
    night.setup_django(url, broker)
    plan = night.night_prepare(tables=args.tables, rotations=args.rotations)
    from league.models import Event

    event = {"slug": plan["event"], "id": Event.objects.get(slug=plan["event"]).pk}
    games = night_games(plan)
    env = night.stack_env(url, broker)
    night.collect_static(env)
    stack = night.Stack(env, port=args.port, web_workers=3, beat=True)
    client = Client(stack.url)
    figures: dict = {"uptime_start": night.uptime()}
    try:
        stack.start()
        print(f"Night of {plan['games']} games; gunicorn, worker (2 processes), beat and "
              f"redis-server :{args.redis_port} up", flush=True)
        first: list = []
        check(play_game(client, games.pop(0), first), "a first game entered and confirmed")
        waited, *_ = night.wait_until_current(event["slug"], timeout=60)
        check(waited is not None, "its standings shown (the worker runs)")
        print("1. Worker killed mid-job", flush=True)
        figures["pool_child"] = kill_mid_recompute(stack, url, event, games, client,
                                                   whole_worker=False)
        figures["whole_worker"] = kill_mid_recompute(stack, url, event, games, client,
                                                     whole_worker=True)
        if args.skip_postgres:
            print("2. PostgreSQL restart: skipped (--skip-postgres)")
        else:
            print("2. PostgreSQL restart", flush=True)
            figures["postgres"] = postgres_restart(url, stack, event, games, client)
        print("3. Redis down", flush=True)
        figures["redis"] = redis_down(redis, stack, event, games, client,
                                      args.redis_down_seconds)
        figures["uptime_end"] = night.uptime()
    finally:
        stack.stop()
        redis.stop()
    print(f"{figures['uptime_end'] if 'uptime_end' in figures else night.uptime()}")
    (night.WORK / "faults-summary.json").write_text(json.dumps(
        {**figures, "problems": PROBLEMS}, indent=1, default=str))
    print(json.dumps(figures, indent=1, default=str))
    print("Checks: " + ("all passed" if not PROBLEMS else "; ".join(PROBLEMS)))
    if PROBLEMS:
        sys.exit(1)


if __name__ == "__main__":
    main()

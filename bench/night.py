"""A 50-table club night on a real stack, shared by bench/load_bench.py and bench/faults.py.

- its own PostgreSQL database (DATABASE_URL's server, database `hf_load_bench` unless
  BENCH_DATABASE), recreated each run;
- a prepared night: a club of 4 x tables players, a running league night of the club's season
  with every rotation seated (the first through the services, the later ones planned by the
  same seating generator and started at once, so every table can move on without waiting for a
  director) and each game's two side credentials;
- gunicorn, a Celery worker and beat as separate processes, configured as production runs them
  (DJANGO_ENV=production, DEBUG off, collected static files) but on plain HTTP, and for the load
  bench nginx in front of gunicorn from deploy/nginx.conf, as docker-compose.yml runs it;
- the checks after a run: every accepted submission stored, no partial rows, every confirmed
  result in the standings (the stored snapshot equals a fresh computation).
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
WORK = Path(os.environ.get("BENCH_WORK_DIR", "/tmp/hf-bench-night"))
SECRET = "bench-only-secret-key-" + "x" * 40
# A phone's entry clients all come from one address in this bench (they all run here): the
# throttles count per address, so their rates are raised for the run (settings read them from
# these variables). Production keeps its defaults (config/settings.py).
THROTTLE_ENV = {"THROTTLE_CHECK": "1000000/minute", "THROTTLE_LOOKUP": "1000000/minute",
                "THROTTLE_TOKEN": "1000000/minute"}
ROUNDS = 4


# --- database --------------------------------------------------------------------------------


def bench_database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL server; the bench uses its own database there "
                 "(hf_load_bench, or BENCH_DATABASE).")
    name = os.environ.get("BENCH_DATABASE", "hf_load_bench")
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def recreate_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.strip("/")
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.strip("/")
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def setup_django(url: str, broker: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["CELERY_BROKER_URL"] = broker
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# --- the night -------------------------------------------------------------------------------


def club_with_history(*, players: int, games: int, seed: int) -> tuple:
    """A club of `players` whose season already has `games` confirmed games on earlier nights
    (bench/analytics_bench.py's COPY builder, on a fresh database), or a new empty club.
    Returns (club, season, players)."""
    import league.services as league
    from league.models import Player, Season

    if games:
        from analytics_bench import build_league

        club, _rounds = build_league(games, players, seed)
        season = Season.objects.get(league__club=club)
        return club, season, list(Player.objects.filter(club=club).order_by("pk"))
    club = league.club_create(name="Load Night Club")
    season = league.season_create(league=league.league_create(club=club, name="Thursday League"),
                                  name="Season 1", starts_on=datetime.date.today(),
                                  best_n_nights=8)
    return club, season, [league.player_create(club=club, name=f"Player {i + 1:03d}")
                          for i in range(players)]


def night_prepare(*, tables: int = 50, rotations: int = 4, seed: int = 11,
                  history_games: int = 0) -> dict:
    """Club, season (with `history_games` on earlier nights), a running league night of
    `tables` tables x `rotations` rotations, every game's side credentials. Returns the plan
    the clients follow (JSON-able)."""
    from django.db import transaction

    import league.services as league
    from league.models import Event, Game, Rotation, Seat
    from league.seating import plan_rotations
    from league.services.rotations import _seating_request, _write_plan

    club, season, players = club_with_history(players=4 * tables, games=history_games,
                                              seed=seed)
    event = league.event_create(club=club, season=season, name="Big Night",
                                kind=Event.Kind.LEAGUE_NIGHT, date=datetime.date.today(),
                                seed=seed, planned_rotations=rotations)
    league.event_set_status(event=event, status=Event.Status.REGISTRATION)
    with transaction.atomic():
        for player in players:
            league.registration_add_entrant(event=event, players=[player])
        league.registration_check_in_all(event=event)
    event = league.event_set_status(event=event, status=Event.Status.RUNNING)
    league.rotation_start(rotation=league.rotation_generate(event=event))
    with transaction.atomic():
        # The later rotations as the generator plans them after the first, started at once (a
        # director would close and generate each in turn; the bench keeps every table busy).
        for number, plan in enumerate(plan_rotations(_seating_request(event, 2)), start=2):
            _write_plan(Rotation.objects.create(event=event, number=number,
                                                status=Rotation.Status.STARTED), plan)
    games = list(Game.objects.filter(table__rotation__event=event)
                 .select_related("table__rotation").order_by("table__rotation__number",
                                                             "table__number"))
    credentials = league.side_credentials_ensure(games=games)
    seats = {}
    for seat in Seat.objects.filter(rotation__event=event).select_related("player"):
        seats.setdefault(seat.table_id, []).append(seat)
    plan: dict[str, list[dict]] = {}
    for game in games:
        rotation, table = game.table.rotation.number, game.table.number
        entering = (rotation + table) % 2  # the side that enters alternates over the room
        by_side: dict[int, list] = {}
        for seat in sorted(seats[game.table_id], key=lambda s: s.seat_number):
            by_side.setdefault(seat.side, []).append(seat)
        for side, side_seats in by_side.items():
            for index, seat in enumerate(side_seats):
                if side == entering:
                    role, rounds = "enter", [r for r in range(1, ROUNDS + 1) if r % 2 == (index + 1) % 2]
                else:
                    role, rounds = ("confirm" if index == 0 else "watch"), []
                plan.setdefault(seat.player.slug, []).append({
                    "game": game.pk, "rotation": rotation, "table": table, "side": side,
                    "token": credentials[game.pk][side].token, "role": role, "rounds": rounds,
                })
    return {"club": club.slug, "event": event.slug, "season": season.pk, "tables": tables,
            "rotations": rotations, "games": len(games),
            "players": [{"slug": slug, "games": sorted(g, key=lambda x: x["rotation"])}
                        for slug, g in sorted(plan.items())]}


def sheet(round_number: int, game_id: int) -> dict:
    """A valid classic score sheet (the worked example of rules.md, its table points varied by
    game and round so the standings have something to rank)."""
    wobble = (game_id * 7 + round_number * 3) % 40
    return {
        "format": "hand-and-foot-sheet/1", "round": round_number, "ended_by": "went_out",
        "sides": [
            {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "red_threes": 1,
             "table_points": 400 + 5 * wobble, "held_points": 0, "went_out": True},
            {"clean_books": 1, "dirty_books": 0, "wild_books": 0, "red_threes": 1,
             "table_points": 220 + 5 * (39 - wobble), "held_points": 205, "went_out": False},
        ],
    }


# --- checks after a run ----------------------------------------------------------------------


@dataclass
class Consistency:
    submissions: int = 0
    versions: int = 0
    confirmed_games: int = 0
    problems: list[str] = field(default_factory=list)


def night_consistency(event_slug: str, accepted_keys: set[str] | None = None,
                      confirmed_games: set[int] | None = None) -> Consistency:
    """No partial rows: every complete entry made a version, confirmed games have exactly their
    8 round rows, nothing else has any; every accepted submission (idempotency keys answered
    200/201) and every confirmed game the clients were told of is stored."""
    from games.models import ResultVersion, RoundResult, Submission
    from league.models import Game

    games = Game.objects.filter(table__rotation__event__slug=event_slug)
    subs = Submission.objects.filter(game__in=games)
    out = Consistency(submissions=subs.count(),
                      versions=ResultVersion.objects.filter(game__in=games).count())
    stored_keys = set(subs.values_list("idempotency_key", flat=True))
    if accepted_keys is not None and (missing := accepted_keys - stored_keys):
        out.problems.append(f"{len(missing)} accepted submissions not stored, e.g. "
                            f"{sorted(missing)[:3]}")
    rounds_by_entry: dict[tuple[int, str], set[int]] = {}
    for game_id, entrant, number in subs.values_list("game_id", "entrant", "round_number"):
        rounds_by_entry.setdefault((game_id, entrant), set()).add(number)
    versions = set(ResultVersion.objects.filter(game__in=games)
                   .values_list("game_id", "entered_by"))
    incomplete = [k for k, rounds in rounds_by_entry.items()
                  if rounds == set(range(1, ROUNDS + 1)) and k not in versions]
    if incomplete:
        out.problems.append(f"{len(incomplete)} complete entries without a version")
    confirmed = set(games.filter(status=Game.Status.CONFIRMED).values_list("pk", flat=True))
    out.confirmed_games = len(confirmed)
    with_version = set(ResultVersion.objects.filter(
        game__in=games, status=ResultVersion.Status.CONFIRMED).values_list("game_id", flat=True))
    if confirmed != with_version:
        out.problems.append(f"game status and confirmed versions disagree for "
                            f"{len(confirmed ^ with_version)} games")
    counts: dict[int, int] = {}
    for game_id in RoundResult.objects.filter(game__in=games).values_list("game_id", flat=True):
        counts[game_id] = counts.get(game_id, 0) + 1
    wrong = [g for g in confirmed | set(counts) if counts.get(g, 0) != (2 * ROUNDS if g in confirmed else 0)]
    if wrong:
        out.problems.append(f"{len(wrong)} games with partial or stray round rows")
    if confirmed_games is not None and (lost := confirmed_games - confirmed):
        out.problems.append(f"{len(lost)} games confirmed to a client are not confirmed")
    return out


def standings_current(event_slug: str) -> tuple[bool, int, int]:
    """(the stored standings equal a fresh computation from the confirmed games, games in the
    snapshot, confirmed games). The fresh computation is rolled back, nothing is stored."""
    from django.db import transaction

    from analytics.models import StandingsSnapshot
    from analytics.standings import services
    from league.models import Event, Game

    event = Event.objects.get(slug=event_slug)
    confirmed = Game.objects.filter(table__rotation__event=event,
                                    status=Game.Status.CONFIRMED).count()
    stored = StandingsSnapshot.objects.filter(event=event).values_list("games", "rows").first()
    if stored is None:
        return confirmed == 0, 0, confirmed

    class Rollback(Exception):
        pass

    try:
        with transaction.atomic():
            fresh = services.event_standings_refresh(event=event)
            rows = json.loads(json.dumps(fresh.rows, default=str))
            raise Rollback
    except Rollback:
        pass
    return stored == (confirmed, rows), stored[0], confirmed


def wait_until_current(event_slug: str, *, timeout: float, poll: float = 0.5
                       ) -> tuple[float | None, int, int]:
    """Seconds until the standings are current (None: not within `timeout`)."""
    from django.db import connection

    start = time.monotonic()
    while True:
        try:
            ok, shown, confirmed = standings_current(event_slug)
        except Exception:  # the database restarting under us
            connection.close()
            ok, shown, confirmed = False, -1, -1
        if ok:
            return time.monotonic() - start, shown, confirmed
        if time.monotonic() - start > timeout:
            return None, shown, confirmed
        time.sleep(poll)


# --- processes -------------------------------------------------------------------------------


def stack_env(url: str, broker: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ, **THROTTLE_ENV,
        "DJANGO_ENV": "production", "DJANGO_SECRET_KEY": SECRET,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DATA_DIR": str(WORK / "data"), "DATABASE_URL": url, "CELERY_BROKER_URL": broker,
        "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1", **extra,
    }


def collect_static(env: dict[str, str]) -> None:
    if (WORK / "data" / "staticfiles" / "staticfiles.json").exists():
        return
    print("Collecting static files (once)", flush=True)
    subprocess.run([str(BIN / "python"), "manage.py", "collectstatic", "--noinput",
                    "--verbosity", "0"], cwd=ROOT, env=env, check=True)


# Method, path, query, X-Requested-With, status, seconds, cache status (load_bench.TIMING_LINE).
TIMING_LOG = ("log_format timing '$request_method $uri \"$args\" \"$http_x_requested_with\" "
              "$status $request_time $upstream_cache_status';\n"
              "    access_log {path} timing buffer=256k flush=1s;")

# The same fields as gunicorn logs them (microseconds, no cache status).
WORKER_TIMING = '%(m)s %(U)s "%(q)s" "%({x-requested-with}i)s" %(s)s %(D)s'


class Stack:
    """gunicorn + a Celery worker (+ beat), and nginx in front when `proxy`: started, killed and
    restarted by the benches. Clients use `url` (nginx's port when proxied, gunicorn listening
    on the next one behind it, and the readers' gunicorn on the one after: deploy/nginx.conf)."""

    def __init__(self, env: dict[str, str], *, port: int, web_workers: int,
                 reader_workers: int = 2, worker_concurrency: int = 2, beat: bool = False,
                 proxy: bool = False) -> None:
        self.env, self.port, self.beat_wanted, self.proxied = env, port, beat, proxy
        self.app_port = port + 1 if proxy else port
        self.readers_port, self.reader_workers = port + 2, reader_workers
        if proxy:
            self.env = {**env, "DJANGO_NUM_PROXIES": "1"}  # its X-Forwarded-For is believed
        self.web_workers, self.concurrency = web_workers, worker_concurrency
        self.web = self.readers = self.worker = self.beat = self.proxy = self.live_pages = None
        self.proxy_dir: Path | None = None
        self.logs = WORK / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.worker_log_path = self.logs / "worker.log"
        self.worker_restarts: list[str] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    @property
    def timing_log(self) -> Path:
        assert self.proxy_dir is not None
        return self.proxy_dir / "timing.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _spawn(self, name: str, args: list[str], **env: str) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "a")  # noqa: SIM115 - lives with the process
        return subprocess.Popen(args, cwd=ROOT, env={**self.env, **env}, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)

    def _wait_for(self, name: str, url: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if urlopen(url, timeout=2).status == 200:
                    return
            except OSError:
                time.sleep(0.3)
        raise SystemExit(f"{name} did not answer; see {self.logs / (name + '.log')}")

    def _gunicorn(self, name: str, port: int, workers: int) -> subprocess.Popen:
        # Sync workers, as docker-compose.yml runs them (--web-workers of the load bench).
        # Each request's time inside a worker, as gunicorn took it from its queue (the bench's
        # own addition: against nginx's figure, the rest is the wait for a free worker).
        web = self._spawn(name, [
            str(BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
            "--workers", str(workers), "--backlog", "2048", "--timeout", "60",
            "--access-logfile", str(self.logs / f"{name}-timing.log"),
            "--access-logformat", WORKER_TIMING])
        self._wait_for(name, f"http://127.0.0.1:{port}/healthz")
        return web

    def start_web(self) -> None:
        self.web = self._gunicorn("gunicorn", self.app_port, self.web_workers)
        if self.proxied:  # the readers' pool exists only behind nginx, which routes to it
            self.readers = self._gunicorn("gunicorn-readers", self.readers_port,
                                          self.reader_workers)

    def start_proxy(self) -> None:
        """nginx from deploy/nginx.conf, filled in as docker-compose.yml's envsubst does."""
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(nginx).exists():
            raise SystemExit("nginx is not installed (apt-get install nginx-light), or run the "
                             "bench with --no-proxy")
        # Its own folder, readable by nginx's workers (which are not root when the bench is).
        self.proxy_dir = Path(tempfile.mkdtemp(prefix="hf-bench-proxy-"))
        self.proxy_dir.chmod(0o755)
        config = (ROOT / "deploy" / "nginx.conf").read_text()
        for name, value in {"APP_UPSTREAM": f"127.0.0.1:{self.app_port}",
                            "READERS_UPSTREAM": f"127.0.0.1:{self.readers_port}",
                            "PROXY_PORT": str(self.port), "RUN_DIR": str(self.proxy_dir),
                            "LIVE_ROOT": str(self.live_root)}.items():
            config = config.replace("${" + name + "}", value)
        # The bench's own addition: each request's time as nginx saw it (from its first byte
        # read to its last byte sent), beside the clients' figures (TIMING_LOG).
        config = config.replace("access_log off;", TIMING_LOG.format(path=self.timing_log))
        (self.proxy_dir / "nginx.conf").write_text(config)
        self.proxy = self._spawn("nginx", [nginx, "-c", str(self.proxy_dir / "nginx.conf"),
                                           "-p", str(self.proxy_dir), "-g", "daemon off;"])
        self._wait_for("nginx", f"{self.url}/proxy-health")

    @property
    def live_root(self) -> Path:
        assert self.proxy_dir is not None
        return self.proxy_dir / "live"

    def start_live_pages(self) -> None:
        """The polled fragments as files for nginx, as docker-compose.yml's `live-pages`."""
        self.live_pages = self._spawn("live-pages", [
            str(BIN / "python"), "manage.py", "publish_live_pages", "--root", str(self.live_root)])

    def start_worker(self) -> None:
        self.worker = self._spawn("worker", [
            str(BIN / "celery"), "-A", "config", "worker", "--loglevel=INFO",
            f"--concurrency={self.concurrency}", "-Q", "celery,bulk",  # live and bulk queues
            "--without-gossip", "--without-mingle",
            "-n", f"bench-{os.getpid()}@%h"], LOG_LEVEL="INFO")

    def start_beat(self) -> None:
        self.beat = self._spawn("beat", [
            str(BIN / "celery"), "-A", "config", "beat", "--loglevel=INFO",
            f"--schedule={WORK / 'celerybeat-schedule'}"], LOG_LEVEL="INFO")

    def start(self) -> None:
        (WORK / "celerybeat-schedule").unlink(missing_ok=True)
        self.start_worker()
        if self.beat_wanted:
            self.start_beat()
        self.start_web()
        if self.proxied:
            self.start_proxy()
            self.start_live_pages()
        threading.Thread(target=self._supervise, daemon=True).start()

    def _supervise(self) -> None:
        """Restart a worker that exits on its own a second later, as docker-compose's
        `restart: unless-stopped` (or systemd) does in production."""
        while not self._stopping.wait(0.5):
            with self._lock:
                if self.worker is not None and self.worker.poll() is not None:
                    self.worker_restarts.append(time.strftime("%H:%M:%S"))
                    time.sleep(1)
                    self.start_worker()

    def pool_children(self) -> list[int]:
        if self.worker is None:
            return []
        out = subprocess.run(["pgrep", "-P", str(self.worker.pid)], capture_output=True,
                             text=True).stdout
        return [int(p) for p in out.split()]

    def kill_worker(self) -> None:
        """SIGKILL the worker's main process and its pool (as the OOM killer or a lost VM)."""
        with self._lock:
            if self.worker is not None:
                os.killpg(self.worker.pid, signal.SIGKILL)
                self.worker.wait()
                self.worker = None

    def stop(self) -> None:
        self._stopping.set()
        procs = (self.proxy, self.live_pages, self.web, self.readers, self.beat, self.worker)
        for proc in procs:
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            if proc is not None:
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
        if self.proxy_dir is not None:
            shutil.rmtree(self.proxy_dir, ignore_errors=True)


class LoadSampler:
    """The machine's 1-minute load average every few seconds while a run lasts."""

    def __init__(self, every: float = 5.0) -> None:
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(every,), daemon=True)

    def _run(self, every: float) -> None:
        while not self._stop.is_set():
            self.samples.append(os.getloadavg()[0])
            self._stop.wait(every)

    def __enter__(self) -> LoadSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> str:
        if not self.samples:
            return "n/a"
        return f"{min(self.samples):.1f}-{max(self.samples):.1f} (1-min load average)"


def tree_cpu_seconds(pid: int | None) -> float:
    """CPU seconds (user + system) of a process and its living children."""
    import psutil

    if pid is None:
        return 0.0
    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0.0
    for proc in procs:
        try:
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return total


def postgres_cpu_seconds() -> float:
    """CPU seconds of the machine's PostgreSQL, every database (its processes, and through the
    postmaster's children times those that have exited)."""
    import psutil

    total = 0.0
    for proc in psutil.process_iter(["name"]):
        if proc.info["name"] not in ("postgres", "postmaster"):
            continue
        try:
            times = proc.cpu_times()
            total += times.user + times.system
            if proc.ppid() == 1 or proc.parent() is None or proc.parent().name() != "postgres":
                total += times.children_user + times.children_system
        except psutil.Error:
            continue
    return total


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine spent busy since boot (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def percentile(samples: list[float], share: float) -> float:
    """Nearest-rank percentile (0 for no samples)."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, -(-int(share * 1000) * len(ordered) // 1000) - 1))]

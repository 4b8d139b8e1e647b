"""Benchmark of the analytics on a synthetic league (PostgreSQL only).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/handfoot \
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \
    .venv/bin/python bench/analytics_bench.py [--games N] [--players N] [--full] [--reuse]

Uses its own database (DATABASE_URL's name + `_bench` on the same server, e.g.
`handfoot_bench`, recreated each run unless --reuse) so it never touches dev data. Builds the
league with COPY, then times:
  1. a full recompute of standings (every event and the season), ratings and statistics
     (target < 60 s at full size: 2,000 players, 100,000 games, 400,000 rounds);
  2. the DB queries of the standings and player pages (target: constant, < 20), the player
     page's server time (p50/p95 of 40 requests, target p95 <= 150 ms) and what it transfers
     (compressed bodies as production serves them; targets: first visit <= 600 KB, repeat
     <= 60 KB), and the OpenAPI schema's first and later requests;
  3. one new game at the end of the last night: its standings (event and season), its ratings
     and its players' statistics, in process (target well under a second);
  4. through a real Celery worker started as docker-compose.yml starts it (two processes), the
     latency from a newly confirmed game to the standings page showing it, to its ratings and
     to its players' statistics being stored for the pages (targets < 2 s; skipped without
     CELERY_BROKER_URL).
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
TABLES_PER_ROTATION_MAX = 50  # a big club night: 200 players at 50 tables
ROTATIONS_PER_EVENT = 4
ROUNDS = 4


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="games to build (default 5000)")
    parser.add_argument("--players", type=int, default=400, help="players (default 400)")
    parser.add_argument("--full", action="store_true",
                        help="full size: 2,000 players and 100,000 games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reuse", action="store_true",
                        help="keep the league the last run built (skips the build and the full "
                             "recompute; each run adds a few games)")
    args = parser.parse_args()
    if args.full:
        args.games, args.players = 100_000, 2_000
    if args.players < 8:
        parser.error("--players must be at least 8")
    return args


def bench_database_url() -> str:
    """DATABASE_URL with its database name + `_bench`: each developer's own bench database."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL server (the bench uses its own database "
                 "there, named after DATABASE_URL's with `_bench` added).")
    parts = urlsplit(url)
    name = parts.path.strip("/") or "handfoot"
    return urlunsplit(parts._replace(path=f"/{name}_bench"))


def bench_database_name(url: str) -> str:
    return urlsplit(url).path.strip("/")


def recreate_database(url: str) -> None:
    import psycopg

    name = bench_database_name(url)
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


@contextmanager
def timed(label: str, results: dict):
    """Wall time, and this process's CPU time (the gap is the database and, on a busy machine,
    waiting for a core)."""
    start, cpu = time.perf_counter(), time.process_time()
    yield
    results[label] = time.perf_counter() - start
    print(f"  {label:<42} {results[label]:8.2f} s  (CPU here {time.process_time() - cpu:6.2f} s)",
          flush=True)


def copy_rows(cursor, table: str, columns: list[str], rows) -> None:
    """COPY `rows` into `table`; its other columns that have a default in the model get it (the
    database has none, and fields added later must not break the build)."""
    import json

    from django.apps import apps
    from django.db.models import JSONField

    model = next(m for m in apps.get_models() if m._meta.db_table == table)
    extra = [(f.column, json.dumps(f.get_default()) if isinstance(f, JSONField) else f.get_default())
             for f in model._meta.concrete_fields
             if f.column not in columns and not f.primary_key and (f.has_default() or not f.null)]
    names = [*columns, *(column for column, _ in extra)]
    defaults = tuple(value for _, value in extra)
    with cursor.copy(f"COPY {table} ({', '.join(names)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row((*row, *defaults))


def _max_ids(cursor, tables: tuple[str, ...]) -> dict[str, int]:
    """The largest id of each table (0 when empty): a second club's rows are numbered after."""
    ids = {}
    for table in tables:
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
        ids[table] = cursor.fetchone()[0]
    return ids


def build_league(games: int, players: int, seed: int, *, slug: str = "bench"):
    """A club, one league and season, and `games` confirmed games of four players with four
    rounds each, spread over nights of four rotations at up to 50 tables (each night's players
    drawn from the club, reseated every rotation). Returns (club, rounds built). Called again
    with another `slug`, it adds another club beside the first."""
    from django.db import connection, transaction
    from django.utils import timezone

    from league.models import Club, League, Player, Season

    rng = random.Random(seed)
    club = Club.objects.create(name=f"Bench Club {slug}", slug=slug)
    league = League.objects.create(club=club, name="Bench League", slug=slug)
    season = Season.objects.create(league=league, name="Bench", slug=slug,
                                   starts_on=datetime.date(2020, 1, 1), best_n_nights=20,
                                   min_attendance=3)
    Player.objects.bulk_create(Player(club=club, name=f"Player {i}", slug=f"p{i}")
                               for i in range(players))
    player_ids = list(Player.objects.filter(club=club).values_list("pk", flat=True))
    skill = {p: rng.gauss(0, 400) for p in player_ids}
    tables_per_rotation = min(TABLES_PER_ROTATION_MAX, players // 4)
    games_per_event = tables_per_rotation * ROTATIONS_PER_EVENT
    event_count = -(-games // games_per_event)
    now = timezone.now()
    with transaction.atomic(), connection.cursor() as cursor:
        base = _max_ids(cursor, ("league_event", "league_rotation", "league_table", "league_game"))
        first_event, first_rotation = base["league_event"] + 1, base["league_rotation"] + 1
        first_game = max(base["league_table"], base["league_game"])  # a game's id = its table's
        copy_rows(cursor, "league_event",
                  ["id", "club_id", "season_id", "name", "slug", "kind", "date", "rules_preset",
                   "rules_overrides", "format", "table_sizes", "odd_handling", "planned_rotations",
                   "scoring", "tie_breaks", "is_public", "seed", "status", "created_at",
                   "sit_out_scoring", "bye_points"],
                  ((first_event + e, club.pk, season.pk, f"Night {e + 1}",
                    f"{slug}-night-{e + 1}" if slug != "bench" else f"night-{e + 1}", "league_night",
                    datetime.date(2020, 1, 1) + datetime.timedelta(days=7 * e), "classic", "{}",
                    "rotating", "[4]", "sit_out", ROTATIONS_PER_EVENT, "match_points",
                    '["total_points", "point_difference", "wins"]', True, e, "finished", now,
                    "none", 0)
                   for e in range(event_count)))
        rotations, tables, seats, game_rows, rounds = [], [], [], [], []
        game_id = first_game
        for e in range(event_count):
            attendees = rng.sample(player_ids, tables_per_rotation * 4)  # the night's players
            for r in range(ROTATIONS_PER_EVENT):
                rotation_id = first_rotation + e * ROTATIONS_PER_EVENT + r
                rotations.append((rotation_id, first_event + e, r + 1, "closed", now))
                shuffled = rng.sample(attendees, len(attendees))
                for t in range(tables_per_rotation):
                    if game_id >= first_game + games:
                        break
                    game_id += 1
                    tables.append((game_id, rotation_id, t + 1))
                    four = shuffled[4 * t: 4 * t + 4]
                    for s, p in enumerate(four):
                        seats.append((rotation_id, game_id, p, s, s % 2))
                    game_rows.append((game_id, game_id, 3, "confirmed"))
                    strength = [skill[four[0]] + skill[four[2]], skill[four[1]] + skill[four[3]]]
                    for rnd in range(1, ROUNDS + 1):
                        scores = [int(rng.gauss(1500 + s, 900)) // 5 * 5 for s in strength]
                        out = 0 if scores[0] >= scores[1] else 1
                        for side in (0, 1):
                            rounds.append((game_id, rnd, side, scores[side], rng.randint(0, 3),
                                           rng.randint(0, 3), rng.randint(0, 1), rng.randint(0, 2),
                                           max(scores[side], 0) // 3, rng.randint(0, 200),
                                           side == out, "went_out"))
        copy_rows(cursor, "league_rotation", ["id", "event_id", "number", "status", "created_at"],
                  rotations)
        copy_rows(cursor, "league_table", ["id", "rotation_id", "number"], tables)
        copy_rows(cursor, "league_seat", ["rotation_id", "table_id", "player_id", "seat_number",
                                          "side"], seats)
        copy_rows(cursor, "league_game", ["id", "table_id", "first_dealer", "status"], game_rows)
        copy_rows(cursor, "games_roundresult",
                  ["game_id", "round_number", "side", "score", "clean_books", "dirty_books",
                   "wild_books", "red_threes", "table_points", "held_points", "went_out",
                   "ended_by"], rounds)
        for table in ("league_event", "league_rotation", "league_table", "league_game"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT MAX(id) FROM {table}))")
        cursor.execute("ANALYZE")
    return club, len(rounds) // 2


def full_recompute(club, results: dict) -> None:
    from analytics.ratings.services import ratings_recompute
    from analytics.standings.services import club_standings_recompute
    from analytics.statistics.services import statistics_recompute

    with timed("standings (every event + season)", results):
        club_standings_recompute(club_id=club.pk)
    with timed("ratings (full replay)", results):
        ratings_recompute(club_id=club.pk)
    with timed("statistics (players and partnerships)", results):
        statistics_recompute(club_id=club.pk)
    results["full recompute"] = sum(results[k] for k in (
        "standings (every event + season)", "ratings (full replay)",
        "statistics (players and partnerships)"))
    print(f"  {'full recompute total':<42} {results['full recompute']:8.2f} s")
    from django.db import connection

    with connection.cursor() as cursor:  # as autovacuum would soon: plans for the new tables
        cursor.execute("ANALYZE")


def add_confirmed_game(event, *, announce: bool = True):
    """One more confirmed game at a new table of the event's last rotation; announces the
    changed results after commit, as the results service does. Returns (game, player ids)."""
    from django.db import transaction

    from games.models import RoundResult
    from games.signals import results_changed
    from league.models import Game, Player, Rotation, Seat, Table

    with transaction.atomic():
        rotation = Rotation.objects.filter(event=event).order_by("-number").first()
        table = Table.objects.create(rotation=rotation,
                                     number=Table.objects.filter(rotation=rotation).count() + 1)
        seated = Seat.objects.filter(rotation=rotation).values_list("player_id", flat=True)
        four = list(Player.objects.filter(club=event.club).exclude(pk__in=seated)[:4])
        if len(four) < 4:  # everyone plays this rotation: seat the newcomers in a new one
            rotation = Rotation.objects.create(event=event, number=rotation.number + 1)
            table.rotation = rotation
            table.number = 1
            table.save()
            four = list(Player.objects.filter(club=event.club)[:4])
        for s, player in enumerate(four):
            Seat.objects.create(rotation=rotation, table=table, player=player, seat_number=s,
                                side=s % 2)
        game = Game.objects.create(table=table, first_dealer=3, status=Game.Status.CONFIRMED)
        RoundResult.objects.bulk_create(
            RoundResult(game=game, round_number=r, side=s, score=1000 + 100 * s,
                        ended_by="went_out", went_out=s == 1)
            for r in range(1, ROUNDS + 1) for s in (0, 1))
        if announce:
            transaction.on_commit(lambda: results_changed.send(sender=Game, event_id=event.pk))
    return game, [p.pk for p in four]


def last_night(club):
    from league.models import Event

    return Event.objects.filter(club=club).order_by("-date", "-pk").first()


def incremental_update(club, results: dict) -> None:
    """A new game after every rated one, three times: the two jobs the worker runs for it, in
    process: the standings job (the event's standings and its season's) and the ratings job
    (its ratings, then its players' statistics)."""
    from analytics.ratings.services import ratings_update
    from analytics.standings.services import event_recompute
    from analytics.statistics.services import statistics_refresh

    event = last_night(club)
    times: dict[str, list[float]] = {"standings": [], "ratings": [], "statistics": []}
    for _ in range(3):
        add_confirmed_game(event, announce=False)
        start = time.perf_counter()
        event_recompute(event_id=event.pk)
        times["standings"].append(time.perf_counter() - start)
        start = time.perf_counter()
        change = ratings_update(club_id=club.pk, event_id=event.pk)
        times["ratings"].append(time.perf_counter() - start)
        if change.players is None:
            raise SystemExit("the new game was replayed, not rated on its own")
        start = time.perf_counter()
        statistics_refresh(club_id=club.pk, player_ids=change.players)
        times["statistics"].append(time.perf_counter() - start)
    results["incremental standings"] = max(times["standings"])
    results["incremental ratings"] = max(times["ratings"])
    results["incremental statistics"] = max(times["statistics"])
    for name, label in (("standings", "its standings: event + season (worst of 3)"),
                        ("ratings", "its ratings (worst of 3)"),
                        ("statistics", "its 4 players' statistics (worst of 3)")):
        print(f"  {label:<42} {max(times[name]):8.3f} s"
              f"   samples: {', '.join(f'{s:.3f}' for s in times[name])}")


WORKER_COMMAND = ["celery", "-A", "config", "worker", "--concurrency=2"]  # as docker-compose.yml


def confirmed_games(event) -> int:
    from league.models import Game

    return Game.objects.filter(table__rotation__event=event,
                               round_results__isnull=False).distinct().count()


def worker_latency(club, url: str, results: dict) -> None:
    """A game confirmed as the results service does (the change announced after commit), then
    the time until what the pages read shows it: the event's standings snapshot (then checked
    on the standings page), the game's ratings (its RatedGame and its players' PlayerRating
    rows are written together) and its 4 players' statistics (PlayerStats). The worker runs as
    docker-compose.yml runs it: two processes, so the standings and the ratings jobs of a new
    game run side by side."""
    from django.test import Client
    from django.utils import timezone

    from analytics.models import PlayerStats, RatedGame, StandingsSnapshot
    from analytics.tasks import COALESCE_SECONDS
    from config.celery import app

    if not os.environ.get("CELERY_BROKER_URL"):
        print("  latency: skipped (set CELERY_BROKER_URL to run a real worker)")
        return
    queue = f"analytics-bench-{os.getpid()}"
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    worker = subprocess.Popen(
        [sys.executable, "-m", *WORKER_COMMAND, "-Q", queue, "--loglevel=WARNING",
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env={**os.environ, "DATABASE_URL": url},
    )
    try:
        time.sleep(6)  # let the worker and its two processes connect
        event = last_night(club)
        client = Client()
        url_path = f"/events/{event.slug}/standings/"
        seen: dict[str, list[float]] = {"standings": [], "ratings": [], "statistics": []}
        for _ in range(5):
            start, start_wall = time.perf_counter(), timezone.now()
            game, players = add_confirmed_game(event)
            expected = confirmed_games(event)
            shown: dict[str, float] = {}
            while len(shown) < 3:
                if time.perf_counter() - start > 180 or worker.poll() is not None:
                    raise SystemExit("the new game's standings, ratings or statistics never came")
                now = time.perf_counter() - start
                if "standings" not in shown and StandingsSnapshot.objects.filter(
                        event=event, games=expected).exists():
                    shown["standings"] = now
                if "ratings" not in shown and RatedGame.objects.filter(game=game).exists():
                    shown["ratings"] = now
                if "statistics" not in shown and PlayerStats.objects.filter(
                        player_id__in=players, computed_at__gt=start_wall).count() == len(players):
                    shown["statistics"] = now
                time.sleep(0.01)
            page = client.get(url_path, headers={"X-Requested-With": "fetch"}).content.decode()
            if f"{expected} confirmed game" not in page:
                raise SystemExit("the standings page does not show the new game")
            for name, value in shown.items():
                seen[name].append(value)
            time.sleep(1)  # the jobs are done: the next game starts from a quiet worker
        results["latency"] = max(seen["standings"])
        results["latency ratings"] = max(seen["ratings"])
        results["latency statistics"] = max(seen["statistics"])
        for name, label in (("standings", "new game -> standings page (worst of 5)"),
                            ("ratings", "new game -> its ratings (worst of 5)"),
                            ("statistics", "new game -> its players' statistics")):
            print(f"  {label:<42} {max(seen[name]):8.2f} s"
                  f"   samples: {', '.join(f'{s:.2f}' for s in seen[name])}")
        print(f"  (each includes the {COALESCE_SECONDS} s the jobs wait to coalesce a burst of "
              "results)")
    finally:
        worker.terminate()
        worker.wait(timeout=30)


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def player_page(club, results: dict) -> None:
    """Server time of the player page (40 requests over 20 players, gzipped as a browser asks)
    and what a browser transfers: the page gzipped and its static files as collected (brotli),
    the first visit and a repeat one (the static files cached for a year by then)."""
    import gzip
    import re
    import tempfile

    from django.core.management import call_command
    from django.test import Client, override_settings

    from league.models import Player

    players = list(Player.objects.filter(club=club).order_by("pk")[:20])
    root = Path(tempfile.mkdtemp(prefix="bench-static-"))
    with override_settings(
        DEBUG=False,  # hashed names, as production links them
        # An empty cache of its own: the first 20 requests render the partners tables.
        CACHES={name: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                       "LOCATION": f"bench-{name}-{os.getpid()}"}
                for name in ("default", "throttle")},
        STATIC_ROOT=root,
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        STORAGES={"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                  "staticfiles": {
                      "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}},
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
        client = Client(headers={"Accept-Encoding": "gzip"})
        client.get(Player.objects.filter(club=club).order_by("-pk").first()
                   .get_absolute_url())  # warm up (another player: none of the 20's tables cached)
        walls, cpus, pages = [], [], []
        for player in players * 2:
            start, cpu = time.perf_counter(), time.process_time()
            response = client.get(player.get_absolute_url())
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
            pages.append(response)
    page = max(pages, key=lambda r: len(r.content))  # the heaviest player page
    html = (gzip.decompress(page.content) if page.get("Content-Encoding") == "gzip"
            else page.content).decode()
    assets = [root / name for name in re.findall(r'(?:src|href)="/static/([^"]+)"', html)]
    static = sum((a.with_name(a.name + ".br") if a.with_name(a.name + ".br").exists() else a)
                 .stat().st_size for a in assets)
    first, repeat = len(page.content) + static, len(page.content)
    results.update({"player page p50": percentile(walls, 0.5), "player page p95":
                    percentile(walls, 0.95), "first visit": first, "repeat visit": repeat})
    print(f"  {'player page server time p50 / p95':<42} {percentile(walls, 0.5) * 1000:5.0f} / "
          f"{percentile(walls, 0.95) * 1000:.0f} ms   (CPU here p50 / p95 "
          f"{percentile(cpus, 0.5) * 1000:.0f} / {percentile(cpus, 0.95) * 1000:.0f} ms)")
    cold, warm = walls[:len(players)], walls[len(players):]
    results["player page first p95"] = percentile(cold, 0.95)
    print(f"  {'  first request of each player / repeat':<42} {percentile(cold, 0.95) * 1000:5.0f} / "
          f"{percentile(warm, 0.95) * 1000:.0f} ms p95   (the repeat's partners table cached)")
    print(f"  {'player page transfer: first / repeat visit':<42} {first / 1000:5.0f} / "
          f"{repeat / 1000:.0f} KB   (page {len(page.content) / 1000:.0f} KB gzipped, "
          f"{len(assets)} static files {static / 1000:.0f} KB brotli)")


def schema_time(results: dict) -> None:
    from django.test import Client

    client = Client()
    times = []
    for _ in range(3):
        start = time.perf_counter()
        client.get("/api/schema/")
        times.append(time.perf_counter() - start)
    results["schema first"], results["schema later"] = times[0], max(times[1:])
    print(f"  {'/api/schema/: first / later requests':<42} {times[0] * 1000:5.0f} / "
          f"{max(times[1:]) * 1000:.0f} ms")


def page_queries(club, results: dict) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from league.models import Event, Player

    client = Client()
    event = Event.objects.filter(club=club).order_by("-date").first()
    player = Player.objects.filter(club=club).order_by("pk").first()
    for label, path in (("standings page", f"/events/{event.slug}/standings/"),
                        ("season standings page", f"/seasons/{event.season_id}/standings/"),
                        ("player page", player.get_absolute_url()),
                        ("leaderboard", f"/leaderboard/?club={club.slug}")):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            status = client.get(path).status_code
            elapsed = time.perf_counter() - start
        results[f"queries: {label}"] = len(captured)
        print(f"  {label:<42} {len(captured):5d} queries  {elapsed * 1000:7.0f} ms  (HTTP {status})")


def existing_club():
    from league.models import Club

    return Club.objects.filter(slug="bench").first()


def main() -> None:
    args = parse_args()
    url = bench_database_url()
    print(f"Load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} on "
          f"{os.cpu_count()} cores (wall times grow with it; CPU times much less)")
    results: dict = {}
    club = None
    if args.reuse:
        setup_django(url)
        club = existing_club()
    if club is None:
        print(f"Database {bench_database_name(url)}: recreating")
        recreate_database(url)
        setup_django(url)
        print(f"Building {args.games:,} games for {args.players:,} players")
        with timed("build (COPY)", results):
            club, round_count = build_league(args.games, args.players, args.seed)
        print(f"  {round_count:,} rounds")
        print("Full recompute")
        full_recompute(club, results)
    else:
        print(f"Database {bench_database_name(url)}: reusing its league")
    print("Pages")
    page_queries(club, results)
    player_page(club, results)
    schema_time(results)
    print("One new game, in process")
    incremental_update(club, results)
    print("Real worker")
    worker_latency(club, url, results)
    print(f"Load average at the end {', '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC")
    print("Targets: full recompute < 60 s; page queries constant and < 20; player page p95 "
          "<= 150 ms, first visit <= 600 KB, repeat <= 60 KB; one new game's jobs well "
          "under 1 s; new game -> standings page, ratings and statistics < 2 s")


if __name__ == "__main__":
    main()

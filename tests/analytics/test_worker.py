"""A confirmed result reaches the standings through a real Celery worker (Redis + PostgreSQL)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from analytics.models import PlayerRating, PlayerStats, StandingsSnapshot
from games import services as results
from tests.games.factories import named_game, stockout_log
from tests.waiting import wait_for

REPO = Path(__file__).resolve().parents[2]
# The worker is another process: it sees only committed rows of a shared server database.
pytestmark = [pytest.mark.worker, pytest.mark.postgres]
QUEUE = f"analytics-test-{os.getpid()}"


@pytest.fixture
def worker(settings):
    from config.celery import app

    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    if db.get("PASSWORD"):
        url = url.replace(f"{db['USER']}@", f"{db['USER']}:{db['PASSWORD']}@")
    env = {**os.environ, "DATABASE_URL": url}
    process = subprocess.Popen(
        # Two processes, as docker-compose.yml runs it: the standings and ratings jobs side by side.
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=2", "-Q", QUEUE,
         "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=REPO, env=env,
    )
    app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    previous_queue = app.conf.task_default_queue
    app.conf.task_default_queue = QUEUE
    yield process
    app.conf.task_default_queue = previous_queue
    process.terminate()
    process.wait(timeout=20)


@pytest.mark.django_db(transaction=True)
def test_confirmed_result_shows_up_in_the_standings(worker):
    from django.core.cache import cache

    game = named_game()
    event = game.table.rotation.event
    cache.delete(f"recompute:event:{event.pk}")
    results.submission_create(game=game, document=stockout_log(),
                              entrant=results.Entrant.for_side(game, 0), idempotency_key="w-0")
    version = game.result_versions.order_by("-number").first()
    results.result_confirm(game=game, version_number=version.number,
                           entrant=results.Entrant.for_side(game, 1))
    snapshot = wait_for(
        lambda: StandingsSnapshot.objects.filter(event=event, games=1).first(),
        what="the standings of the confirmed game", alive=lambda: worker.poll() is None)
    assert sorted(r["total_points"] for r in snapshot.rows) == [-7705, -7705, -4155, -4155]
    # The ratings job, asked for with the standings job, rates the game and refreshes its
    # players' statistics on the same queue.
    wait_for(lambda: PlayerStats.objects.filter(club=event.club).exists(),
             what="the players' statistics", alive=lambda: worker.poll() is None)
    assert PlayerRating.objects.filter(club=event.club).count() == 4
    assert PlayerStats.objects.filter(club=event.club).count() == 4

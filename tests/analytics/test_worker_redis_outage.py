"""A real worker rides out a Redis outage (issue 22, finding 12): Redis of the test's own is
stopped for 12 s (`make bench-faults` stops it for 30 s and times it) while a result is confirmed (its recompute job cannot be sent), then started
again, empty, on the same port. Nobody restarts the worker; it reconnects by itself and the
standings show the result within 10 s of Redis's return."""

import os
import shutil
import socket
import subprocess  # nosec B404: the test runs redis-server and a worker itself
import sys
import tempfile
import time
from pathlib import Path

import pytest

from analytics.models import StandingsSnapshot
from games import services as results
from tests.games.factories import named_game, stockout_log
from tests.waiting import wait_for
from tests.workers import worker_database_url

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.worker, pytest.mark.postgres]
OUTAGE_SECONDS = 12
CATCH_UP_SECONDS = 10


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnRedis:
    def __init__(self) -> None:
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="handfoot-outage-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(  # nosec B603 B607
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.folder],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self._answers, what="redis-server to start", interval=0.05)

    def _answers(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
        except OSError:
            return False
        return True

    def wait_for_clients(self, count: int) -> None:
        import redis as redis_client

        probe = redis_client.Redis.from_url(self.url)
        # + this probe's own connection
        wait_for(lambda: len(probe.client_list()) >= count + 1, what="the worker to connect")
        probe.close()

    def stop(self) -> None:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(timeout=10)

    def remove(self) -> None:
        if self.process and self.process.poll() is None:
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def outage_stack(settings):
    """Redis of the test's own and a worker on it, as docker-compose runs one. This process keeps
    its own broker: the job that its confirmation sends goes to a queue nobody reads (deleted
    afterwards), so the job is lost for the worker exactly as one sent into a dead Redis is."""
    import redis as redis_client

    from config.celery import app

    own = OwnRedis()
    own.start()
    env = {**os.environ, "DATABASE_URL": worker_database_url(), "CELERY_BROKER_URL": own.url,
           "CELERY_RESULT_BACKEND": own.url, "CACHE_URL": own.url}
    worker = subprocess.Popen(  # nosec B603
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=2",
         "--loglevel=WARNING"], cwd=REPO, env=env)
    unread = f"outage-unread-{os.getpid()}"
    saved = (app.conf.task_default_queue, app.conf.task_always_eager)
    app.conf.task_default_queue, app.conf.task_always_eager = unread, False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        yield own, worker
    finally:
        app.conf.task_default_queue, app.conf.task_always_eager = saved
        worker.terminate()
        try:
            worker.wait(timeout=5)
        except subprocess.TimeoutExpired:  # still reconnecting somewhere: what it did is checked
            worker.kill()
            worker.wait(timeout=10)
        own.remove()
        redis_client.Redis.from_url(settings.CELERY_BROKER_URL).delete(unread)


def confirm(game) -> None:
    results.submission_create(game=game, document=stockout_log(),
                              entrant=results.Entrant.for_side(game, 0), idempotency_key="o-0")
    version = game.result_versions.order_by("-number").first()
    results.result_confirm(game=game, version_number=version.number,
                           entrant=results.Entrant.for_side(game, 1))


def standings_games(event) -> int:
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    return snapshot.games if snapshot else 0


@pytest.mark.django_db(transaction=True)
def test_standings_catch_up_within_seconds_of_redis_return_without_a_restart(outage_stack):
    redis, worker = outage_stack
    game = named_game()
    event = game.table.rotation.event
    redis.wait_for_clients(3)  # the worker is up and consuming (its connections are open)
    redis.stop()
    stopped = time.monotonic()
    confirm(game)  # stored; its recompute job never reaches the worker
    assert standings_games(event) == 0
    time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - stopped)))
    assert worker.poll() is None, "the worker exited while Redis was down"
    redis.start()
    back = time.monotonic()
    while standings_games(event) < 1 and time.monotonic() - back < CATCH_UP_SECONDS:
        time.sleep(0.2)
    caught_up = time.monotonic() - back
    assert standings_games(event) == 1, f"standings not current {caught_up:.1f} s after Redis"
    assert worker.poll() is None, "the worker was restarted or exited"

"""A real Celery worker process against Redis: a task sent through the broker comes back."""

import os
import subprocess
import sys
import uuid

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.worker


@pytest.fixture
def real_broker():
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield app
    app.conf.task_always_eager = previous


def test_a_real_worker_runs_a_task_sent_through_redis(real_broker):
    queue = f"test-ping-{uuid.uuid4().hex[:8]}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--concurrency=1", "-Q", queue, "--without-gossip", "--without-mingle",
         "--loglevel=WARNING"],
        cwd=REPO_ROOT,
        env={**os.environ, "CELERY_BROKER_URL": os.environ["CELERY_BROKER_URL"]},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        result = real_broker.send_task("config.ping", args=[41], queue=queue)

        assert result.get(timeout=60) == 42
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()

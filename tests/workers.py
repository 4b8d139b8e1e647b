"""A real Celery worker process for the `worker` tests: on a queue of its own, against the
test's own database, with this process sending its tasks there."""

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

from tests.conftest import REPO_ROOT


def worker_database_url() -> str:
    db = connection.settings_dict
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def real_worker(settings, *, concurrency: int = 1, env: dict[str, str] | None = None,
                name: str = "test") -> Iterator[subprocess.Popen]:
    """A worker serving a fresh queue, which this process's tasks go to while it runs, and a
    fresh bulk queue (settings.BULK_QUEUE: imports, rebuilds), as production's two workers do."""
    from config.celery import app

    queue = f"{name}-{uuid.uuid4().hex[:8]}"
    settings.BULK_QUEUE = f"{queue}-bulk"
    process = subprocess.Popen(  # nosec B603
        [sys.executable, "-m", "celery", "-A", "config", "worker", f"--concurrency={concurrency}",
         "-Q", f"{queue},{queue}-bulk", "--without-gossip", "--without-mingle",
         "--loglevel=WARNING"],
        cwd=REPO_ROOT, env={**os.environ, "DATABASE_URL": worker_database_url(),
                            # what the worker itself sends as bulk work (an import's rebuild)
                            "CELERY_BULK_QUEUE": settings.BULK_QUEUE, **(env or {})})
    saved = (app.conf.task_default_queue, app.conf.task_always_eager)
    app.conf.task_default_queue, app.conf.task_always_eager = queue, False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        yield process
    finally:
        app.conf.task_default_queue, app.conf.task_always_eager = saved
        process.terminate()
        process.wait(timeout=20)

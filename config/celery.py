"""The Celery application. Without CELERY_BROKER_URL tasks run in-process (eager)."""

import functools
import logging
import os
from collections.abc import Callable
from typing import Any

from celery import Celery, bootsteps
from celery.worker.consumer import Consumer
from kombu import Connection

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger(__name__)

# While the broker is away the worker tries again every few seconds, for ever: kombu's own
# back-off grows to 30 s between tries, so a worker could come back half a minute after Redis did,
# and after 100 tries (broker_connection_max_retries) it would give up and exit.
RECONNECT_INTERVAL_MAX = 2.0


class ReconnectingConsumer(Consumer):
    """The worker's consumer, reconnecting to the broker every RECONNECT_INTERVAL_MAX seconds at
    most (Celery passes no interval settings to kombu's ensure_connection)."""

    def ensure_connected(self, conn: Connection) -> Connection:
        # kombu sleeps these (floats); its stubs say int
        intervals: dict[str, Any] = {"interval_start": 0.5, "interval_step": 0.5,
                                     "interval_max": RECONNECT_INTERVAL_MAX}
        # mypy forbids assigning to a method; this instance's one is replaced on purpose
        conn.ensure_connection = functools.partial(  # type: ignore[method-assign]  # kombu has no hook: the reconnect loop is ours
            conn.ensure_connection, **intervals)
        return super().ensure_connected(conn)

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        """Celery closes the broken connection here, ignoring connection errors only; but kombu
        5.7, closing a Redis channel, first restores its unacknowledged messages through the
        dead connection and fails with an AttributeError (`conninfo` is gone), which ended the
        worker ("Unrecoverable error"). That close is guarded: the messages stay in Redis's
        unacked set and come back after the visibility timeout, and the catch-up sweep reruns
        their (idempotent) jobs as soon as the worker is connected again."""
        connection = self.connection
        if connection is not None:
            # mypy forbids assigning to a method; this connection's close is guarded on purpose
            connection.close = functools.partial(  # type: ignore[method-assign]  # guards kombu 5.7 closing a dead connection
                _close_ignoring_lost_connection, connection.close)
        super().on_connection_error_after_connected(exc)


def _close_ignoring_lost_connection(close: Callable[[], object]) -> None:
    try:
        close()
    except AttributeError:
        log.warning("broker connection lost mid-close; unacked messages are left to Redis",
                    exc_info=True)


class CatchUpWhenConnected(bootsteps.StartStopStep):
    """Each time the worker has (re)connected to the broker, it asks for the stale snapshot sweep
    at once, without its grace period: jobs that could not be sent while the broker was down (or
    were lost with it) are sent again within seconds of its return, not at the next beat."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent: Consumer) -> None:
        # the worker's own (-Q) queue; task_consumer is set by the Tasks step required above,
        # which the Consumer stubs cannot know
        queue = next(iter(parent.task_consumer.queues)).name  # type: ignore[attr-defined]  # celery-types lacks Consumer.task_consumer
        try:
            parent.app.send_task("analytics.sweep_stale_snapshots", queue=queue,
                                 kwargs={"grace_seconds": 0, "queue": queue}, ignore_result=True)
            # and the jobs kept while it was away (jobs.services.outbox)
            parent.app.send_task("jobs.resend_pending", queue=queue, ignore_result=True)
        except Exception:  # the broker went again: the next connection asks again
            log.warning("catch-up sweep not sent; it is sent at the next connection")


# Tasks that are bulk work wherever they are sent from (the beat's nightly rebuild); a job of a
# bulk kind (jobs.kinds.JobKind.bulk: the imports) and an import's rebuild name the bulk queue
# themselves, and the follow-ups of a job go to the queue it came from.
BULK_TASKS = frozenset({"analytics.recompute_all_clubs"})


def route_task(name: str, args: object, kwargs: object, options: dict[str, Any],
               task: object = None, **_: Any) -> dict[str, str] | None:
    """Celery's router: bulk tasks to `settings.BULK_QUEUE` (read when sent: a test's worker
    serves a bulk queue of its own), everything else to the default queue."""
    if name in BULK_TASKS:
        from django.conf import settings

        return {"queue": settings.BULK_QUEUE}
    return None


app = Celery("handfoot")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_routes = (route_task,)
app.steps["consumer"].add(CatchUpWhenConnected)
app.autodiscover_tasks()


@app.task(name="config.ping", ignore_result=False)  # its caller reads the result
def ping(value: int = 1) -> int:
    """A trivial task the health check and the real-worker test use to prove the round trip."""
    return value + 1

"""The Celery application. Without CELERY_BROKER_URL tasks run in-process (eager)."""

import functools
import logging
import os

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
        conn.ensure_connection = functools.partial(  # type: ignore[method-assign]  # the interval
            conn.ensure_connection, interval_start=0.5, interval_step=0.5,
            interval_max=RECONNECT_INTERVAL_MAX)
        return super().ensure_connected(conn)


class CatchUpWhenConnected(bootsteps.StartStopStep):
    """Each time the worker has (re)connected to the broker, it asks for the stale snapshot sweep
    at once, without its grace period: jobs that could not be sent while the broker was down (or
    were lost with it) are sent again within seconds of its return, not at the next beat."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, parent: Consumer) -> None:
        queue = next(iter(parent.task_consumer.queues)).name  # the worker's own (-Q) queue
        try:
            parent.app.send_task("analytics.sweep_stale_snapshots", queue=queue,
                                 kwargs={"grace_seconds": 0, "queue": queue}, ignore_result=True)
        except Exception:  # the broker went again: the next connection asks again
            log.warning("catch-up sweep not sent; it is sent at the next connection")


app = Celery("handfoot")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.steps["consumer"].add(CatchUpWhenConnected)
app.autodiscover_tasks()


@app.task(name="config.ping")
def ping(value: int = 1) -> int:
    """A trivial task the health check and the real-worker test use to prove the round trip."""
    return value + 1

"""The Celery application. Without CELERY_BROKER_URL tasks run in-process (eager)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("handfoot")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping")
def ping(value: int = 1) -> int:
    """A trivial task the health check and the real-worker test use to prove the round trip."""
    return value + 1

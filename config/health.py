"""`/healthz`: is the database reachable, and the broker (or are tasks run in-process)?"""

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache


def _database_ok() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return True, connection.vendor
    except Exception as exc:  # any failure means "not reachable"; the message says why
        return False, str(exc)


def _broker_ok() -> tuple[bool, str]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return True, "in-process (no broker configured)"
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return True, app.conf.broker_url.split("@")[-1]
    except Exception as exc:
        return False, str(exc)


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    db_ok, db_detail = _database_ok()
    broker_ok, broker_detail = _broker_ok()
    healthy = db_ok and broker_ok
    return JsonResponse(
        {
            "status": "ok" if healthy else "unavailable",
            "database": {"ok": db_ok, "detail": db_detail},
            "broker": {"ok": broker_ok, "detail": broker_detail},
        },
        status=200 if healthy else 503,
    )

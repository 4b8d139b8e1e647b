"""When the database is unreachable (restarting, failing over), a request gets a clear, retryable
answer instead of a 500: 503 with `Retry-After`, JSON in the API's error shape for the API, a
short page otherwise. Every write runs in a transaction, so nothing half-stored is left behind.
The connection can also drop after a write has committed (while the answer is being built):
bench/faults.py saw it once in 200 submissions during a PostgreSQL restart. So the message does
not promise that nothing was stored; it says that sending the same entry again is safe (its
Idempotency-Key makes the retry answer 200 with the stored submission)."""

from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from web.errors import REGISTRY, edge_error
from web.errors import Code as EdgeCode

DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5


MESSAGE = REGISTRY.message(EdgeCode.SERVICE_UNAVAILABLE)


def unavailable_body() -> dict:
    return {"error": {**edge_error(EdgeCode.SERVICE_UNAVAILABLE), "details": None}}


def database_unavailable(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(unavailable_body(), status=503)
    else:
        html: str
        try:
            html = render_to_string("503.html", {"message": MESSAGE})
        except Exception:  # the page itself may need the database (a context processor)
            html = f"<!doctype html><title>Try again shortly</title><p>{MESSAGE}</p>"
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseUnavailableMiddleware:
    """Turns a view's lost database connection into 503 with Retry-After."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        except DATABASE_DOWN:
            return database_unavailable(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_DOWN):
            return database_unavailable(request)
        return None

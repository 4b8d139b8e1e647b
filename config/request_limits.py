"""The size of a request, refused from its `Content-Length` before a byte of the body is read.

Django limits what it parses into memory (DATA_UPLOAD_MAX_MEMORY_SIZE) but spools a multipart
file upload to disk in full before any view, throttle or 404 sees it: a 300 MB anonymous upload to
a link that does not exist was written to disk before its 404. This middleware runs first, so
such a request costs a header's worth of work. A body without a length (chunked) is not read by
Django under WSGI at all; in production the proxy (docker-compose's nginx) refuses large bodies
too, before they reach a worker.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string


def request_max_bytes() -> int:
    """The largest body any request may send: an API body or an uploaded move log, with room
    for the multipart framing around it."""
    return int(settings.REQUEST_MAX_BYTES)


def _refusal(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"error": {"code": code, "message": message, "details": None}}, status=status)
    else:
        html: str
        try:
            html = render_to_string("refused.html", {"refusal": {"message": message}})
        except Exception:  # a page that cannot be drawn without the request still says why
            html = f"<!doctype html><title>Not done</title><p>{message}</p>"
        response = HttpResponse(html, status=status)
    # No `Connection: close` here: WSGI forbids an application hop-by-hop headers (the
    # development server refuses the response). gunicorn's sync workers close every connection
    # after its answer anyway, so the unread body is never taken for a next request.
    return response


class RequestSizeLimitMiddleware:
    """413 for a declared body over REQUEST_MAX_BYTES, 400 for a length that is not a number."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if not declared.isdigit() or len(declared) > 15:
            return _refusal(request, 400, "BAD_CONTENT_LENGTH",
                            "The request's length is not a number of bytes.")
        limit = request_max_bytes()
        if int(declared) > limit:
            return _refusal(request, 413, "REQUEST_TOO_LARGE",
                            f"The request is larger than {limit / 1_000_000:.1f} MB, the most "
                            "this site accepts; nothing was read or stored.")
        return self.get_response(request)

"""One JSON shape for every API refusal: {"error": {"code": ..., "message": ..., "details": ...}}
(described once for the schema by `web.error_shape.ErrorSerializer`).

A service's refusal (`core.errors.DomainError`) answers the status `web.http` gives its kind;
DRF's own exceptions (validation, authentication, throttling) keep theirs.
"""

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from config.faults import DATABASE_DOWN, RETRY_AFTER_SECONDS, unavailable_body
from core.errors import DomainError
from web.http import refusal_status

# Django's own exceptions, which DRF answers as 404 and 403 (e.g. get_object_or_404).
DJANGO_CODES = {Http404: "not_found", DjangoPermissionDenied: "permission_denied"}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DATABASE_DOWN):
        # Retryable: the write's transaction was rolled back, nothing is half-stored.
        return Response(unavailable_body(), status=503,
                        headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
    if isinstance(exc, DomainError):
        set_rollback()
        return Response({"error": _plain(exc.as_dict())}, status=refusal_status(exc))
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = response.data
    code = getattr(exc, "default_code", None) or DJANGO_CODES.get(type(exc), "error")
    raised = getattr(exc, "detail", None)
    if isinstance(raised, dict) and "code" in raised:
        # Raised with our own code and message (e.g. a permission refusal naming its code).
        plain = {k: _plain(v) for k, v in raised.items()}
        response.data = {"error": {**plain, "details": plain.get("details")}}
        return response
    message = _plain(detail.get("detail")) if isinstance(detail, dict) and "detail" in detail else None
    response.data = {
        "error": {
            "code": str(code).upper(),
            "message": message or "The request was not valid.",
            "details": None if message else _plain(detail),
        }
    }
    return response


def _plain(value: Any) -> Any:
    """ErrorDetail strings and nested lists/dicts to plain JSON values."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return str(value) if value is not None and not isinstance(value, (int, float, bool)) else value


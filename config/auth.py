"""Sign-in: the API token endpoint (throttled), and what a locked-out login gets.

Wrong passwords are counted by django-axes (per address and username, in the database): after
`AXES_FAILURE_LIMIT` failures the page login and /api/auth/token/ answer 429 with `Retry-After`
until `AXES_COOLOFF_TIME` has passed. Token requests are also throttled per client (`token`).
"""

from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from core.throttling import TokenThrottle, retry_after


def _cool_off_seconds(request: Any) -> int:
    cool_off = get_cool_off(request)
    return retry_after(cool_off.total_seconds() if cool_off else 60)


def _is_api(request: Any) -> bool:
    return request.path.startswith("/api/")


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """django-axes' answer to a locked-out client: 429 with Retry-After (JSON for the API)."""
    seconds = _cool_off_seconds(request)
    message = (
        "Too many failed sign-ins from here for this account; try again in "
        f"{max(1, seconds // 60)} minute{'s' if seconds >= 120 else ''}."
    )
    if _is_api(request):
        response: HttpResponse = JsonResponse(
            {"error": {"code": "LOCKED_OUT", "message": message, "details": None}}, status=429
        )
    else:
        response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


class TokenView(ObtainAuthToken):
    """POST username and password, get the account's API token."""

    throttle_classes = [TokenThrottle]
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES

    @extend_schema(summary="Get the API token of an account (username and password)")
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            if getattr(request, "axes_locked_out", False) or getattr(
                request._request, "axes_locked_out", False
            ):
                return lockout_response(request)
            serializer.is_valid(raise_exception=True)
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})

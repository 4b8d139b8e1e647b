"""Sign-in: the lockout of wrong passwords, device cookies, and the API's expiring tokens.

**Lockout** (django-axes, in the database). Wrong passwords are counted, for the same account,
in one of two ways, as OWASP's "Slow Down Online Guessing Attacks with Device Cookies" describes:

- A browser (or API client) that has signed in to the account before holds a *device cookie*:
  signed by the site (`django.core.signing`, so a forged or altered one counts as none), naming
  the account and a random nonce. Its wrong passwords count against that device only: its own
  allowance of `AXES_FAILURE_LIMIT` failures. A stranger's guesses never use it up, so the
  account's owner signs in from their own browser even while the account is under attack.
- Every other attempt is *untrusted*: counted per account across all addresses
  (`LOGIN_ACCOUNT_FAILURE_LIMIT`) and per address and account (`AXES_FAILURE_LIMIT`).

The device's pool is kept by axes under the account's name with the device named beside it
(`AXES_USERNAME_CALLABLE`), and the handler (`AXES_HANDLER`) compares each pool with its own
limit. Past a limit the page login and `POST /api/auth/token/` answer 429 with `Retry-After`
until `AXES_COOLOFF_TIME` has passed since the last failure; a right password from a trusted
device clears its device's count, one from an untrusted client clears the untrusted counts.
Setting a new password (Django's password reset or change, the admin, `changepassword`)
clears every count of the account and revokes its API tokens (`PasswordChangeRevokes`).

**API tokens** (django-rest-knox): `POST /api/auth/token/` with username and password gives a
new token for each request, sent as `Authorization: Token <key>`; the database keeps only its
hash. It expires after `REST_KNOX["TOKEN_TTL"]` and is revoked by `POST /api/auth/logout/` (this
token), `POST /api/auth/logout-all/` (all of the account's) or a new password. Token requests are
also throttled per client (`token`).
"""

import json
import secrets
from dataclasses import dataclass
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.views import LoginView
from django.db.models import Q, Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from knox.models import get_token_model
from knox.views import LoginView as KnoxLoginView
from knox.views import LogoutAllView as KnoxLogoutAllView
from knox.views import LogoutView as KnoxLogoutView
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from web.errors import Code as EdgeCode
from web.errors import edge_error
from web.throttling import TokenThrottle, retry_after

DEVICE_COOKIE = "hf_device"
DEVICE_SALT = "config.auth.device-cookie"
DEVICE_COOKIE_MAX_AGE = 180 * 24 * 3600  # seconds: a device unused for half a year is a stranger
DEVICE_ACCOUNTS_KEPT = 5  # accounts one browser is trusted for (a club's shared laptop)
_DEVICE_MARK = " (device "  # no Django username holds a space or parentheses


# --- device cookies ------------------------------------------------------------------------


def device_nonces(request: Any) -> dict[str, str]:
    """The accounts this browser's device cookie names, each with its nonce; {} when it has none,
    or a forged, altered or expired one."""
    raw = request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT,
                                    max_age=DEVICE_COOKIE_MAX_AGE)
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def remember_device(request: Any, response: HttpResponse, username: str) -> None:
    """After a right password: this browser is now trusted for `username` (a fresh nonce, so a
    copied older cookie is worth nothing), keeping the most recent few other accounts."""
    nonces = {k: v for k, v in device_nonces(request).items() if k != username}
    kept = dict(list(nonces.items())[-(DEVICE_ACCOUNTS_KEPT - 1):])
    kept[username] = secrets.token_urlsafe(16)
    response.set_signed_cookie(
        DEVICE_COOKIE, json.dumps(kept), salt=DEVICE_SALT, max_age=DEVICE_COOKIE_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE, httponly=True, samesite="Lax",
    )


def _typed_username(request: Any, credentials: dict | None) -> str | None:
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    if credentials:
        return credentials.get(field)
    data = getattr(request, "data", None)
    if data is None:
        data = getattr(request, "POST", {})
    value = data.get(field) if hasattr(data, "get") else None
    return value if isinstance(value, str) else None


def lockout_username(request: Any, credentials: dict | None = None) -> str | None:
    """AXES_USERNAME_CALLABLE: the pool a login attempt is counted in. The account's name for an
    untrusted attempt; the account's name with the device beside it for a browser holding a
    valid device cookie for that account."""
    username = _typed_username(request, credentials)
    if not username or request is None or not hasattr(request, "get_signed_cookie"):
        return username
    nonce = device_nonces(request).get(username)
    return f"{username}{_DEVICE_MARK}{nonce})" if nonce else username


def _is_device_pool(username: str | None) -> bool:
    return username is not None and _DEVICE_MARK in username


@dataclass(frozen=True)
class Pool:
    parameter: str | list[str]
    limit: int


def lockout_pools(request_or_attempt: Any, credentials: dict | None = None) -> list[Pool]:
    """Which failures an attempt is counted with, and how many each may reach."""
    if isinstance(request_or_attempt, AccessAttempt):
        username = request_or_attempt.username
    else:
        username = lockout_username(request_or_attempt, credentials)
    per_address = settings.AXES_FAILURE_LIMIT
    if _is_device_pool(username):
        return [Pool("username", per_address)]  # this device's own allowance
    return [Pool("username", settings.LOGIN_ACCOUNT_FAILURE_LIMIT),  # all untrusted clients
            Pool(["ip_address", "username"], per_address)]


def lockout_parameters(request_or_attempt: Any, credentials: dict | None = None) -> list:
    """AXES_LOCKOUT_PARAMETERS."""
    return [pool.parameter for pool in lockout_pools(request_or_attempt, credentials)]


class LoginLockoutHandler(AxesDatabaseHandler):
    """axes' database handler, with a limit of its own for each pool (axes compares the largest
    count with one limit): it answers the failures as "the limit minus the fewest failures left
    in any pool", so `>= AXES_FAILURE_LIMIT` holds exactly when some pool has reached its own."""

    def get_failures(self, request: Any, credentials: dict | None = None) -> int:
        pools = lockout_pools(request, credentials)
        base = get_failure_limit(request, credentials)
        worst = 0
        for pool, attempts in zip(pools, self.get_user_attempts(request, credentials),
                                  strict=True):
            failures = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            worst = max(worst, base - pool.limit + failures)
        return worst


def account_lockout_clear(*, username: str) -> int:
    """Forget every failed sign-in of an account (untrusted and every device's)."""
    count, _ = AccessAttempt.objects.filter(
        Q(username=username) | Q(username__startswith=f"{username}{_DEVICE_MARK}")
    ).delete()
    return count


class PasswordChangeRevokes:
    """Django calls `password_changed` of each AUTH_PASSWORD_VALIDATORS entry whenever an
    account's password is set and saved (reset, change, admin, `changepassword`), never when it
    only re-hashes a password at sign-in: the one hook for "the password changed". It revokes the
    account's API tokens and lifts its lockout (whoever set the password knows it)."""

    def validate(self, password: str, user: Any = None) -> None:
        return None

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is None or user.pk is None:
            return
        get_token_model().objects.filter(user=user).delete()
        account_lockout_clear(username=user.get_username())

    def get_help_text(self) -> str:
        return "A new password signs out every API token of the account."


# --- what a locked-out client gets ---------------------------------------------------------


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
    minutes = max(1, seconds // 60)
    refused = edge_error(EdgeCode.LOCKED_OUT, wait=f"{minutes} minute{'s' if minutes > 1 else ''}")
    message = refused["message"]
    if _is_api(request):
        response: HttpResponse = JsonResponse(
            {"error": {**refused, "details": None}}, status=429
        )
    else:
        response = render(request, "registration/locked_out.html", {"message": message},
                          status=429)
    response["Retry-After"] = str(seconds)
    return response


# --- the page login ------------------------------------------------------------------------


class DeviceLoginView(LoginView):
    """Django's login page; a right password also gives this browser its device cookie."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        remember_device(self.request, response, form.get_user().get_username())
        return response


# --- API tokens ----------------------------------------------------------------------------


class AuthTokenSerializer(serializers.Serializer):
    """An account's username and password (the schema's `AuthTokenRequest`)."""

    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, write_only=True,
                                     style={"input_type": "password"})

    def validate(self, attrs: dict) -> dict:
        user = authenticate(request=self.context["request"], username=attrs["username"],
                            password=attrs["password"])
        if user is None:
            raise serializers.ValidationError(
                "The username and password do not match an account.", code="authorization")
        return {"user": user}


_TOKEN_ANSWER = inline_serializer("ApiToken", {
    "token": serializers.CharField(help_text="Send it as `Authorization: Token <token>`."),
    "expiry": serializers.DateTimeField(help_text="When the token stops working."),
})


def _locked_out(request: Request) -> bool:
    return bool(getattr(request, "axes_locked_out", False)
                or getattr(request._request, "axes_locked_out", False))


class TokenView(KnoxLoginView):
    """POST username and password, get a new API token of the account (it expires)."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = [TokenThrottle]
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    serializer_class = AuthTokenSerializer

    @extend_schema(
        summary="Get a new API token (username and password); it expires",
        request=AuthTokenSerializer, responses={200: _TOKEN_ANSWER},
    )
    def post(self, request: Request, format: str | None = None) -> Response | HttpResponse:
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        if not serializer.is_valid():
            if _locked_out(request):
                return lockout_response(request)
            serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        request.user = user
        get_token_model().objects.filter(user=user, expiry__lt=timezone.now()).delete()
        response = super().post(request, format=format)
        remember_device(request, response, user.get_username())
        return response


class TokenLogoutView(KnoxLogoutView):
    """Revoke the token this request is sent with."""

    @extend_schema(summary="Revoke this API token", request=None,
                   responses={204: OpenApiResponse(description="Revoked.")})
    def post(self, request: Request, format: str | None = None) -> Response:
        return super().post(request, format=format)


class TokenLogoutAllView(KnoxLogoutAllView):
    """Revoke every API token of the account this request's token belongs to."""

    @extend_schema(summary="Revoke every API token of this account", request=None,
                   responses={204: OpenApiResponse(description="All revoked.")})
    def post(self, request: Request, format: str | None = None) -> Response:
        return super().post(request, format=format)

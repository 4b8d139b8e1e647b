"""Throttles: DRF's rate throttles, per client (IP address, or the user when signed in).

Scopes and rates live in settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, each overridable
from the environment). Counts are kept in the `throttle` cache (Redis when configured, so every
web worker shares them). A throttled client gets 429 with `Retry-After`. When the cache itself is
unreachable the request is let through: a broken Redis must not stop a club night.

- `check`: the anonymous engine checks (/api/sheets/check/, /api/logs/check/).
- `token`: requests for an API token (/api/auth/token/).
- `lookup` and `lookup_site`: table codes, table links and `X-Entry-Token` values that find
  nothing (a guess), on the pages and the API: at most `lookup` failures per client address and
  `lookup_site` failures across all addresses together (a flood from many addresses) in each
  window. Only failures are counted and only failures are refused: a code, link or token that
  matches is always answered, however many failures its address has had, so one scorer's typos
  (or a prankster) behind a club's shared address never stop the other tables. The one exception:
  while the whole site is over `lookup_site` (a flood), a typed 7-character code from an address
  that is itself over `lookup` is not looked up (429), or a flood ignoring 429s could still test
  codes at full speed; links and entry tokens (192 random bits) are answered even then. The
  arithmetic of guessing is in docs/api.md ("Throttles").
"""

import logging
import math
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework import throttling
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings

log = logging.getLogger(__name__)


class ScopedClientThrottle(throttling.SimpleRateThrottle):
    """A rate per client for one scope; the rate is read from settings at each request."""

    scope = ""

    # DRF declares `cache` a class attribute (the default cache); a property reads the
    # "throttle" cache at each request instead, which mypy calls an incompatible override
    @property
    def cache(self) -> Any:  # type: ignore[override]  # DRF declares a class attribute; ours is read per request
        return caches["throttle"]

    def get_rate(self) -> str | None:
        return _configured_rate(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        ident = f"user:{user.pk}" if user is not None and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:  # the cache is down: let the request through rather than fail it
            log.warning("throttle cache unreachable; %s not throttled", self.scope, exc_info=True)
            return True


SITE_KEY = "throttle_lookup_site"


class CheckThrottle(ScopedClientThrottle):
    scope = "check"


class TokenThrottle(ScopedClientThrottle):
    scope = "token"


class LookupThrottle(ScopedClientThrottle):
    scope = "lookup"


def retry_after(wait: float | None) -> int:
    return max(1, math.ceil(wait or 1))


def _configured_rate(scope: str) -> str | None:
    """The rate of `scope` in settings ("10/min"), None when it has none."""
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
    return None if rate is None else str(rate)


def _parse(rate: str | None) -> tuple[int, int] | None:
    if not rate:
        return None
    # parse_rate does not use `self`: called on the class, without a throttle to build
    num, duration = throttling.SimpleRateThrottle.parse_rate(None, rate)  # type: ignore[arg-type]  # parse_rate never reads self
    return None if num is None or duration is None else (num, duration)


def _count_in_window(cache: Any, key: str, duration: int, now: float) -> int:
    """One more in the current fixed window of `duration` seconds; the window's total.
    `add` + `incr` are atomic in Redis, so workers counting at once never lose a count."""
    window_key = f"{key}:{int(now // duration)}"
    cache.add(window_key, 0, duration * 2)
    try:
        return int(cache.incr(window_key))
    except ValueError:  # expired between add and incr
        cache.add(window_key, 1, duration * 2)
        return 1


def _bounds(request: Any) -> tuple[tuple[tuple[int, int] | None, str], ...]:
    throttle = LookupThrottle()
    return (
        (_parse(throttle.get_rate()), throttle.get_cache_key(request, None)),
        (_parse(_configured_rate("lookup_site")), SITE_KEY),
    )


def codes_refused(request: Any) -> float | None:
    """Seconds to wait when a typed code must not even be looked up, else None: only while the
    whole site is over its failure bound (a flood) AND this address is itself over its own. Table
    links and entry tokens are never refused (their space alone makes guessing hopeless)."""
    now = time.time()
    try:
        cache = LookupThrottle().cache
        waits = []
        for parsed, key in _bounds(request):
            if parsed is None:
                return None
            limit, duration = parsed
            if int(cache.get(f"{key}:{int(now // duration)}", 0)) < limit:
                return None
            waits.append(duration - now % duration)
    except Exception:
        log.warning("throttle cache unreachable; codes not throttled", exc_info=True)
        return None
    return max(waits)


def lookup_failed(request: Any) -> float | None:
    """Count one failed lookup (a code, link or token that matches nothing) against the client's
    address and against the whole site. Seconds to wait when either bound is now exceeded
    (answer 429 instead of "not found"), else None. A cache that is down counts nothing."""
    now = time.time()
    waits = []
    try:
        cache = LookupThrottle().cache
        for parsed, key in _bounds(request):
            if parsed is None:
                continue
            limit, duration = parsed
            if _count_in_window(cache, key, duration, now) > limit:
                waits.append(duration - now % duration)
    except Exception:
        log.warning("throttle cache unreachable; failed lookup not counted", exc_info=True)
        return None
    return max(waits) if waits else None


def api_lookup_failed(request: Any) -> None:
    """After an API lookup that found nothing: count it, and refuse (429) when the address or the
    site has used up its failures."""
    wait = lookup_failed(request)
    if wait is not None:
        raise Throttled(wait=retry_after(wait))


def too_many_lookups(request: HttpRequest, wait: float) -> HttpResponse:
    seconds = retry_after(wait)
    response = render(request, "429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def page_lookup_throttled(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a page that resolves a table code or link: the page is always answered when the code
    or link matches (one exception, for typed codes during a flood: `codes_refused`). A lookup that ends in 404 (or redisplays the code form with an error, status
    200 with `request.lookup_failed` set) is a failure: counted, and answered 429 instead once the
    address or the site has used up its failures."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if "token" not in kwargs and request.method == "POST":  # a typed code, not a link
            wait = codes_refused(request)
            if wait is not None:
                return too_many_lookups(request, wait)
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            wait = lookup_failed(request)
            if wait is not None:
                return too_many_lookups(request, wait)
            raise
        if response.status_code == 404 or getattr(request, "lookup_failed", False):
            wait = lookup_failed(request)
            if wait is not None:
                return too_many_lookups(request, wait)
        return response

    return wrapper


def client_ip(request: Any) -> str:
    """The client's address as the throttles see it (REMOTE_ADDR, or X-Forwarded-For behind
    `NUM_PROXIES` proxies): django-axes counts failed logins per the same address."""
    return throttling.BaseThrottle().get_ident(request)

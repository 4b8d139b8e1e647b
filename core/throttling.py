"""Throttles: DRF's rate throttles, per client (IP address, or the user when signed in).

Scopes and rates live in settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, each overridable
from the environment). Counts are kept in the `throttle` cache (Redis when configured, so every
web worker shares them). A throttled client gets 429 with `Retry-After`. When the cache itself is
unreachable the request is let through: a broken Redis must not stop a club night.

- `check`: the anonymous engine checks (/api/sheets/check/, /api/logs/check/).
- `token`: requests for an API token (/api/auth/token/).
- `lookup`: table code and table link lookups that find nothing (a guess), on the pages and the
  API. Lookups that find their game are not counted, so a club's tables behind one address are
  never slowed down.
"""

import logging
import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework import throttling
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings

log = logging.getLogger(__name__)


class ScopedClientThrottle(throttling.SimpleRateThrottle):
    """A rate per client for one scope; the rate is read from settings at each request."""

    scope = ""

    @property
    def cache(self) -> Any:  # type: ignore[override]
        return caches["throttle"]

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

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

    # --- counting only some requests (failed lookups) ---------------------------------------

    def exhausted(self, request: Any) -> float | None:
        """Seconds to wait when the client has used up the scope's rate, else None (no count)."""
        if self.rate is None:
            return None
        try:
            self.key = self.get_cache_key(request, None)
            self.history = self.cache.get(self.key, [])
        except Exception:
            log.warning("throttle cache unreachable; %s not throttled", self.scope, exc_info=True)
            return None
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return self.wait() if len(self.history) >= self.num_requests else None

    def count(self, request: Any) -> None:
        """Record one request against the client's rate (after a failed lookup)."""
        if self.rate is None:
            return
        try:
            if self.exhausted(request) is None:
                self.history.insert(0, self.now)
                self.cache.set(self.key, self.history, self.duration)
        except Exception:
            log.warning("throttle cache unreachable; %s not counted", self.scope, exc_info=True)


class CheckThrottle(ScopedClientThrottle):
    scope = "check"


class TokenThrottle(ScopedClientThrottle):
    scope = "token"


class LookupThrottle(ScopedClientThrottle):
    scope = "lookup"


def retry_after(wait: float | None) -> int:
    return max(1, math.ceil(wait or 1))


def api_lookup_guard(request: Any) -> None:
    """Refuse (429) an API client that has used up its failed lookups."""
    wait = LookupThrottle().exhausted(request)
    if wait is not None:
        raise Throttled(wait=retry_after(wait))


def api_lookup_failed(request: Any) -> None:
    LookupThrottle().count(request)


def too_many_lookups(request: HttpRequest, wait: float) -> HttpResponse:
    seconds = retry_after(wait)
    response = render(request, "429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def page_lookup_throttled(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a page that resolves a table code or link: a client whose guesses have used up the
    `lookup` rate gets 429; a lookup that ends in 404 (or redisplays the code form with an error,
    status 200 with `request.lookup_failed` set) counts as a guess."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        throttle = LookupThrottle()
        wait = throttle.exhausted(request)
        if wait is not None:
            return too_many_lookups(request, wait)
        from django.http import Http404

        try:
            response = view(request, *args, **kwargs)
        except Http404:
            throttle.count(request)
            raise
        if response.status_code == 404 or getattr(request, "lookup_failed", False):
            throttle.count(request)
        return response

    return wrapper


def client_ip(request: Any) -> str:
    """The client's address as the throttles see it (REMOTE_ADDR, or X-Forwarded-For behind
    `NUM_PROXIES` proxies): django-axes counts failed logins per the same address."""
    return throttling.BaseThrottle().get_ident(request)

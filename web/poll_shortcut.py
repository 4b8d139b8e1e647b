"""Polls answered before Django. Every open standings, event and wall page asks again every
second with the ETag it holds; at a busy night that is most of the requests the server gets.
When Django has just answered that address for a reader who is not signed in (`poll_note`), the
same question in the next `POLL_SHORTCUT_SECONDS` (half a second) is answered 304 here, from one
cache read, without the middleware, the session or the database. A reader with a session or a
message waiting always goes through Django, and so does every address once its note is older
than that: a change shows at most that much later than without the shortcut."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from http.cookies import CookieError, SimpleCookie
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest

log = logging.getLogger(__name__)

NOTE_SECONDS = 5  # kept a little longer than it is believed; the age is checked on reading
MESSAGE_COOKIE = "messages"  # django.contrib.messages' cookie storage


def _fresh_seconds() -> float:
    return float(getattr(settings, "POLL_SHORTCUT_SECONDS", 0.5))


def _key(path: str, query: str, fetch: str) -> str:
    return f"poll:{path}?{query}#{fetch}"


def poll_note(request: HttpRequest, etag: str) -> None:
    """Django answered this address for a reader who is not signed in: note its ETag."""
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated:
        return
    if len(messages.get_messages(request)) or _fresh_seconds() <= 0:
        return
    key = _key(request.path_info, request.META.get("QUERY_STRING", ""),
               request.headers.get("X-Requested-With", ""))
    try:
        cache.set(key, (etag, time.time()), NOTE_SECONDS)
    except Exception:  # the cache away: every poll goes through Django
        log.warning("poll note not kept", exc_info=True)


def _anonymous(environ: dict[str, Any]) -> bool:
    try:
        cookies = SimpleCookie(environ.get("HTTP_COOKIE", ""))
    except CookieError:
        return False
    return settings.SESSION_COOKIE_NAME not in cookies and MESSAGE_COOKIE not in cookies


class PollShortcut:
    """WSGI: the 304 of a poll Django has just answered the same way (see the module)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        held = environ.get("HTTP_IF_NONE_MATCH")
        if held and environ.get("REQUEST_METHOD") in ("GET", "HEAD") and _anonymous(environ):
            etag = self._noted(environ)
            if etag is not None and etag in held:
                start_response("304 Not Modified", [("ETag", etag), ("Cache-Control", "no-cache"),
                                                     ("Vary", "Accept-Encoding")])
                return []
        return self.app(environ, start_response)

    @staticmethod
    def _noted(environ: dict[str, Any]) -> str | None:
        key = _key(environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""),
                   environ.get("HTTP_X_REQUESTED_WITH", ""))
        try:
            found = cache.get(key)
        except Exception:  # the cache away: Django answers
            return None
        if not found or time.time() - found[1] >= _fresh_seconds():
            return None
        return str(found[0])

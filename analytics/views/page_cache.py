"""Public pages served from the cache: drawn once per version of what they show, then every
reader gets the same bytes (compressed once). The version is the caller's key: it changes with
every confirmed result, correction and seating change the page shows, so nothing is stale.

Only the public variant is shared (`shared_variant`): a signed-in viewer (their name, a director's
controls, a private event) or one with a message waiting gets the page drawn for them. Without
the cache (Redis down) every page is drawn."""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Model, OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString
from django.utils.text import compress_string

from analytics.models import StandingsSnapshot, StandingsTable
from league.models import Club, Event, League, Registration, Season
from league.permissions import visible_events
from league.selectors import entrants_filter
from web.poll_shortcut import poll_note

# Longer than a version lives while the night runs; a finished night's pages stay this long.
PAGE_SECONDS = 600
ACCEPTS_GZIP = re.compile(r"\bgzip\b")

log = logging.getLogger(__name__)


def shared_variant(request: HttpRequest) -> bool:
    """The viewer sees what everyone sees: not signed in, no message waiting for them."""
    return not request.user.is_authenticated and len(messages.get_messages(request)) == 0


@functools.cache
def release_digest() -> str:
    """The templates and static files of this release: a new release never serves the markup
    of the one before from the cache."""
    digest = hashlib.sha256(getattr(staticfiles_storage, "manifest_hash", "").encode())
    for path in sorted(Path(settings.BASE_DIR, "templates").rglob("*.html")):
        digest.update(str(path).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def row_fields(row: Model) -> tuple:
    """Every stored field of a row (its settings and names, as a page shows them)."""
    return tuple(getattr(row, field.attname) for field in row._meta.concrete_fields)


_SLUG = "\x00slug\x00"  # where the slug goes in the compiled query


def _version_query(user: User | AnonymousUser | None, slug: str) -> QuerySet:
    snapshots = StandingsSnapshot.objects.filter(event=OuterRef("pk")).values("computed_at")
    handicapped = StandingsTable.objects.filter(event=OuterRef("pk"), handicapped=True)
    entrants = (Registration.objects.filter(entrants_filter(), event=OuterRef("pk")).order_by()
                .values("event").annotate(n=Count("pk")).values("n")[:1])
    fields = ["pk", *(f.attname for f in Event._meta.concrete_fields),
              *(f"club__{f.attname}" for f in Club._meta.concrete_fields),
              *(f"season__{f.attname}" for f in Season._meta.concrete_fields),
              *(f"season__league__{f.attname}" for f in League._meta.concrete_fields)]
    return (visible_events(user).filter(slug=slug)
            .annotate(standings_at=Subquery(snapshots[:1]),
                      handicapped_at=Subquery(handicapped.values("computed_at")[:1]),
                      entrants=Subquery(entrants))
            .order_by().values_list(*fields, "standings_at", "handicapped_at", "entrants"))


@functools.cache
def _anonymous_version_sql() -> tuple[str, tuple]:
    sql, params = _version_query(None, _SLUG).query.sql_with_params()
    return sql, tuple(params)


def event_version_row(*, user: User | AnonymousUser, slug: str) -> tuple:
    """What an event's public pages show of the event itself, as one row (its id first): its
    settings, club, season and league, when its standings and handicapped table were computed,
    its entrants counted. 404 alike for an event the viewer may not see (`visible_events`). For
    a viewer not signed in the query is built once per process: a poll every second mostly
    costs this query, and the ORM took longer to build it than the database to answer it."""
    if user.is_authenticated:
        sql, params = _version_query(user, slug).query.sql_with_params()
    else:
        sql, template = _anonymous_version_sql()
        params = tuple(slug if p == _SLUG else p for p in template)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        raise Http404("No such event.")
    return tuple(row)


def printed_minute() -> str:
    """The minute a page prints ("standings printed 3 December 2026, 20:15"), as part of its
    version: a page kept in the cache is drawn again when it changes."""
    return timezone.now().strftime("%Y%m%d%H%M")


def page_key(kind: str, *parts: object) -> str:
    """The cache key of one page kind at one version (language and release included)."""
    fields = (release_digest(), translation.get_language(), *parts)
    return f"page:{kind}:" + hashlib.sha1(repr(fields).encode(), usedforsecurity=False).hexdigest()


def _drawn(key: str, draw: Callable[[], str]) -> tuple[bytes, bytes]:
    """(html, its gzip), drawn and kept."""
    html = draw().encode()
    bodies = (html, compress_string(html))
    try:
        cache.set(key, bodies, PAGE_SECONDS)
    except Exception:
        log.warning("cache unreachable; page not kept", exc_info=True)
    return bodies


def cache_get_many(keys: list[str]) -> dict:
    """Pieces of pages kept in the cache ({} without it)."""
    try:
        return cache.get_many(keys)
    except Exception:
        log.warning("cache unreachable; pieces drawn afresh", exc_info=True)
        return {}


def cache_set(key: str, value: object) -> None:
    try:
        cache.set(key, value, PAGE_SECONDS)
    except Exception:
        log.warning("cache unreachable; piece not kept", exc_info=True)


def cache_set_many(values: Mapping[str, object]) -> None:
    try:
        cache.set_many(dict(values), PAGE_SECONDS)
    except Exception:
        log.warning("cache unreachable; pieces not kept", exc_info=True)


def pieces_kept(kind: str, pieces: list[tuple[tuple, Callable[[], str]]]) -> list[SafeString]:
    """Many small pieces of one page (its tables), each kept under its parts (everything the
    piece shows, as a value): one read of the cache for them all, and only the pieces not kept
    are drawn, each by its own function, and kept in one write. A result at one table draws
    that table again, not the hundred around it."""
    keys = [page_key(kind, *parts) for parts, _ in pieces]
    kept = cache_get_many(keys)
    drawn = {key: draw() for key, (_, draw) in zip(keys, pieces, strict=True) if key not in kept}
    if drawn:
        cache_set_many(drawn)
    # Drawn by an autoescaping template (or kept from one): safe as they are.
    return [SafeString(kept[key] if key in kept else drawn[key])  # nosec B703, B308
            for key in keys]


def kept_piece(key: str, draw: Callable[[], str]) -> SafeString:
    """A piece of a page (from `page_key`), drawn by `draw` the first time only: the parts that
    cost the most to draw (the standings' rows) are kept under the version of what they show,
    which changes less often than the pages around them."""
    html = _cached(key)
    if html is None:
        html = draw()
        cache_set(key, html)
    # Drawn by an autoescaping template (or kept from one): safe as it is.
    return SafeString(html)  # nosec B703, B308


def cached_response(request: HttpRequest, key: str, draw: Callable[[], str]) -> HttpResponse:
    """The page at `key`: 304 when the browser holds this version (If-None-Match), else the
    cached bytes (gzip when the browser takes it), drawn by `draw` the first time only.

    A busy night changes the version several times a second, and every web process would draw
    each new version at once: one draw per page and `PAGE_REDRAW_SECONDS` (half a second) is let through
    (`_may_draw`), and the others meanwhile get the version drawn last (its own ETag), which
    their next poll brings up to date."""
    etag = f'"{key.rsplit(":", 1)[-1]}"'
    held = request.headers.get("If-None-Match", "")
    bodies = None if etag in held else _kept(key)
    if etag not in held and bodies is None:
        slot = _slot(request)
        latest = None if _may_draw(slot) else _cached(f"page-latest:{slot}")
        if latest is None:
            bodies = _drawn(key, draw)
            cache_set(f"page-latest:{slot}", (etag, bodies))
        else:
            etag, bodies = latest
    response: HttpResponse
    if bodies is None or etag in held:
        response = HttpResponseNotModified()
    else:
        html, zipped = bodies
        if ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
            response = HttpResponse(zipped)
            response["Content-Encoding"] = "gzip"  # the gzip middleware leaves it as it is
        else:
            response = HttpResponse(html)
        patch_vary_headers(response, ("Accept-Encoding",))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"  # ask again each time (304 while unchanged)
    poll_note(request, etag)
    return response


def _slot(request: HttpRequest) -> str:
    """One page as one viewer asks for it (everyone not signed in alike)."""
    who = request.user.pk if request.user.is_authenticated else ""
    fields = (release_digest(), translation.get_language(), request.path,
              request.META.get("QUERY_STRING", ""), request.headers.get("X-Requested-With", ""),
              who)
    return hashlib.sha1(repr(fields).encode(), usedforsecurity=False).hexdigest()


def _may_draw(slot: str) -> bool:
    """Whether this process draws the page now: the first to ask in this half second."""
    every = float(getattr(settings, "PAGE_REDRAW_SECONDS", 0.5))
    if every <= 0:
        return True
    turn = int(time.time() / every)
    try:
        return bool(cache.add(f"page-drawing:{slot}:{turn}", 1, 5))
    except Exception:  # the cache away: every process draws (as without the cache at all)
        return True


def _cached(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:
        log.warning("cache unreachable; page drawn afresh", exc_info=True)
        return None


def _kept(key: str) -> tuple[bytes, bytes] | None:
    kept: tuple[bytes, bytes] | None = _cached(key)
    return kept

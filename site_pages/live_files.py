"""The polled fragments of the running public events, kept as files for the proxy.

Every open standings, event and wall page asks for its fragment once a second (live-refresh.js);
on a busy night those polls are most of what the server is asked. `LivePages.tick` keeps, for
each running event that anyone may see, the two fragments a reader who is not signed in gets
(the standings, which the event and standings pages poll, and the wall's) as files under
`LIVE_PAGES_ROOT`: drawn again as soon as the version they are drawn at changes (the version the
pages' cache is keyed by, `event_version`, and the minute the standings print), left alone
while it does not (so their ETag holds), and deleted when the event stops running or stops
being public. nginx answers those polls from the files, with its own ETag and 304, and asks
Django when a file is not there (deploy/nginx.conf); `publish_live_pages` runs the ticks.

A file is written whole under another name and then renamed over the old one: a reader gets the
old fragment or the new one, never half of one. nginx's ETag of a file is its modification time
in whole seconds and its size, so two versions written within a second with the same size would
share one, and a reader holding the first would be told 304 for the second: each version is
given a modification time (`Stamps`) that no earlier version of that file had with that size."""

from __future__ import annotations

import gzip
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError
from django.http import Http404, HttpRequest
from django.urls import reverse

from analytics.views.page_cache import printed_minute
from analytics.views.public import event_standings, event_standings_fragment, season_standings
from league.models import Event
from league.permissions import visible_events
from site_pages.views.pages import event_detail
from site_pages.views.versions import event_version
from site_pages.views.wall import wall_drawn

log = logging.getLogger(__name__)

EVENTS_FOLDER = "events"


def fragment_files(slug: str) -> dict[str, str]:
    """The files of one event's fragments, relative to the root, by the page that polls them."""
    return {kind: f"{EVENTS_FOLDER}/{slug}/{kind}.fragment.html" for kind in ("standings", "wall")}


def running_public_slugs() -> list[str]:
    """The events whose pages poll and that anyone may see."""
    return list(visible_events(None).filter(status=Event.Status.RUNNING)
                .order_by("pk").values_list("slug", flat=True))


def anonymous_poll() -> HttpRequest:
    """A poll as a reader who is not signed in sends it (live-refresh.js)."""
    request = anonymous_visit("")
    request.META["HTTP_X_REQUESTED_WITH"] = "fetch"
    return request


def anonymous_visit(path: str) -> HttpRequest:
    """A page loaded by a reader who is not signed in."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.user = AnonymousUser()
    return request


def pages_warmed(slug: str) -> None:
    """The event's pages a room loads (the event page, its standings page, its season's
    standings) drawn into the pages' cache at their new version, as the first reader to load
    them would: readers then get them from the cache instead of drawing them while they wait."""
    event_detail(anonymous_visit(reverse("event-detail", args=[slug])), slug)
    event_standings(anonymous_visit(reverse("event-standings", args=[slug])), slug)
    season_id = Event.objects.filter(slug=slug).values_list("season_id", flat=True).first()
    if season_id is not None:
        season_standings(anonymous_visit(reverse("season-standings", args=[season_id])),
                         season_id)


@dataclass
class Stamps:
    """Modification times that keep every version's ETag (whole seconds, size) its own."""

    floor: int = 0  # no time before this (after a restart: past what the last run wrote)
    used: dict[Path, set[tuple[int, int]]] = field(default_factory=dict)

    def next(self, path: Path, size: int) -> int:
        now = max(int(time.time()), self.floor)
        used = {stamp for stamp in self.used.get(path, set()) if stamp[0] >= now}
        stamp = now
        while (stamp, size) in used:
            stamp += 1
        used.add((stamp, size))
        self.used[path] = used  # only those that a later version could still meet
        return stamp


def write_file(path: Path, content: bytes, stamps: Stamps) -> bool:
    """`content` at `path` (and its gzip beside it, which nginx sends to a client that takes
    gzip), unless it is there already. Whether anything was written."""
    try:
        if path.read_bytes() == content:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    zipped = path.with_name(path.name + ".gz")
    _replace(zipped, gzip.compress(content, 9, mtime=0), stamps)
    _replace(path, content, stamps)
    return True


def _replace(path: Path, content: bytes, stamps: Stamps) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        os.chmod(temporary, 0o644)  # nginx's workers read it  # nosec B103
        stamp = stamps.next(path, len(content))
        os.utime(temporary, (stamp, stamp))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@dataclass
class LivePages:
    """The fragments under `root`, and the version each event's were drawn at."""

    root: Path
    drawn_at: dict[str, dict[str, tuple]] = field(default_factory=dict)  # slug: kind: version
    stamps: Stamps = field(default_factory=Stamps)

    def tick(self) -> list[str]:
        """Every running public event's fragments brought up to date, those of the others
        removed. The events whose fragments were drawn again."""
        slugs = running_public_slugs()
        for gone in sorted((set(self.drawn_at) | self._slugs_on_disk()) - set(slugs)):
            self.remove(gone)
        return [slug for slug in slugs if self._published(slug)]

    def _published(self, slug: str) -> bool:
        try:
            if not self.publish(slug):
                return False
        except DatabaseError:
            raise  # nothing can be drawn: the caller removes every file
        except Exception:
            # Never a stale file: without one the polls reach the app, which says what is wrong.
            log.exception("the live fragments of %s could not be drawn; removed", slug)
            self.remove(slug)
            return False
        try:
            pages_warmed(slug)
        except DatabaseError:
            raise
        except Exception:  # the readers draw them as they come, as without the warming
            log.exception("the pages of %s could not be drawn ahead", slug)
        return True

    def publish(self, slug: str) -> bool:
        """The event's fragments whose version changed since drawn again (an entered round
        changes the wall, not the standings)."""
        request = anonymous_poll()
        try:
            wall = event_version(user=request.user, slug=slug)
        except Http404:  # no longer public
            self.remove(slug)
            return False
        # As the views key them: the standings by the event's own row and the minute they print.
        versions = {"standings": (wall[0], printed_minute()), "wall": wall}
        # Drawn after the version was read: at least as new as it (a change in between is
        # drawn again at the next tick, its version being newer).
        drawers: dict[str, Callable[[], str]] = {
            "standings": lambda: event_standings_fragment(request, slug),
            "wall": lambda: wall_drawn(request, slug, wall, fragment=True),
        }
        drawn = self.drawn_at.setdefault(slug, {})
        changed = [kind for kind in drawers if drawn.get(kind) != versions[kind]]
        for kind in changed:
            write_file(self.root / fragment_files(slug)[kind], drawers[kind]().encode(),
                       self.stamps)
            drawn[kind] = versions[kind]
        return bool(changed)

    def remove(self, slug: str) -> None:
        self.drawn_at.pop(slug, None)
        shutil.rmtree(self.root / EVENTS_FOLDER / slug, ignore_errors=True)

    def clear(self) -> None:
        """No file left: nginx asks Django for every poll (starting or stopping). The files
        written next are stamped after these: a reader may still hold one's ETag."""
        folder = self.root / EVENTS_FOLDER
        if folder.is_dir():
            times = [int(path.stat().st_mtime) for path in folder.rglob("*") if path.is_file()]
            self.stamps.floor = max([self.stamps.floor, *(t + 1 for t in times)])
        self.drawn_at.clear()
        shutil.rmtree(folder, ignore_errors=True)

    def _slugs_on_disk(self) -> set[str]:
        folder = self.root / EVENTS_FOLDER
        return {path.name for path in folder.iterdir()} if folder.is_dir() else set()

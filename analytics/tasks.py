"""Celery jobs of the analytics: thin, idempotent callers of the topics' services
(`analytics.standings.services`, `analytics.ratings.services`, `analytics.statistics.services`).

Every job recomputes from the database, never from the message, so a retry or a duplicate
delivery is harmless. Results changes call `enqueue_event_recompute` from
`transaction.on_commit`; a burst of changes is coalesced into one job per event (standings),
and one per event for the ratings, asked for at the same time (new games at the end are rated
on their own and their players' statistics refreshed; anything else replays and recomputes the
club's statistics). Run the worker with two processes (`--concurrency=2`, as docker-compose.yml
does) so the two jobs of a new game run side by side.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from celery import Signature, Task, chain, chord, current_app, group, shared_task
from celery.result import AsyncResult, allow_join_result
from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from analytics import services
from analytics.handicaps import services as handicaps
from analytics.ratings import services as ratings
from analytics.standings import selectors as standings_selectors
from analytics.standings import services as standings
from analytics.statistics import selectors as statistics_selectors
from analytics.statistics import services as statistics
from league.models import Club, Event, Season

log = logging.getLogger(__name__)

# A burst of confirmations within this makes one job. 0.5 s was a quarter of the 2 s an open page
# may take to show a result; at 0.2 s a 100-table night ran 25 % more standings jobs (222 for 400
# games) for 0.13 s less delay at the median (docs/benchmarks.md, 2026-12-03).
COALESCE_SECONDS = 0.2
# Longer than any recompute: a lost job only delays the next one by this much.
PENDING_KEY_TIMEOUT = 120

_RETRY: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 8,
}


def _enqueue_once(key: str, task: Task, *args: int, queue: str | None = None) -> None:
    """Schedule `task` unless one is already pending for `key`. cache.add is atomic, and the job
    clears the key before it reads the database, so a change committed after that read is never
    lost: it schedules a new job."""
    if cache.add(key, 1, timeout=PENDING_KEY_TIMEOUT):
        try:
            routing: dict[str, Any] = {"queue": queue} if queue else {}  # else the default
            task.apply_async(args, countdown=COALESCE_SECONDS, **routing)
        except Exception:
            cache.delete(key)  # not pending after all: the next change (or the sweep) retries
            raise


def _same_queue(task: Task) -> str | None:
    """The queue the running job came from: follow-up jobs go there too, so a worker serving a
    dedicated analytics queue gets the whole chain (None: the default queue)."""
    if task.request.is_eager:
        return None
    return (task.request.delivery_info or {}).get("routing_key")


def enqueue_event_recompute(event_id: int) -> None:
    """Ask for the event's standings, its season's, and its club's ratings and statistics to be
    recomputed (after commit; many calls in quick succession make one job of each). The two
    jobs are asked for together: the ratings need no standings, so a worker with two processes
    (or one per queue) runs them side by side and the ratings never wait behind the standings."""
    _enqueue_once(f"recompute:event:{event_id}", recompute_event, event_id, False)
    club_id = Event.objects.filter(pk=event_id).values_list("club_id", flat=True).first()
    if club_id is not None:
        enqueue_ratings_update(club_id, event_id)


# The events whose results changed while `recompute_held` is open (None: not held).
_held_events: ContextVar[set[int] | None] = ContextVar("analytics_held_events", default=None)


@contextmanager
def recompute_held() -> Iterator[None]:
    """For code that writes many results in one go (building the demo club): the jobs each
    change would ask for are held, and every club whose events changed is rebuilt once when the
    block ends (`club_recompute`, which gives what the jobs one by one would have given) instead
    of a ratings replay and a statistics refresh after every game. Nothing is rebuilt when the
    block raises: its writes are expected to roll back."""
    held: set[int] = set()
    token = _held_events.set(held)
    try:
        yield
    finally:
        _held_events.reset(token)
    for club_id in sorted(set(Event.objects.filter(pk__in=held).values_list("club_id", flat=True))):
        services.club_recompute(club_id=club_id)


def enqueue_event_recompute_after_commit(event_id: int) -> None:
    """For `transaction.on_commit`: the result is stored whatever happens here. With the broker
    (Redis) down the job cannot be sent; that is logged, and the stale snapshot sweep sends it
    once the broker is back."""
    if (held := _held_events.get()) is not None:
        held.add(event_id)
        return
    try:
        enqueue_event_recompute(event_id)
    except Exception:
        log.warning("recompute of event %s not queued (broker down?); the sweep will retry",
                    event_id, exc_info=True)


def enqueue_ratings_update(club_id: int, event_id: int, *, queue: str | None = None) -> None:
    _enqueue_once(f"recompute:ratings:{club_id}:{event_id}", update_ratings, club_id, event_id,
                  queue=queue)


@shared_task(bind=True, name="analytics.recompute_event", **_RETRY)
def recompute_event(self: Task, event_id: int, with_ratings: bool = True) -> None:
    """The event's and its season's standings; with `with_ratings` (a job the sweep sent, not
    one sent with its ratings job) the ratings are asked for too."""
    cache.delete(f"recompute:event:{event_id}")
    if with_ratings:
        # Asked for first: a second worker process rates the new games meanwhile.
        club_id = Event.objects.filter(pk=event_id).values_list("club_id", flat=True).first()
        if club_id is not None:
            enqueue_ratings_update(club_id, event_id, queue=_same_queue(self))
    standings.event_recompute(event_id=event_id)
    handicaps.event_tables_refresh(event_id=event_id)


@shared_task(name="analytics.freeze_handicaps", **_RETRY)
def freeze_handicaps(event_id: int) -> None:
    """A night started: its handicaps are frozen (once; a second delivery changes nothing)."""
    handicaps.night_handicaps_freeze(event_id=event_id)


@shared_task(name="analytics.refresh_season_tables", **_RETRY)
def refresh_season_tables(season_id: int) -> None:
    """A season's divisions or their players changed: its division tables follow."""
    season = Season.objects.filter(pk=season_id).first()
    if season is not None:
        handicaps.season_tables_refresh(season=season)


@shared_task(bind=True, name="analytics.update_ratings", **_RETRY)
def update_ratings(self: Task, club_id: int, event_id: int) -> None:
    """After the event's results changed: its new games rated on their own and their players'
    statistics refreshed at once when they come after every rated game; otherwise a replay
    from the first changed game, then the club's statistics."""
    cache.delete(f"recompute:ratings:{club_id}:{event_id}")
    change = ratings.ratings_update(club_id=club_id, event_id=event_id)
    if change.players is None:
        _enqueue_once(f"recompute:statistics:{club_id}", recompute_statistics, club_id,
                      queue=_same_queue(self))
    else:
        statistics.statistics_refresh(club_id=club_id, player_ids=change.players)


@shared_task(name="analytics.recompute_statistics", **_RETRY)
def recompute_statistics(club_id: int) -> None:
    cache.delete(f"recompute:statistics:{club_id}")
    statistics.statistics_recompute(club_id=club_id)


@shared_task(bind=True, name="analytics.recompute_club", **_RETRY)
def recompute_club(self: Task, club_id: int) -> None:
    """Rebuild one club: standings, ratings (full replay) and statistics (after a merge of
    players, or from the stale snapshot sweep when its statistics fell behind its results),
    fanned out over the worker's processes (`recompute_fanout`)."""
    recompute_fanout([club_id], queue=_same_queue(self))


@shared_task(bind=True, name="analytics.recompute_all_clubs", **_RETRY)
def recompute_all_clubs(self: Task) -> int:
    """The nightly safety net (Celery beat): rebuild every club from the database, so a job lost
    with a broker outage is made good by morning. Returns the number of clubs rebuilt. The
    rebuild fans out (`recompute_fanout`): this task only sends the parts."""
    club_ids = list(Club.objects.order_by("pk").values_list("pk", flat=True))
    recompute_fanout(club_ids, queue=_same_queue(self))
    return len(club_ids)


# The parts of a fanned-out rebuild: each recomputes from the database (idempotent), each is
# bounded by `PART_GAMES` games (events) or one club (seasons, ratings, statistics), see
# docs/capacity.md.
# Their results are kept: a chord counts its header's, and `manage.py analytics_recompute` follows
# them all for its progress bar.
_PART: dict[str, Any] = {**_RETRY, "ignore_result": False}


@shared_task(name="analytics.part.events", **_PART)
def part_events(event_ids: list[int]) -> int:
    return services.events_part_rebuild(event_ids=event_ids)


@shared_task(name="analytics.part.seasons", **_PART)
def part_seasons(club_id: int) -> int:
    return services.club_seasons_rebuild(club_id=club_id)


@shared_task(name="analytics.part.ratings", **_PART)
def part_ratings(club_id: int) -> int:
    return services.club_ratings_rebuild(club_id=club_id)


@shared_task(name="analytics.part.statistics", **_PART)
def part_statistics(club_id: int) -> None:
    services.club_statistics_rebuild(club_id=club_id)


@dataclass(frozen=True)
class Fanout:
    """A fanned-out rebuild: the canvas to send and every part's (task name, result), each
    part's task id fixed before sending, so a caller can follow it."""

    canvas: Signature
    parts: list[tuple[str, AsyncResult]]
    done_here: bool = False  # run in this process (eager mode): no result to follow


# Games of the events in one part: a night of 200 games costs about 40 ms alone, half of it
# the part's own queries; 2,000 games (10 such nights) take well under a second.
PART_GAMES = 2_000


def _batches(events: list[tuple[int, int]]) -> list[list[int]]:
    """The events (id, games) in consecutive parts of at most PART_GAMES games (or one event)."""
    batches: list[list[int]] = []
    games = 0
    for event_id, played in events:
        if not batches or games + played > PART_GAMES:
            batches.append([])
            games = 0
        batches[-1].append(event_id)
        games += played
    return batches


def _part(task: Task, arg: int | list[int], queue: str | None,
          parts: list[tuple[str, AsyncResult]]) -> Signature:
    # Every part names its queue: a chord's body and a chain's next part are sent by the worker
    # that finished the one before, whose default queue may not be this one.
    signature = task.si(arg)
    if queue:
        signature.set(queue=queue)
    parts.append((task.name, signature.freeze()))
    return signature


def fanout_plan(club_ids: list[int], *, queue: str | None = None) -> Fanout:
    """Per club, two branches side by side: its events' parts (a group, each a few nights of
    at most PART_GAMES games), then its seasons (the chord's body); and its ratings replay
    (sequential by nature: one part per club), then its statistics (a chain). Read from the
    database: the events of each club and their games."""
    parts: list[tuple[str, AsyncResult]] = []
    branches: list[Signature] = []
    for club_id, events_games in standings_selectors.club_event_games(club_ids=club_ids).items():
        seasons = _part(part_seasons, club_id, queue, parts)
        events = [_part(part_events, batch, queue, parts) for batch in _batches(events_games)]
        branches.append(chord(events, seasons) if events else seasons)
        branches.append(chain(_part(part_ratings, club_id, queue, parts),
                              _part(part_statistics, club_id, queue, parts)))
    return Fanout(group(branches), parts)


def recompute_fanout(club_ids: list[int], *, queue: str | None = None) -> Fanout:
    """Send the fanned-out rebuild of these clubs (in eager mode it runs here, to the end)."""
    plan = fanout_plan(club_ids, queue=queue)
    if not club_ids:
        return plan
    if current_app.conf.task_always_eager:
        # An eager chord gets its header's results, computed here already: nothing waits.
        with allow_join_result():
            plan.canvas.apply_async()
        return replace(plan, done_here=True)
    elif queue:
        plan.canvas.apply_async(queue=queue)
    else:
        plan.canvas.apply_async()
    return plan


@shared_task(name="analytics.sweep_stale_snapshots", **_RETRY)
def sweep_stale_snapshots(grace_seconds: int | None = None,
                          queue: str | None = None) -> dict[str, list[int]]:
    """Celery beat, every minute: re-queue the recomputes of events (and clubs) whose snapshots
    are older than their latest confirmed result. It makes good a job lost with a killed worker
    or a broker outage. Results confirmed in the last `STALE_SNAPSHOT_GRACE` seconds are left to
    their own job. The jobs expire after one sweep interval so a backlog never piles up.

    A worker that has just (re)connected to the broker asks for it with `grace_seconds=0`
    (config.celery): after an outage, jobs of the last seconds were lost too, and a duplicate
    job is harmless. Its jobs go to that worker's queue (`queue`)."""
    grace = settings.STALE_SNAPSHOT_GRACE if grace_seconds is None else max(0, grace_seconds)
    before = timezone.now() - timedelta(seconds=grace)
    expires = settings.STALE_SNAPSHOT_SWEEP_SECONDS
    events = standings_selectors.stale_event_ids(confirmed_before=before)
    for event_id in events:
        recompute_event.apply_async((event_id,), expires=expires, queue=queue)
    stale_events = set(
        Event.objects.filter(pk__in=events).values_list("club_id", flat=True)
    )
    clubs = [c for c in statistics_selectors.stale_club_ids(confirmed_before=before) if c not in stale_events]
    for club_id in clubs:
        recompute_club.apply_async((club_id,), expires=expires, queue=queue)
    if events or clubs:
        log.info("stale snapshots: re-queued events %s, clubs %s", events, clubs)
    return {"events": events, "clubs": clubs}

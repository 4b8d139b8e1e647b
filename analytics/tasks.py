"""Celery jobs of the analytics: thin, idempotent callers of `analytics.services`.

Every job recomputes from the database, never from the message, so a retry or a duplicate
delivery is harmless. Results changes call `enqueue_event_recompute` from
`transaction.on_commit`; a burst of changes to one event is coalesced into one recompute.
"""

from celery import shared_task
from django.core.cache import cache
from django.db import InterfaceError, OperationalError

from analytics import services

COALESCE_SECONDS = 1
# Longer than any recompute: a lost job only delays the next one by this much.
PENDING_KEY_TIMEOUT = 60

_RETRY = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 8,
}


def _pending_key(event_id: int) -> str:
    return f"recompute:event:{event_id}"


def enqueue_event_recompute(event_id: int) -> None:
    """Ask for the event's standings (and season, ratings, statistics) to be recomputed.

    Only the first call of a burst schedules a job (cache.add is atomic); the job clears the key
    before it reads the database, so any change committed after that schedules a new one.
    """
    if cache.add(_pending_key(event_id), 1, timeout=PENDING_KEY_TIMEOUT):
        recompute_event.apply_async((event_id,), countdown=COALESCE_SECONDS)


@shared_task(name="analytics.recompute_event", **_RETRY)
def recompute_event(event_id: int) -> None:
    cache.delete(_pending_key(event_id))
    services.event_recompute(event_id=event_id)


@shared_task(name="analytics.recompute_ratings", **_RETRY)
def recompute_ratings(club_id: int, from_game_id: int | None = None) -> None:
    services.ratings_recompute(club_id=club_id, from_game_id=from_game_id)


@shared_task(name="analytics.recompute_statistics", **_RETRY)
def recompute_statistics(club_id: int) -> None:
    services.statistics_recompute(club_id=club_id)

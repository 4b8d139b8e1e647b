"""The ladder's computation as a job (`jobs.kinds`): one part per club that shares (the
worker's processes, and other workers, read the clubs side by side), each part that club's games
as JSON; the finish merges them in order, rates them and replaces the stored ladder. The parts
are bulk work (`settings.BULK_QUEUE`, as `manage.py analytics_recompute`'s rebuilds).

It is started, debounced like the analytics' recomputes (a key in the cache while one is
pending, so a burst of changes makes one job), when a club starts or stops sharing and after a
shared club's ratings were updated. Without a broker (tests, the embedded mode) it runs in-process. Registered
by `AnalyticsConfig.ready()`; `python manage.py ladder_recompute` asks for it too.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from celery.signals import task_success
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from analytics.ladder import selectors, services
from analytics.ladder.compute import JSON, games_merged, ladder_states
from analytics.tasks import _RETRY, PENDING_KEY_TIMEOUT
from jobs.kinds import JobKind, kind_register
from jobs.models import Job
from jobs.services.jobs import job_fingerprint, job_request
from league.models import Club
from league.signals import club_ladder_changed

log = logging.getLogger(__name__)

LADDER = "ladder"
PENDING_KEY = "recompute:ladder"
# The analytics tasks after which a club's ratings are new: their first argument is the club.
RATINGS_TASKS = frozenset({"analytics.update_ratings", "analytics.part.ratings"})
# Every job reads every sharing club's games: on a busy night (a result a few seconds at every
# club) the changes of this long make one job. The ladder is not live; the page says "within a
# minute". Setting LADDER_COALESCE_SECONDS.
COALESCE_SECONDS = 30.0
# Finished jobs are kept this long (`manage.py ladder_recompute` reads its own), then cleared.
KEEP_JOBS = timedelta(hours=1)


def _plan(params: dict[str, JSON]) -> list[tuple[int, JSON]]:
    counts = selectors.club_game_counts(club_ids=selectors.shared_club_ids())
    return [(games, club_id) for club_id, games in counts.items()]


def _club_games(params: dict[str, JSON], club_id: JSON) -> JSON:
    return selectors.club_ladder_games(club_id=int(club_id))


def _finish(params: dict[str, JSON], outputs: list[JSON]) -> JSON:
    games = games_merged(outputs)
    players = services.ladder_replace(states=ladder_states(games))
    # Each computation is a job of its own: the old ones are done with.
    Job.objects.filter(kind=LADDER, status__in=[Job.Status.DONE, Job.Status.FAILED],
                       updated_at__lt=timezone.now() - KEEP_JOBS).delete()
    return {"clubs": len(outputs), "games": len(games), "players": players}


def _may_see(user: Any, params: dict[str, JSON]) -> bool:
    return bool(getattr(user, "is_superuser", False))


def ladder_job() -> Job:
    """Compute the ladder afresh (a new job each time: the clubs' games are read by its parts,
    so no fingerprint of them is needed to know it is current)."""
    fingerprint = job_fingerprint(kind=LADDER, inputs=[uuid.uuid4().hex])
    return job_request(kind=LADDER, fingerprint=fingerprint, params={})


@shared_task(bind=True, name="analytics.ladder.recompute", **_RETRY)
def recompute_ladder(self: Task) -> str:
    cache.delete(PENDING_KEY)  # before reading: a change after this asks for another job
    return str(ladder_job().pk)


def enqueue_ladder_recompute() -> None:
    """Ask for the ladder to be computed again (the calls of the next COALESCE_SECONDS make one
    job). cache.add is atomic, and the job clears the key before it reads the database, so a
    change committed after that read schedules a new job."""
    wait = getattr(settings, "LADDER_COALESCE_SECONDS", COALESCE_SECONDS)
    if cache.add(PENDING_KEY, 1, timeout=wait + PENDING_KEY_TIMEOUT):
        try:
            recompute_ladder.apply_async(countdown=wait)
        except Exception:
            cache.delete(PENDING_KEY)  # not pending after all: the next change retries
            raise


def enqueue_ladder_recompute_after_commit() -> None:
    """For `transaction.on_commit`: with the broker down the job cannot be sent; logged, and the
    next change (or `manage.py ladder_recompute`) sends it."""
    try:
        enqueue_ladder_recompute()
    except Exception:
        log.warning("ladder recompute not queued (broker down?)", exc_info=True)


def _club_ladder_changed(sender: object, *, club_id: int, shared: bool, **kwargs: object) -> None:
    """Inside the transaction of the club's choice: off the ladder at once when it stops."""
    if not shared:
        services.ladder_club_remove(club_id=club_id)
    transaction.on_commit(enqueue_ladder_recompute_after_commit)


def _ratings_updated(sender: Task | None = None, **kwargs: object) -> None:
    """After a ratings task of a club that shares: the ladder is due again."""
    if sender is None or sender.name not in RATINGS_TASKS or not sender.request.args:
        return
    if Club.objects.filter(pk=sender.request.args[0], ladder_shared=True).exists():
        enqueue_ladder_recompute_after_commit()


def register() -> None:
    # Bulk work: the parts queue behind the live nights' standings and ratings.
    kind_register(JobKind(name=LADDER, words="Computing the cross-club ladder", unit="games",
                          plan=_plan, run_part=_club_games, finish=_finish, may_see=_may_see,
                          bulk=True))
    club_ladder_changed.connect(_club_ladder_changed, dispatch_uid="analytics.ladder.club")
    task_success.connect(_ratings_updated, dispatch_uid="analytics.ladder.ratings", weak=False)

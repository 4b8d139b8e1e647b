"""The analytics' part in league-level changes: recompute what a change makes stale.

Every job asked for after a commit goes through `jobs.services.outbox.task_send`: the change is
stored and acknowledged whatever the broker does, and a job it could not take is sent again once
it is back (issue 42)."""

from typing import Any

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver

from games.signals import results_imported
from jobs.services.outbox import task_send
from league.models import Player
from league.signals import (
    divisions_changed,
    league_settings_changed,
    night_started,
    player_merged,
    player_name_changed,
    standings_settings_changed,
)


@receiver(player_merged)
def recompute_after_merge(*, club: Any, **_: Any) -> None:
    """Standings, ratings and statistics hold player ids: rebuild the club once the merge is
    committed (the merged-away player's rows go with it, by cascade)."""
    from analytics.tasks import recompute_club

    club_id = club.pk
    transaction.on_commit(lambda: task_send(task=recompute_club, args=[club_id]))


@receiver(standings_settings_changed)
def recompute_after_settings(*, event_id: int, **_: Any) -> None:
    """Scoring, tie-breaks or the sit-out rule changed (sent after commit): the standings
    follow (with the broker away, the stale snapshot sweep sends the job)."""
    from analytics.tasks import enqueue_event_recompute_after_commit

    enqueue_event_recompute_after_commit(event_id)


@receiver(player_name_changed)
def recompute_after_renaming(*, player_id: int, **_: Any) -> None:
    """The stored standings show the old name (renamed, shown otherwise, or an account deleted):
    rebuild the club's once the change is committed (the figures stay the same)."""
    from analytics.tasks import recompute_club

    club_id = Player.objects.filter(pk=player_id).values_list("club_id", flat=True).first()
    if club_id is not None:
        transaction.on_commit(lambda: task_send(task=recompute_club, args=[club_id]))


@receiver(night_started)
def freeze_handicaps_at_start(*, event_id: int, **_: Any) -> None:
    """A night started (sent after commit): its handicaps are frozen as things stand now."""
    from analytics.tasks import freeze_handicaps

    task_send(task=freeze_handicaps, args=[event_id])  # the night has started whatever happens


@receiver(divisions_changed)
def redraw_division_tables(*, season_id: int, **_: Any) -> None:
    """A season's divisions or places changed (sent after commit): its division tables follow."""
    from analytics.tasks import refresh_season_tables

    task_send(task=refresh_season_tables, args=[season_id])  # the places are saved


@receiver(league_settings_changed)
def recompute_after_league_settings(*, club_id: int, **_: Any) -> None:
    """Whom a substitute's result counts for (or the cap) changed: the club's standings,
    ratings and statistics are recomputed in a job (sent after commit)."""
    from analytics.tasks import recompute_club

    task_send(task=recompute_club, args=[club_id])


@receiver(results_imported)
def recompute_after_import(*, club_id: int, **_: Any) -> None:
    """An import of a club's past results committed (sent once per import, after commit): the
    club is rebuilt once (every night's standings, the seasons', ratings and statistics), on the
    bulk queue, so a live night's jobs never wait behind it."""
    from analytics.tasks import recompute_club

    task_send(task=recompute_club, args=[club_id], queue=settings.BULK_QUEUE)

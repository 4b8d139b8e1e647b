"""The one write across the analytics' topics: rebuilding a club, at once
(`club_recompute`) or in the parts a fanned-out rebuild gives the worker's processes
(`analytics.tasks.recompute_fanout`). Each topic's own writes are in
`analytics.standings.services`, `analytics.ratings.services` and
`analytics.statistics.services`."""

from __future__ import annotations

from django.db import transaction

from analytics.handicaps.services import (
    club_tables_refresh,
    event_handicapped_refresh,
    season_tables_refresh,
)
from analytics.ratings.selectors import first_game_id
from analytics.ratings.services import ratings_recompute
from analytics.standings.services import (
    club_seasons_refresh,
    club_standings_recompute,
    events_part_recompute,
)
from analytics.statistics.services import statistics_recompute
from league.models import Event


def club_recompute(*, club_id: int) -> None:
    """Rebuild everything of a club: standings, ratings (full replay), statistics."""
    club_standings_recompute(club_id=club_id)
    club_tables_refresh(club_id=club_id)
    ratings_recompute(club_id=club_id, from_game_id=first_game_id(club_id=club_id))
    statistics_recompute(club_id=club_id)


# The parts of a fanned-out rebuild of a club. Together they write what `club_recompute` writes:
# the events' parts (a few nights each, bounded by their games), then the club's seasons; beside them, the ratings
# (one sequential replay over the club's games in order), then the statistics, which read the
# ratings' expectations.

def events_part_rebuild(*, event_ids: list[int]) -> int:
    """Some events' standings, their lines for the season and their handicapped tables.
    Returns the games counted."""
    games = events_part_recompute(event_ids=event_ids)
    for event in Event.objects.filter(pk__in=event_ids).order_by("pk"):
        with transaction.atomic():
            event_handicapped_refresh(event=event)
    return games


def club_seasons_rebuild(*, club_id: int) -> int:
    """The club's seasons' standings and tables, from the nights' parts. Returns the seasons."""
    seasons = club_seasons_refresh(club_id=club_id)
    for season in seasons:
        with transaction.atomic():
            season_tables_refresh(season=season)
    return len(seasons)


def club_ratings_rebuild(*, club_id: int) -> int:
    """The club's ratings by a full replay. Returns the games replayed."""
    return ratings_recompute(club_id=club_id, full=True)


def club_statistics_rebuild(*, club_id: int) -> None:
    statistics_recompute(club_id=club_id)

"""The one write across the analytics' topics: rebuilding a club. Each topic's own writes are
in `analytics.standings.services`, `analytics.ratings.services` and
`analytics.statistics.services`."""

from __future__ import annotations

from analytics.handicaps.services import club_tables_refresh
from analytics.ratings.selectors import first_game_id
from analytics.ratings.services import ratings_recompute
from analytics.standings.services import club_standings_recompute
from analytics.statistics.services import statistics_recompute


def club_recompute(*, club_id: int) -> None:
    """Rebuild everything of a club: standings, ratings (full replay), statistics."""
    club_standings_recompute(club_id=club_id)
    club_tables_refresh(club_id=club_id)
    ratings_recompute(club_id=club_id, from_game_id=first_game_id(club_id=club_id))
    statistics_recompute(club_id=club_id)

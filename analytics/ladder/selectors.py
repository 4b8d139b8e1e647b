"""Reads of the ladder: the clubs that share, one club's games for the job's part, the page."""

from __future__ import annotations

from django.core.paginator import Page, Paginator
from django.db.models import Q

from analytics.ladder.compute import JSON, game_to_json
from analytics.models import LadderRating
from analytics.ratings.selectors import club_game_order
from analytics.selectors import leaderboard_min_games
from analytics.standings.selectors import game_results
from league.models import Club, Game

PER_PAGE = 100


def shared_club_ids() -> list[int]:
    return list(Club.objects.filter(ladder_shared=True).order_by("pk").values_list("pk", flat=True))


def club_game_counts(*, club_ids: list[int]) -> dict[int, int]:
    """Confirmed games of each club (a part's size for the job's progress)."""
    counts = dict.fromkeys(club_ids, 0)
    rows = (Game.objects.filter(table__rotation__event__club_id__in=club_ids,
                                round_results__isnull=False).distinct()
            .values_list("pk", "table__rotation__event__club_id"))
    for _, club_id in rows:
        counts[club_id] += 1
    return counts


def club_ladder_games(*, club_id: int) -> list[JSON]:
    """The club's confirmed games in its order (`club_game_order`), as JSON with their dates."""
    where = Q(table__rotation__event__club_id=club_id)
    results = game_results(game_filter=where)
    dates = dict(Game.objects.filter(where).values_list("pk", "table__rotation__event__date"))
    return [game_to_json(date=dates[game_id].isoformat(), club_id=club_id, position=position,
                         game=results[game_id])
            for position, game_id in enumerate(club_game_order(club_id=club_id))
            if game_id in results]


def ladder_page(*, page: str | int | None) -> Page:
    """One page of the ladder, best first: players with at least the leaderboard's fewest
    games, with their clubs read along."""
    rows = (LadderRating.objects.filter(games__gte=leaderboard_min_games())
            .select_related("player__club").order_by("-ordinal", "player__name", "pk"))
    return Paginator(rows, PER_PAGE).get_page(page)

"""The cross-club ladder's public page: the stored ladder (`analytics.models.LadderRating`),
a page at a time (two queries: the count and the page's rows with their players and clubs)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from analytics.ladder import selectors
from analytics.selectors import leaderboard_min_games


@require_safe
def ladder(request: HttpRequest) -> HttpResponse:
    """Players of every club that shares its ratings, ranked in one pool; each named as they
    chose to show on public pages, as the leaderboard names them."""
    page = selectors.ladder_page(page=request.GET.get("page"))
    context = {"page": page, "min_games": leaderboard_min_games(),
               "first_rank": page.start_index()}
    return render(request, "analytics/ladder.html", context)

"""Read-only API of standings, ratings and statistics: of events the caller may see
(`league.permissions.visible_events`); statistics count public events only."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analytics import selectors
from analytics.models import StandingsSnapshot
from league.models import Club, Player, Season
from league.permissions import visible_events


def _snapshot(snapshot: StandingsSnapshot | None) -> dict:
    if snapshot is None:
        return {"computed_at": None, "games": 0, "rows": []}
    return {"computed_at": snapshot.computed_at, "games": snapshot.games, "rows": snapshot.rows}


def _player(club: str, slug: str) -> Player:
    return get_object_or_404(Player.objects.select_related("club"), club__slug=club, slug=slug)


class EventStandings(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Standings of an event you may see")
    def get(self, request: Request, slug: str) -> Response:
        event = visible_events(request.user).filter(slug=slug).first()
        if event is None:
            raise NotFound({"code": "NOT_FOUND", "message": f"No event {slug!r}."})
        return Response({"event": event.slug, "scoring": event.scoring,
                         **_snapshot(selectors.event_standings(event=event))})


class SeasonStandings(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Standings of a season")
    def get(self, request: Request, season_id: int) -> Response:
        season = get_object_or_404(Season, pk=season_id)
        return Response({"season": season.pk, "aggregate": season.aggregate,
                         **_snapshot(selectors.season_standings(season=season))})


class Leaderboard(APIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT, summary="Ratings of players with enough games",
        parameters=[OpenApiParameter("club", str), OpenApiParameter("min_games", int)],
    )
    def get(self, request: Request) -> Response:
        club = None
        if request.query_params.get("club"):
            club = Club.objects.filter(slug=request.query_params["club"]).first()
            if club is None:
                raise NotFound({"code": "NOT_FOUND", "message": "No such club."})
        raw = request.query_params.get("min_games", str(selectors.leaderboard_min_games()))
        if not raw.isdigit():
            raise ValidationError({"code": "BAD_MIN_GAMES",
                                   "message": "min_games must be a whole number such as 3."})
        ratings = selectors.leaderboard(club_id=club.pk if club else None, min_games=int(raw))
        return Response({"min_games": int(raw), "results": [
            {"rank": i, "player": r.player.slug, "club": r.player.club.slug, "name": r.player.name,
             "rating": r.ordinal, "mu": r.mu, "sigma": r.sigma, "games": r.games}
            for i, r in enumerate(ratings, start=1)]})


class PlayerRatings(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="A player's rating and its history")
    def get(self, request: Request, club: str, slug: str) -> Response:
        player = _player(club, slug)
        rating = selectors.player_rating(player=player)
        return Response({
            "player": player.slug, "club": player.club.slug,
            "rating": None if rating is None else {
                "rating": rating.ordinal, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games},
            "history": [{"games": g, "rating": o, "mu": m} for g, o, m in selectors.rating_history(player=player)],
        })


class PlayerStatistics(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="A player's statistics")
    def get(self, request: Request, club: str, slug: str) -> Response:
        player = _player(club, slug)
        return Response({"player": player.slug, "club": player.club.slug,
                         "statistics": selectors.player_stats(player=player),
                         "partners": [{"partner": p.slug, **data}
                                      for p, data in selectors.player_partners(player=player)]})

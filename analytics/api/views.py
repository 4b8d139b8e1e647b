"""Read-only API of standings, ratings and statistics: of events the caller may see
(`league.permissions.visible_events`); statistics count public events only."""

from __future__ import annotations

from django.http import HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analytics import selectors
from analytics.handicaps import selectors as handicap_selectors
from analytics.models import StandingsSnapshot, StandingsTable
from league.models import Club, Player, Season
from league.permissions import visible_events
from web.errors import Code as EdgeCode
from web.errors import edge_error

# --- response shapes (for the schema; the views build plain dicts) -----------------------------


class StandingsRowSerializer(serializers.Serializer):
    """One entrant (a player, or a side's players) in an event's standings."""

    rank = serializers.IntegerField()
    key = serializers.CharField(help_text="The entrant: p<player id>, or the side's players.")
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids.")
    name = serializers.CharField()
    score = serializers.FloatField(help_text="The figure ranked on (the event's `scoring`).")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    ties = serializers.IntegerField()
    losses = serializers.IntegerField()
    match_points = serializers.FloatField()
    total_points = serializers.IntegerField()
    point_difference = serializers.FloatField()
    victory_points = serializers.FloatField()
    held_points = serializers.IntegerField()
    byes = serializers.IntegerField(required=False, help_text="Rotations sat out.")
    per_game = serializers.BooleanField(required=False,
                                        help_text="True when figures are per game played.")
    opponents_strength = serializers.FloatField(required=False)


class HandicappedRowSerializer(StandingsRowSerializer):
    handicap = serializers.IntegerField(help_text="The entrant's handicap (a side's: the sum "
                                        "of its players'), frozen when the night started.")
    handicap_explanation = serializers.CharField(help_text="How it was computed, in words.")
    handicap_applies_to = serializers.CharField(help_text="game_points or match_points.")


class HandicappedEventSerializer(serializers.Serializer):
    computed_at = serializers.DateTimeField()
    rows = HandicappedRowSerializer(many=True)


class EventStandingsSerializer(serializers.Serializer):
    event = serializers.CharField(help_text="The event's slug.")
    scoring = serializers.CharField()
    computed_at = serializers.DateTimeField(allow_null=True,
                                            help_text="Null before the first confirmed result.")
    games = serializers.IntegerField(help_text="Confirmed games counted.")
    rows = StandingsRowSerializer(many=True)
    handicapped = HandicappedEventSerializer(
        allow_null=True, help_text="The standings with handicaps (null: the night has none).")


class SeasonStandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True,
                                    help_text="Null: fewer nights than the season's minimum.")
    key = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField())
    name = serializers.CharField()
    nights = serializers.IntegerField()
    counted_nights = serializers.IntegerField()
    score = serializers.FloatField()
    total_points = serializers.IntegerField()


class SeasonHandicappedRowSerializer(SeasonStandingsRowSerializer):
    handicap = serializers.IntegerField(help_text="The handicap on the entrant's latest night.")


class SeasonTableSerializer(serializers.Serializer):
    computed_at = serializers.DateTimeField()
    rows = SeasonStandingsRowSerializer(many=True)


class SeasonHandicappedSerializer(SeasonTableSerializer):
    rows = SeasonHandicappedRowSerializer(many=True)


class DivisionStandingsSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1 is the top division.")
    name = serializers.CharField()
    scratch = SeasonTableSerializer(allow_null=True)
    handicapped = SeasonHandicappedSerializer(allow_null=True)


class SeasonStandingsSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    aggregate = serializers.CharField()
    computed_at = serializers.DateTimeField(allow_null=True)
    games = serializers.IntegerField()
    rows = SeasonStandingsRowSerializer(many=True)
    handicapped = SeasonHandicappedSerializer(
        allow_null=True, help_text="The season with handicaps (null: no night has handicaps).")
    divisions = DivisionStandingsSerializer(many=True, help_text="Each division's tables.")


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(help_text="The player's number (id), never their slug.")
    club = serializers.CharField(help_text="The club's slug.")
    name = serializers.CharField(help_text="The name as the player chose to show it.")
    rating = serializers.FloatField(help_text="The displayed rating (ordinal).")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class LeaderboardSerializer(serializers.Serializer):
    min_games = serializers.IntegerField()
    results = LeaderboardRowSerializer(many=True)


class RatingSerializer(serializers.Serializer):
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class RatingPointSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()


class PlayerRatingsSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The player's number (id).")
    club = serializers.CharField(help_text="The club's slug.")
    rating = RatingSerializer(allow_null=True, help_text="Null before the player's first game.")
    history = RatingPointSerializer(many=True)


class PartnerStatisticsSerializer(serializers.Serializer):
    """A partner's number (id) and the pair's figures (games, wins, ...; more as numbers)."""

    partner = serializers.IntegerField(help_text="The partner's number (id).")
    games = serializers.IntegerField(required=False)


class PlayerStatisticsSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="The player's number (id).")
    club = serializers.CharField(help_text="The club's slug.")
    statistics = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="Figure name to value (games, wins, win_rate, ...); empty before any game.")
    partners = PartnerStatisticsSerializer(many=True)


def _snapshot(snapshot: StandingsSnapshot | None) -> dict:
    if snapshot is None:
        return {"computed_at": None, "games": 0, "rows": []}
    return {"computed_at": snapshot.computed_at, "games": snapshot.games, "rows": snapshot.rows}


def _table(table: StandingsTable | None) -> dict | None:
    return None if table is None else {"computed_at": table.computed_at, "rows": table.rows}


def _player(player_id: int) -> Player:
    player = selectors.player_by_id(pk=player_id)
    if player is None:
        raise NotFound(edge_error(EdgeCode.NOT_FOUND, what="player"))
    return player


class EventStandings(APIView):
    @extend_schema(responses=EventStandingsSerializer, summary="Standings of an event you may see")
    def get(self, request: Request, slug: str) -> Response:
        event = visible_events(request.user).filter(slug=slug).first()
        if event is None:
            raise NotFound(edge_error(EdgeCode.NOT_FOUND, what="event"))
        return Response({"event": event.slug, "scoring": event.scoring,
                         **_snapshot(selectors.event_standings(event=event)),
                         "handicapped": _table(handicap_selectors.event_handicapped(event=event))})


class SeasonStandings(APIView):
    @extend_schema(responses=SeasonStandingsSerializer, summary="Standings of a season")
    def get(self, request: Request, season_id: int) -> Response:
        season = get_object_or_404(Season, pk=season_id)
        return Response({
            "season": season.pk, "aggregate": season.aggregate,
            **_snapshot(selectors.season_standings(season=season)),
            "handicapped": _table(handicap_selectors.season_handicapped(season=season)),
            "divisions": [{"number": e.division.number, "name": e.division.name,
                           "scratch": _table(e.scratch), "handicapped": _table(e.handicapped)}
                          for e in handicap_selectors.division_tables(season=season)]})


class Leaderboard(APIView):
    @extend_schema(
        responses=LeaderboardSerializer, summary="Ratings of players with enough games",
        parameters=[OpenApiParameter("club", str), OpenApiParameter("min_games", int)],
    )
    def get(self, request: Request) -> Response:
        club = None
        if request.query_params.get("club"):
            club = Club.objects.filter(slug=request.query_params["club"]).first()
            if club is None:
                raise NotFound(edge_error(EdgeCode.NOT_FOUND, what="club"))
        raw = request.query_params.get("min_games", str(selectors.leaderboard_min_games()))
        if not raw.isdigit():
            raise ValidationError(edge_error(EdgeCode.BAD_MIN_GAMES))
        ratings = selectors.leaderboard(club_id=club.pk if club else None, min_games=int(raw))
        return Response({"min_games": int(raw), "results": [
            {"rank": i, "player": r.player.pk, "club": r.player.club.slug, "name": r.player.shown_name,
             "rating": r.ordinal, "mu": r.mu, "sigma": r.sigma, "games": r.games}
            for i, r in enumerate(ratings, start=1)]})


class PlayerRatings(APIView):
    @extend_schema(responses=PlayerRatingsSerializer, summary="A player's rating and its history")
    def get(self, request: Request, player_id: int) -> Response:
        player = _player(player_id)
        rating = selectors.player_rating(player=player)
        return Response({
            "player": player.pk, "club": player.club.slug,
            "rating": None if rating is None else {
                "rating": rating.ordinal, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games},
            "history": [{"games": g, "rating": o, "mu": m} for g, o, m in selectors.rating_history(player=player)],
        })


class PlayerStatistics(APIView):
    @extend_schema(responses=PlayerStatisticsSerializer, summary="A player's statistics")
    def get(self, request: Request, player_id: int) -> Response:
        player = _player(player_id)
        return Response({"player": player.pk, "club": player.club.slug,
                         "statistics": selectors.player_stats(player=player),
                         "partners": [{"partner": p.pk, **data}
                                      for p, data in selectors.player_partners(player=player)]})


class PlayerByOldSlug(APIView):
    """The old addresses by slug (made from the name), `/api/ratings/players/<club>/<slug>/`
    and `/api/statistics/players/<club>/<slug>/`: moved for good to the address by number
    while the player shows their full name; 404, as for no such player, once they show an
    initial or no name (the address would confirm the name). Not in the schema: the API has no
    versions to keep them in, so they stay only for clients written before."""

    moved_to = ""  # the URL name of the address by number

    @extend_schema(exclude=True)
    def get(self, request: Request, club: str, slug: str) -> HttpResponsePermanentRedirect:
        player = selectors.player_by_old_slug(club=club, slug=slug)
        if player is None:
            raise NotFound(edge_error(EdgeCode.NOT_FOUND, what="player"))
        return HttpResponsePermanentRedirect(reverse(self.moved_to, args=[player.pk]))

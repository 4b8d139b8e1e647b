"""Downloads of the night's and the season's results and standings (analytics.exports): XLSX
with a worksheet per table, CSV through the CSV exports' one path. Who may download is who may
see the page: the event's visibility rule, and for a season only the nights the reader may see."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from analytics import exports
from analytics.views.public import _csv_response, _event_or_404, csv_header
from league.models import Event, Season
from league.permissions import visible_events

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _xlsx_response(filename: str, sheets: list[exports.Sheet]) -> HttpResponse:
    response = HttpResponse(exports.xlsx_bytes(sheets, csv_header), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def event_results_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    """The night's standings and its games round by round, a worksheet each."""
    event = _event_or_404(request, slug)
    return _xlsx_response(f"{event.slug}-results.xlsx", exports.event_sheets(event=event))


def _season(request: HttpRequest, season_id: int) -> tuple[Season, QuerySet[Event]]:
    season = get_object_or_404(Season.objects.select_related("league__club"), pk=season_id)
    return season, visible_events(request.user).filter(season=season)


@require_safe
def season_results_xlsx(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's standings and every game of the nights the reader may see."""
    season, nights = _season(request, season_id)
    return _xlsx_response(
        f"{season.league.slug}-{season.slug}-results.xlsx",
        exports.season_sheets(season=season, events=nights),
    )


@require_safe
def season_games_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """Every game of the season's nights the reader may see, one row per side."""
    season, nights = _season(request, season_id)
    games = exports.season_sheets(season=season, events=nights)[1]
    return _csv_response(
        f"{season.league.slug}-{season.slug}-games.csv",
        games.columns,
        exports.shown_rows(games),
        headers=games.headers,
    )

"""CSV downloads of the handicapped and division tables, through the CSV exports' one path
(`analytics.views.public._csv_response`), beside the scratch ones."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from analytics.handicaps import selectors
from analytics.views.public import (
    SEASON_COLUMNS,
    STANDINGS_COLUMNS,
    _csv_response,
    _event_or_404,
    _season_or_404,
)
from league.models import Division

HANDICAP_HEADERS = {"handicap": "Handicap", "handicap_explanation": "How the handicap was computed"}


@require_safe
def event_handicapped_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event_or_404(request, slug)
    table = selectors.event_handicapped(event=event)
    if table is None:
        raise Http404("This night has no handicaps.")
    columns = STANDINGS_COLUMNS.get(event.scoring, STANDINGS_COLUMNS["match_points"])
    columns = [*columns[:2], "handicap", *columns[2:], "handicap_explanation"]
    return _csv_response(f"{event.slug}-standings-with-handicaps.csv", columns, table.rows,
                         headers=HANDICAP_HEADERS)


@require_safe
def season_handicapped_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season_or_404(season_id)
    table = selectors.season_handicapped(season=season)
    if table is None:
        raise Http404("This season has no handicaps.")
    columns = [*SEASON_COLUMNS[:2], "handicap", *SEASON_COLUMNS[2:]]
    return _csv_response(f"{season.league.slug}-{season.slug}-standings-with-handicaps.csv",
                         columns, table.rows, headers={**HANDICAP_HEADERS, "score": season.score_label})


def _division_csv(season_id: int, number: int, *, handicapped: bool) -> HttpResponse:
    season = _season_or_404(season_id)
    division = get_object_or_404(Division, season=season, number=number)
    entry = next(e for e in selectors.division_tables(season=season) if e.division.pk == division.pk)
    table = entry.handicapped if handicapped else entry.scratch
    if table is None:
        raise Http404("This division has no such table.")
    columns = [*SEASON_COLUMNS[:2], "handicap", *SEASON_COLUMNS[2:]] if handicapped else SEASON_COLUMNS
    suffix = "-with-handicaps" if handicapped else ""
    return _csv_response(f"{season.league.slug}-{season.slug}-division-{number}{suffix}.csv",
                         columns, table.rows, headers={**HANDICAP_HEADERS, "score": season.score_label})


@require_safe
def division_csv(request: HttpRequest, season_id: int, number: int) -> HttpResponse:
    return _division_csv(season_id, number, handicapped=False)


@require_safe
def division_handicapped_csv(request: HttpRequest, season_id: int, number: int) -> HttpResponse:
    return _division_csv(season_id, number, handicapped=True)

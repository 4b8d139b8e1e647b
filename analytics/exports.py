"""The night's and the season's results and standings as spreadsheets for people: columns named
as the pages name them ("Match points", not `match_points`, through the CSV exports' one table
of words, `analytics.views.public.csv_header`), numbers rounded as the pages show them, and in
XLSX shown as the pages show them (thousands separated, no trailing zeros). A sheet is a title,
its columns (keys) and rows (dicts); the CSV of a sheet is written by the CSV exports' one path
(`analytics.views.public._csv_response`), its XLSX here (openpyxl)."""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import openpyxl  # type: ignore[import-untyped]  # no stubs (types-openpyxl is no dependency)
from django.db.models import QuerySet, Sum
from openpyxl.styles import Font  # type: ignore[import-untyped]  # as above

from analytics import selectors
from analytics.handicaps import selectors as handicap_selectors
from analytics.views.public import SEASON_COLUMNS, STANDINGS_COLUMNS
from games.models import RoundResult
from league.models import Event, Season, Seat, shown_name

# How the pages show each kind of number (floatformat "-2" for match and victory points, whole
# points with thousands separated): the CSV value and the XLSX cell format.
DECIMALS = {"match_points", "victory_points", "score"}
WHOLE = {"total_points", "point_difference", "held_points", "game_total", "points"}
XLSX_FORMATS = {"decimals": "#,##0.##;-#,##0.##;0", "whole": "#,##0"}
SEASON_GAME_COLUMNS = ["date", "night", "rotation", "table", "side", "players", "game_total"]
EXTRA_HEADERS = {"date": "Date", "night": "Night"}


@dataclass
class Sheet:
    title: str
    columns: list[str]
    rows: list[dict[str, Any]]
    headers: dict[str, str] = field(default_factory=dict)  # words where they depend on the data


def shown_value(column: str, value: Any) -> Any:
    """A figure rounded as the page rounds it (2.50 → 2.5, 4125.0 → 4125)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    if column in DECIMALS:
        rounded = round(float(value), 2)
        return int(rounded) if rounded == int(rounded) else rounded
    if column in WHOLE:
        return round(value)
    return value


def shown_rows(sheet: Sheet) -> list[dict[str, Any]]:
    return [{c: shown_value(c, row.get(c)) for c in sheet.columns} for row in sheet.rows]


def _standings_columns(event: Event) -> list[str]:
    return STANDINGS_COLUMNS.get(event.scoring, STANDINGS_COLUMNS["match_points"])


def event_sheets(*, event: Event) -> list[Sheet]:
    """The night: its standings and its games round by round (one row per side and round)."""
    snapshot = selectors.event_standings(event=event)
    handicapped = handicap_selectors.event_handicapped(event=event)
    return [
        Sheet("Standings", _standings_columns(event), snapshot.rows if snapshot else []),
        Sheet("Games", selectors.game_round_columns(event=event),
              selectors.event_game_rounds(event=event)),
        *([Sheet("With handicaps", [*_standings_columns(event), "handicap"], handicapped.rows,
                 headers={"handicap": "Handicap"})] if handicapped else []),
    ]


def season_games(*, events: QuerySet[Event]) -> list[dict[str, Any]]:
    """Every confirmed game of these nights, one row per side: the night, rotation, table,
    side (from 1), its players by the names they chose to show, and the side's game total.
    Three queries whatever the season's length."""
    totals = list(
        RoundResult.objects.filter(game__table__rotation__event__in=events)
        .values(
            "game_id",
            "side",
            "game__table__number",
            "game__table__rotation__number",
            "game__table__rotation__event__date",
            "game__table__rotation__event__name",
        )
        .annotate(total=Sum("score"))
        .order_by(
            "game__table__rotation__event__date",
            "game__table__rotation__event__name",
            "game__table__rotation__number",
            "game__table__number",
            "side",
        )
    )
    names: dict[tuple[int, int], list[str]] = defaultdict(list)
    seats = (
        Seat.objects.filter(table__game__in={t["game_id"] for t in totals})
        .order_by("seat_number")
        .values_list("table__game", "side", "player_id", "player__name", "player__name_shown")
    )
    for game_id, side, player_id, name, shown in seats:
        names[(game_id, side)].append(shown_name(player_id, name, shown))
    return [
        {
            "date": t["game__table__rotation__event__date"],
            "night": t["game__table__rotation__event__name"],
            "rotation": t["game__table__rotation__number"],
            "table": t["game__table__number"],
            "side": t["side"] + 1,
            "players": " & ".join(names[(t["game_id"], t["side"])]),
            "game_total": t["total"],
        }
        for t in totals
    ]


def season_sheets(*, season: Season, events: QuerySet[Event]) -> list[Sheet]:
    """The season: its standings (the score column named as the season page names it) and every
    game of its nights that the reader may see."""
    snapshot = selectors.season_standings(season=season)
    handicapped = handicap_selectors.season_handicapped(season=season)
    return [
        Sheet(
            "Standings",
            list(SEASON_COLUMNS),
            snapshot.rows if snapshot else [],
            headers={"score": season.score_label},
        ),
        Sheet("Games", SEASON_GAME_COLUMNS, season_games(events=events), headers=EXTRA_HEADERS),
        *([Sheet("With handicaps", [*SEASON_COLUMNS, "handicap"], handicapped.rows,
                 headers={"score": season.score_label, "handicap": "Handicap"})]
          if handicapped else []),
    ]


def _cell_format(column: str) -> str | None:
    if column in DECIMALS:
        return XLSX_FORMATS["decimals"]
    if column in WHOLE:
        return XLSX_FORMATS["whole"]
    if column == "date":
        return "d mmm yyyy"
    return None


def _xlsx_value(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value  # stays text, never a formula
    return value


def xlsx_bytes(sheets: Sequence[Sheet], header: Callable[[str], str]) -> bytes:
    """A workbook, one worksheet per sheet: a bold header row in words, then the rows."""
    book = openpyxl.Workbook()
    book.remove(book.active)  # a new workbook comes with one empty sheet
    bold = Font(bold=True)
    for sheet in sheets:
        ws = book.create_sheet(sheet.title[:31])
        ws.append([sheet.headers.get(c) or header(c) for c in sheet.columns])
        for cell in ws[1]:
            cell.font = bold
        for row in shown_rows(sheet):
            ws.append([_xlsx_value(row[c]) for c in sheet.columns])
        for index, column in enumerate(sheet.columns, start=1):
            number_format = _cell_format(column)
            letter = openpyxl.utils.get_column_letter(index)
            width = max(
                [len(str(header(column)))]
                + [len(str(r.get(column) or "")) for r in sheet.rows[:200]]
            )
            ws.column_dimensions[letter].width = min(max(width + 2, 6), 40)
            if number_format:
                for (cell,) in ws.iter_rows(min_row=2, min_col=index, max_col=index):
                    cell.number_format = number_format
        ws.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()

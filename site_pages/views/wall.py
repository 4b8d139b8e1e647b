"""The night on the wall: one public page per event (`/events/<slug>/wall/`) with every table's
scores for each rotation and the running standings, in type large enough for a projector across
the room, refreshing itself (static/js/live-refresh.js polls the fragment every second with
If-None-Match; unchanged, the answer is an empty 304). No controls. Who may see it is the event
page's rule (`league.views.public.event_summary_or_404`: private events stay private, 404 alike)."""

from __future__ import annotations

import functools
import math
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.views.decorators.http import require_safe

from analytics import selectors as analytics_selectors
from analytics.models import StandingsSnapshot
from analytics.views.page_cache import cached_response, kept_piece, page_key, pieces_kept
from games.models import RoundResult
from games.selectors.table_clocks import rotations_clocks
from league import selectors
from league.models import Event, Game, Rotation
from league.pace.clock import Clock
from league.templatetags.substitutes import seat_label
from league.views.public import event_summary_or_404
from site_pages.views.night_forecast import forecast_context
from site_pages.views.rotation_pieces import rotation_pieces
from site_pages.views.seat_calls import wall_seat_calls_context
from site_pages.views.versions import event_version

WALL_REFRESH_SECONDS = 1  # a 304 while nothing changed
FORECAST_REDRAW_SECONDS = 300
WALL_ROWS_PER_COLUMN = 16  # a projector's standings column (1280 x 720 and up)
# Standings columns by the event's scoring: (the row's key, the heading the page shows).
SCORE_COLUMNS: dict[str, tuple[str, str]] = {
    Event.Scoring.MATCH_POINTS: ("match_points", "Match points"),
    Event.Scoring.VICTORY_POINTS: ("victory_points", "Victory points"),
}
STATUS_WORDS: dict[str, str] = {
    Game.Status.PENDING: "playing",
    Game.Status.ENTERED: "waiting for the other side",
    Game.Status.DISPUTED: "being checked by the director",
    Game.Status.CONFIRMED: "final",
}


@dataclass
class WallSide:
    number: int
    names: str
    score: int | None = None
    leads: bool = False


@dataclass
class WallTable:
    number: int
    status: str
    sides: list[WallSide] = field(default_factory=list)
    clock: Clock | None = None  # while it plays a round of an event with a round time
    chime: bool = False  # the event's gentle chime when the clock's time is up


def _side_totals(rotations: list[Rotation]) -> dict[int, dict[int, int]]:
    """Game id → side → its confirmed total, for the games of these rotations (one query)."""
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    rows = (
        RoundResult.objects.filter(game__table__rotation__in=[r.pk for r in rotations])
        .values("game_id", "side")
        .annotate(total=Sum("score"))
    )
    for row in rows:
        totals[row["game_id"]][row["side"]] = row["total"]
    return totals


def _tables(plan: selectors.RotationView, totals: dict[int, dict[int, int]],
            clocks: dict[tuple[int, int], Clock], chime: bool) -> list[WallTable]:
    tables = []
    for view in plan.tables:
        game = view.game
        status = game.status if game is not None else Game.Status.PENDING
        scores = (
            totals.get(game.pk, {}) if game is not None and status == Game.Status.CONFIRMED else {}
        )
        sides = [
            WallSide(n, " & ".join(seat_label(p, view) for p in players), scores.get(n - 1))
            for n, players in enumerate(view.sides, start=1)
        ]
        if scores:
            best = max(scores.values())
            for side in sides:
                side.leads = side.score == best and list(scores.values()).count(best) == 1
        clock = clocks.get((plan.rotation.number, view.number))
        tables.append(WallTable(view.number, STATUS_WORDS.get(status, ""), sides, clock,
                                chime and clock is not None))
    return tables


def _tables_drawn(tables: list[WallTable]) -> list[SafeString]:
    """Each table as the wall shows it, kept under what it shows (its number, status, sides'
    names and scores): only the tables that changed are drawn."""
    return pieces_kept("wall-table", [
        ((table,), functools.partial(render_to_string, "site_pages/_wall_table.html",
                                     {"table": table}))
        for table in tables
    ])


def _draw_rotations(event: Event, rotations: list[Rotation]) -> dict[int, str]:
    """Each rotation's tables with their scores and clocks, as the wall shows them (seating
    loaded)."""
    totals = _side_totals(rotations)
    clocks = rotations_clocks(rotations=rotations, round_minutes=event.round_minutes)
    return {
        r.pk: render_to_string("site_pages/_wall_rotation.html", {"rotation": {
            "number": r.number,
            "running": r.status == Rotation.Status.STARTED,
            "tables": _tables_drawn(_tables(selectors.rotation_plan(rotation=r), totals, clocks,
                                            event.wall_chime)),
        }})
        for r in rotations
    }


def _standings_rows(event: Event, snapshot: StandingsSnapshot) -> SafeString:
    """The standings' rows, drawn once per snapshot (at 400 players most of a wall's drawing)."""
    score_key, score_words = SCORE_COLUMNS.get(event.scoring, ("", ""))
    rows = [
        {
            "rank": row.get("rank"),
            "name": row.get("name"),
            "games": row.get("games", 0),
            "score": row.get(score_key) if score_key else None,
            "points": row.get("total_points"),
        }
        for row in snapshot.rows
    ]
    key = page_key("wall-standings", snapshot.pk, snapshot.computed_at, event.scoring)
    return kept_piece(key, lambda: render_to_string(
        "site_pages/_wall_standings_rows.html",
        {"columns": standings_columns(rows), "score_words": score_words, "event": event}))


def standings_columns(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The standings cut into columns of at most WALL_ROWS_PER_COLUMN rows, as even as can be:
    a projector cannot be scrolled, so a 32-player night shows as two columns of 16, side by
    side (static/js/wall-fit.js then shrinks the type until the last row is on the screen)."""
    if not rows:
        return []
    count = math.ceil(len(rows) / WALL_ROWS_PER_COLUMN)
    size = math.ceil(len(rows) / count)
    return [rows[i:i + size] for i in range(0, len(rows), size)]


def wall_context(event: Event, version_rows: list[tuple]) -> dict[str, Any]:
    """What the wall shows: the rotations played or playing (the one being played first), each
    from the cache when kept (`rotation_pieces`), and the standings."""
    shown = [r for r in event.rotations.order_by("-number") if r.status != Rotation.Status.DRAFT]
    pieces = rotation_pieces(event=event, rotations=shown, version_rows=version_rows,
                             kind="wall-rotation", draw=functools.partial(_draw_rotations, event))
    snapshot = analytics_selectors.event_standings(event=event)
    score_words = SCORE_COLUMNS.get(event.scoring, ("", ""))[1]
    return {
        "event": event,
        "rotations": [pieces[r.pk] for r in shown],
        "standings": bool(snapshot and snapshot.rows),
        "standings_rows": _standings_rows(event, snapshot) if snapshot else "",
        "standings_games": snapshot.games if snapshot else 0,
        "score_words": score_words,
        "refresh_seconds": WALL_REFRESH_SECONDS,
        **forecast_context(event=event),
        **wall_seat_calls_context(event=event, version_rows=version_rows),
    }


@require_safe
def event_wall(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall and its polled fragment, drawn once per version of the event (what the wall
    shows is the same for every viewer who may see it) and kept in the cache; a poll while
    nothing changed is a 304 after two small queries, without reading the seating."""
    fragment = request.headers.get("X-Requested-With") == "fetch" or "fragment" in request.GET
    version = event_version(user=request.user, slug=slug)
    # The forecast's "about 22:35" is drawn again every few minutes even when nothing is entered.
    period = int(time.time() // FORECAST_REDRAW_SECONDS)
    return cached_response(
        request,
        page_key("wall-fragment" if fragment else "wall", *version, period),
        lambda: wall_drawn(request, slug, version, fragment=fragment),
    )


def wall_drawn(request: HttpRequest, slug: str, version: tuple, *, fragment: bool) -> str:
    """The wall (or the fragment it polls) at `version` (`event_version`), drawn now for this
    viewer (uncached)."""
    template = "site_pages/_wall.html" if fragment else "site_pages/wall.html"
    return render_to_string(
        template, wall_context(event_summary_or_404(request, slug), version[-1]), request)

"""Pages that assemble several apps: an event with its seating, rules and live standings, and a
season with its nights and standings. The league, games and analytics apps each know only
themselves and the layers below; this is the layer that puts them on one page."""

import functools

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from analytics import selectors as analytics_selectors
from analytics.handicaps import selectors as handicap_selectors
from analytics.views.page_cache import (
    cached_response,
    page_key,
    pieces_kept,
    printed_minute,
    shared_variant,
)
from handfoot.errors import EngineError
from handfoot.rules import PRESETS, BookCounts, RuleSet, rules_from_spec
from league import selectors
from league.house_rules import rules_summary_changes
from league.models import Event, Rotation, Season
from league.permissions import is_director, visible_events
from league.presets import preset_name
from league.views.public import event_or_404, event_summary_or_404
from site_pages.views.rotation_pieces import DrawRotations, rotation_pieces
from site_pages.views.versions import event_version

STANDINGS_REFRESH_SECONDS = 1  # a 304 while nothing changed (analytics.views.public)


# --- rule set summary ---------------------------------------------------------------------------


def _books(counts: BookCounts) -> str:
    return f"{counts.clean} clean, {counts.dirty} dirty, {counts.wild} wild"


def _rules_summary(rules: RuleSet) -> list[tuple[str, str]]:
    """The few parameters a player asks about at the table, in plain words."""
    wilds = "no limit" if rules.max_wilds is None else f"at most {rules.max_wilds}"
    red_threes = (
        f"laid out for {rules.red_three_bonus} each"
        if rules.red_threes == "lay"
        else "held (dead cards)"
    )
    return [
        ("Rounds", str(rules.rounds)),
        ("Hand / foot", f"{rules.hand_size} / {rules.foot_size} cards"),
        ("First lay-down minimums", ", ".join(str(m) for m in rules.meld_minimums)),
        ("Books needed to go out", _books(rules.books_to_go_out)),
        ("Book bonuses", _books(rules.book_bonus)),
        ("Wild cards in a meld", wilds),
        ("Red threes", f"{red_threes}; {rules.red_three_penalty} if caught holding"),
        ("Going out bonus", str(rules.going_out_bonus)),
    ]


def _rules_context(event: Event) -> dict:
    """The event's rules in words: the preset by its name, the house rules each as the rule's
    label with the event's and the preset's value (never the engine's codes or field names)."""
    named = {"preset_name": preset_name(event.rules_preset),
             "house_rules": rules_summary_changes(event.rules_preset, event.rules_overrides or {})
             if event.rules_preset in PRESETS else []}
    try:
        rules = rules_from_spec(event.rules_spec)
    except EngineError as error:
        return {"rules_error": error.message, "rules_summary": [], **named}
    return {"rules_error": None, "rules_summary": _rules_summary(rules), **named}


def season_detail(request: HttpRequest, club: str, league: str, season: str) -> HttpResponse:
    season_obj = get_object_or_404(
        Season.objects.select_related("league__club"),
        league__club__slug=club,
        league__slug=league,
        slug=season,
    )
    nights = selectors.events_with_entrant_counts(
        events=visible_events(request.user).filter(season=season_obj)
    ).order_by("-date", "name")
    handicapped, division_tables = handicap_selectors.season_tables(season=season_obj)
    context = {
        "handicapped": handicapped,
        "division_tables": division_tables,
        "season": season_obj,
        "league": season_obj.league,
        "club": season_obj.league.club,
        "nights": nights,
        "standings": analytics_selectors.season_standings(season=season_obj),
    }
    return render(request, "league/public/season.html", context)


def _rotation_views(event: Event, show_drafts: bool) -> list[dict]:
    views = []
    for rotation in event.rotations.all():
        hidden = rotation.status == Rotation.Status.DRAFT and not show_drafts
        views.append({"plan": selectors.rotation_plan(rotation=rotation), "hidden": hidden})
    return views


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The event page. Everyone not signed in sees the same page: drawn once per version of the
    event (`site_pages.views.versions`) and kept in the cache, each rotation's seating kept apart
    too (a result at one table draws that rotation again, not the whole night)."""
    if not shared_variant(request):
        return render(request, "league/public/event.html", _event_context(request, slug))
    version = event_version(user=request.user, slug=slug)

    def draw() -> str:
        event = event_summary_or_404(request, slug)
        rotations = list(event.rotations.order_by("number"))
        pieces = rotation_pieces(event=event, rotations=rotations, version_rows=version[-1],
                                 kind="event-rotation", draw=_rotations_drawn(event))
        context = _page_context(event, director=False,
                                rotations=[{"html": pieces[r.pk]} for r in rotations],
                                entrant_count=version[0][-1] or 0)  # counted in the version
        return render_to_string("league/public/event.html", context, request)

    return cached_response(
        request, page_key("event", *version, printed_minute()), draw)


def _table_shown(table: selectors.TableView) -> tuple:
    """Everything a table's plan shows (league/public/_table_plan.html), as a value."""
    return (
        table.number,
        table.game.status if table.game is not None else None,
        tuple((seat.seat_number, seat.player.pk, seat.player.slug, seat.player.shown_name,
               seat.side, seat.deals_first,
               seat.playing_for.shown_name if seat.playing_for is not None else None)
              for seat in table.seats),
        tuple(tuple(player.pk for player in side) for side in table.sides),
    )


def _tables_drawn(event: Event, plan: selectors.RotationView) -> list[SafeString]:
    """Each table's plan, kept under what it shows: only the tables that changed are drawn."""
    number = plan.rotation.number
    return pieces_kept("event-table", [
        ((event.club.slug, number, _table_shown(table)),
         functools.partial(render_to_string, "league/public/_table_plan.html",
                           {"table": table, "club": event.club, "rotation_number": number}))
        for table in plan.tables
    ])


def _rotations_drawn(event: Event) -> DrawRotations:
    """The event page's seating of each rotation as everyone not signed in sees it."""

    def draw(rotations: list[Rotation]) -> dict[int, str]:
        drawn: dict[int, str] = {}
        for rotation in rotations:
            plan = selectors.rotation_plan(rotation=rotation)
            hidden = rotation.status == Rotation.Status.DRAFT
            drawn[rotation.pk] = render_to_string("site_pages/_event_rotation.html", {
                "item": {"plan": plan, "hidden": hidden,
                         "tables_html": [] if hidden else _tables_drawn(event, plan)},
                "event": event, "is_director": False,
            })
        return drawn

    return draw


def _event_context(request: HttpRequest, slug: str) -> dict:
    event = event_or_404(request, slug)
    director = is_director(request.user, event.club)
    return _page_context(event, director=director,
                         rotations=_rotation_views(event, show_drafts=director),
                         entrant_count=selectors.event_entrant_count(event=event))


def _page_context(event: Event, *, director: bool, rotations: list[dict],
                  entrant_count: int) -> dict:
    return {
        "event": event,
        "is_director": director,
        "entrant_count": entrant_count,
        "rotations": rotations,
        "standings": analytics_selectors.event_standings(event=event),
        "handicapped": handicap_selectors.event_handicapped(event=event),
        "live": event.status == Event.Status.RUNNING,
        "refresh_seconds": STANDINGS_REFRESH_SECONDS,
        **_rules_context(event),
    }

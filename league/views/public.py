"""The public pages of the league alone: home, clubs and leagues, and the director's printable table
cards (the season and event pages, which also show standings, are in `site_pages.views.pages`).

Every page runs a fixed number of queries whatever the club's size: lists are fetched with
`select_related` / `Prefetch` and the seating plans are built in Python from prefetched rows.
"""

from collections.abc import Callable

import qrcode
import qrcode.image.svg
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from league import selectors
from league.models import Club, Event, League, Rotation, SideCredential
from league.names import room_names
from league.permissions import check_directs_club, is_director, visible_events
from league.services.credentials import printed_code, side_credentials_ensure
from league.time_zones import club_zone_activate

HOME_EVENT_LIMIT = 8


# --- pages --------------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    context = {
        "clubs": Club.objects.annotate(
            league_count=Count("leagues", distinct=True),
            player_count=Count("players", distinct=True),
        ),
        "leagues": League.objects.select_related("club").order_by("club__name", "name"),
        **selectors.public_events(limit=HOME_EVENT_LIMIT),
    }
    return render(request, "home.html", context)


def club_detail(request: HttpRequest, club: str) -> HttpResponse:
    club_obj = get_object_or_404(Club, slug=club)
    club_zone_activate(club_obj)
    context = {
        "club": club_obj,
        "leagues": club_obj.leagues.prefetch_related("seasons"),
        "events": visible_events(request.user).filter(club=club_obj).order_by("-date", "name"),
        "players": club_obj.players.filter(retired_at__isnull=True),
        "is_director": is_director(request.user, club_obj),
    }
    return render(request, "league/public/club.html", context)


def league_detail(request: HttpRequest, club: str, league: str) -> HttpResponse:
    league_obj = get_object_or_404(League.objects.select_related("club"), club__slug=club, slug=league)
    club_zone_activate(league_obj.club)
    nights = visible_events(request.user).filter(season__league=league_obj).order_by("-date", "name")
    context = {"league": league_obj, "seasons": league_obj.seasons.all(), "nights": nights}
    return render(request, "league/public/league.html", context)


def event_or_404(request: HttpRequest, slug: str) -> Event:
    """The event with its seating and registrations; 404 alike for unknown events and for
    events the user may not see, so private events do not reveal that they exist."""
    return _visible_or_404(request, slug, selectors.event_detail)


def event_summary_or_404(request: HttpRequest, slug: str) -> Event:
    """The event without its seating (`selectors.event_summary`); 404 as `event_or_404`."""
    return _visible_or_404(request, slug, selectors.event_summary)


def _visible_or_404(request: HttpRequest, slug: str, read: Callable[..., Event]) -> Event:
    """The event as `read` gives it to this user (its club's clock set for the page), or 404."""
    try:
        event = read(slug=slug, user=request.user)
    except Event.DoesNotExist:
        raise Http404("No such event.") from None
    club_zone_activate(event.club)
    return event


# --- table cards --------------------------------------------------------------------------------


def _qr_svg(url: str) -> SafeString:
    """The link as an inline SVG QR code (drawn by our own code, so safe to embed)."""
    image = qrcode.make(
        url,
        image_factory=qrcode.image.svg.SvgPathImage,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        box_size=10,
        border=2,
    )
    svg = image.to_string(encoding="unicode")
    svg = svg.split("?>", 1)[-1].strip()  # drop the XML declaration: this is inline HTML
    # The SVG is drawn by qrcode from our own entry URL (no visitor input): safe to inline.
    return mark_safe(svg.replace("<svg ", '<svg role="img" aria-label="QR code of the entry link" ', 1))  # nosec B308, B703


def _requested_rotation(event: Event, number: int | None) -> Rotation | None:
    """Rotation `number` of the event (404 when it has none), else its latest, else None."""
    rotations = {rotation.number: rotation for rotation in event.rotations.all()}
    if number is None:
        return rotations[max(rotations)] if rotations else None
    if number not in rotations:
        raise Http404(f"This event has no rotation {number}.")
    return rotations[number]


def _side_slip(request: HttpRequest, table: selectors.TableView, credential: SideCredential) -> dict:
    """One side's slip: its players, its own entry link (as a QR code) and its code."""
    entry_url = request.build_absolute_uri(credential.entry_url)
    return {
        "number": credential.side + 1,
        "players": table.sides[credential.side] if credential.side < len(table.sides) else [],
        "table": table,
        "code": printed_code(credential.code),
        "entry_url": entry_url,
        "qr": _qr_svg(entry_url),
    }


def _table_card(
    request: HttpRequest, table: selectors.TableView, credentials: list[SideCredential]
) -> dict:
    """A table card (seating and first dealer, for the whole table) and one slip per side."""
    if table.game is None:
        return {"table": table, "sides": []}
    return {"table": table, "sides": [_side_slip(request, table, c) for c in credentials]}


def _table_cards(request: HttpRequest, plan: selectors.RotationView | None) -> list[dict]:
    if plan is None:
        return []
    games = [table.game for table in plan.tables if table.game is not None]
    credentials = side_credentials_ensure(games=games)
    return [
        _table_card(request, table, credentials.get(table.game.pk, []) if table.game else [])
        for table in plan.tables
    ]


def table_cards(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(request, slug)
    check_directs_club(request.user, event.club)
    raw = request.GET.get("rotation", "").strip()
    if raw and not (raw.isascii() and raw.isdigit()):
        return HttpResponseBadRequest(
            f"rotation must be a rotation number such as 1, not {raw[:20]!r}.",
            content_type="text/plain; charset=utf-8",
        )
    rotation = _requested_rotation(event, int(raw) if raw else None)
    plan = selectors.rotation_plan(rotation=rotation) if rotation else None
    context = {
        "event": event,
        "rotation": rotation,
        "cards": _table_cards(request, plan),
        "play_url": request.build_absolute_uri(reverse("play-home")),
        "names": room_names(request.GET.get("names")),
    }
    return render(request, "league/table_cards.html", context)


def side_slip(request: HttpRequest, slug: str, rotation: int, table: int, side: int) -> HttpResponse:
    """One side's credential on the director's screen, for that side to scan with a phone: the
    other side's is not on the page (the next side's is one press away)."""
    event = event_or_404(request, slug)
    check_directs_club(request.user, event.club)
    found = _requested_rotation(event, rotation)
    if found is None:
        raise Http404("This event has no rotations yet.")
    plan = selectors.rotation_plan(rotation=found)
    view = next((t for t in plan.tables if t.number == table), None)
    if view is None or view.game is None:
        raise Http404(f"Rotation {rotation} has no game at table {table}.")
    credentials = side_credentials_ensure(games=[view.game])[view.game.pk]
    if not 1 <= side <= len(credentials):
        raise Http404(f"Table {table} has no side {side}.")
    context = {
        "event": event,
        "rotation": found,
        "table": view,
        "slip": _side_slip(request, view, credentials[side - 1]),
        "sides": range(1, len(credentials) + 1),
        "next_side": side % len(credentials) + 1,
        "play_url": request.build_absolute_uri(reverse("play-home")),
    }
    response = render(request, "league/side_slip.html", context)
    response["Cache-Control"] = "no-store"  # a credential: not kept in the browser's cache
    return response

"""The public site: home, clubs, leagues, seasons, events, and the director's printable table cards.

Every page runs a fixed number of queries whatever the club's size: lists are fetched with
`select_related` / `Prefetch` and the seating plans are built in Python from prefetched rows.
"""

import math
from dataclasses import dataclass

import qrcode
import qrcode.image.svg
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from games.engine.errors import EngineError
from games.engine.rules import RuleSet, rules_from_spec
from league.models import Club, Event, Game, League, Rotation, Season, Seat, SitOut, Table
from league.permissions import can_view_event, is_director, visible_events

HOME_EVENT_LIMIT = 8
SIDE_LETTERS = "ABCDEF"
STANDINGS_REFRESH_SECONDS = 5


# --- seating plans ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    number: int
    player_name: str
    player_url: str
    side: int
    side_letter: str
    deals_first: bool
    x: float  # position around the drawn table, in percent of its box
    y: float


@dataclass(frozen=True)
class TableView:
    number: int
    seats: list[SeatView]
    sides: list[tuple[int, str, list[str]]]  # (side, its letter, player names): the partners
    first_dealer: str | None
    game_status: str | None
    game: Game | None


def _seat_position(seat_index: int, seat_count: int) -> tuple[float, float]:
    """Seat 0 at the bottom, the rest clockwise as seen from above (the deal passes left)."""
    angle = math.radians(90 + seat_index * 360 / seat_count)
    return round(50 + 38 * math.cos(angle), 1), round(50 + 38 * math.sin(angle), 1)


def _table_game(table: Table) -> Game | None:
    try:
        return table.game
    except Game.DoesNotExist:
        return None


def _table_view(table: Table) -> TableView:
    seats = list(table.seats.all())
    game = _table_game(table)
    dealer_seat = game.first_dealer if game else None
    views = []
    for index, seat in enumerate(seats):
        x, y = _seat_position(index, len(seats))
        views.append(
            SeatView(
                number=seat.seat_number,
                player_name=seat.player.name,
                player_url=seat.player.get_absolute_url(),
                side=seat.side,
                side_letter=SIDE_LETTERS[seat.side % len(SIDE_LETTERS)],
                deals_first=seat.seat_number == dealer_seat,
                x=x,
                y=y,
            )
        )
    sides: dict[tuple[int, str], list[str]] = {}
    for seat in sorted(views, key=lambda s: (s.side, s.number)):
        sides.setdefault((seat.side, seat.side_letter), []).append(seat.player_name)
    dealer = next((s.player_name for s in views if s.deals_first), None)
    return TableView(
        number=table.number,
        seats=views,
        sides=[(side, letter, names) for (side, letter), names in sides.items()],
        first_dealer=dealer,
        game_status=game.get_status_display() if game else None,
        game=game,
    )


def _rotations_with_seating() -> QuerySet[Rotation]:
    seats = Seat.objects.select_related("player__club").order_by("seat_number")
    tables = (
        Table.objects.select_related("game")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    return Rotation.objects.prefetch_related(
        Prefetch("tables", queryset=tables),
        Prefetch("sit_outs", queryset=SitOut.objects.select_related("player__club")),
    ).order_by("number")


# --- rule set summary ---------------------------------------------------------------------------


def _books(counts) -> str:
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
    try:
        rules = rules_from_spec(event.rules_spec)
    except EngineError as error:
        return {"rules_error": error.message, "rules_summary": []}
    return {"rules_error": None, "rules_summary": _rules_summary(rules)}


# --- pages --------------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    events = visible_events(request.user).select_related("club")
    context = {
        "clubs": Club.objects.annotate(
            league_count=Count("leagues", distinct=True),
            player_count=Count("players", distinct=True),
        ),
        "leagues": League.objects.select_related("club").order_by("club__name", "name"),
        "upcoming": events.filter(date__gte=today).order_by("date", "name")[:HOME_EVENT_LIMIT],
        "recent": events.filter(date__lt=today).order_by("-date", "name")[:HOME_EVENT_LIMIT],
    }
    return render(request, "home.html", context)


def club_detail(request: HttpRequest, club: str) -> HttpResponse:
    club_obj = get_object_or_404(Club, slug=club)
    context = {
        "club": club_obj,
        "leagues": club_obj.leagues.prefetch_related("seasons"),
        "events": visible_events(request.user).filter(club=club_obj).select_related("season"),
        "players": club_obj.players.select_related("club"),
        "is_director": is_director(request.user, club_obj),
    }
    return render(request, "league/public/club.html", context)


def league_detail(request: HttpRequest, club: str, league: str) -> HttpResponse:
    league_obj = get_object_or_404(League.objects.select_related("club"), club__slug=club, slug=league)
    nights = (
        visible_events(request.user)
        .filter(season__league=league_obj)
        .select_related("season")
        .order_by("-date", "name")
    )
    context = {"league": league_obj, "seasons": league_obj.seasons.all(), "nights": nights}
    return render(request, "league/public/league.html", context)


def _season_standings(season: Season) -> dict | None:
    """The analytics app's latest season standings snapshot, or None while none is computed."""
    try:
        from analytics.selectors import season_standings
    except ImportError:  # the analytics selectors are not installed yet
        return None
    return season_standings(season)


def season_detail(request: HttpRequest, club: str, league: str, season: str) -> HttpResponse:
    season_obj = get_object_or_404(
        Season.objects.select_related("league__club"),
        league__club__slug=club,
        league__slug=league,
        slug=season,
    )
    nights = (
        visible_events(request.user)
        .filter(season=season_obj)
        .annotate(entrants=Count("registrations", distinct=True))
        .order_by("-date", "name")
    )
    context = {
        "season": season_obj,
        "league": season_obj.league,
        "club": season_obj.league.club,
        "nights": nights,
        "standings": _season_standings(season_obj),
    }
    return render(request, "league/public/season.html", context)


def _visible_event_or_404(request: HttpRequest, slug: str) -> Event:
    """The event, or 404 when it does not exist or is not public and the user is not a member,
    so private events do not reveal that they exist."""
    event = get_object_or_404(Event.objects.select_related("club", "season__league"), slug=slug)
    if not can_view_event(request.user, event):
        raise Http404("No such event.")
    return event


def _rotation_views(rotations: list[Rotation], show_drafts: bool) -> list[dict]:
    views = []
    for rotation in rotations:
        is_draft = rotation.status == Rotation.Status.DRAFT
        views.append(
            {
                "rotation": rotation,
                "is_draft": is_draft,
                "hidden": is_draft and not show_drafts,
                "tables": [_table_view(t) for t in rotation.tables.all()],
                "sit_outs": [s.player for s in rotation.sit_outs.all()],
            }
        )
    return views


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = _visible_event_or_404(request, slug)
    director = is_director(request.user, event.club)
    rotations = list(_rotations_with_seating().filter(event=event))
    context = {
        "event": event,
        "is_director": director,
        "entrant_count": event.registrations.filter(withdrawn_after_rotation__isnull=True).count(),
        "rotations": _rotation_views(rotations, show_drafts=director),
        "standings_url": f"{event.get_absolute_url()}standings/",
        "live": event.status == Event.Status.RUNNING,
        "refresh_seconds": STANDINGS_REFRESH_SECONDS,
        **_rules_context(event),
    }
    return render(request, "league/public/event.html", context)


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
    return mark_safe(svg.replace("<svg ", '<svg role="img" aria-label="QR code of the entry link" ', 1))


def _requested_rotation(event: Event, number: int | None) -> Rotation | None:
    """Rotation `number` of the event (404 when it has none), else its latest, else None."""
    rotations = _rotations_with_seating().filter(event=event)
    if number is None:
        return rotations.order_by("-number").first()
    return get_object_or_404(rotations, number=number)


def _table_card(request: HttpRequest, table: Table) -> dict:
    view = _table_view(table)
    if view.game is None:
        return {"table": view, "entry_url": None, "qr": None}
    entry_url = request.build_absolute_uri(view.game.entry_url)
    return {"table": view, "entry_url": entry_url, "qr": _qr_svg(entry_url)}


def table_cards(request: HttpRequest, slug: str) -> HttpResponse:
    event = _visible_event_or_404(request, slug)
    if not is_director(request.user, event.club):
        raise PermissionDenied("Only the club's directors may print table cards.")
    raw = request.GET.get("rotation", "").strip()
    if raw and not (raw.isascii() and raw.isdigit()):
        return HttpResponseBadRequest(
            f"rotation must be a rotation number such as 1, not {raw[:20]!r}.",
            content_type="text/plain; charset=utf-8",
        )
    rotation = _requested_rotation(event, int(raw) if raw else None)
    tables = rotation.tables.all() if rotation else []
    context = {
        "event": event,
        "rotation": rotation,
        "cards": [_table_card(request, table) for table in tables],
        "play_url": request.build_absolute_uri("/play/"),
    }
    return render(request, "league/table_cards.html", context)

"""The public site: home, clubs, leagues, seasons, events, and the director's printable table cards.

Every page runs a fixed number of queries whatever the club's size: lists are fetched with
`select_related` / `Prefetch` and the seating plans are built in Python from prefetched rows.
"""

import qrcode
import qrcode.image.svg
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import SafeString, mark_safe

from analytics import selectors as analytics_selectors
from games.engine.errors import EngineError
from games.engine.rules import BookCounts, RuleSet, rules_from_spec
from league import selectors
from league.models import Club, Event, League, Rotation, Season
from league.permissions import check_directs_club, is_director, visible_events

HOME_EVENT_LIMIT = 8
STANDINGS_REFRESH_SECONDS = 5


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
    try:
        rules = rules_from_spec(event.rules_spec)
    except EngineError as error:
        return {"rules_error": error.message, "rules_summary": []}
    return {"rules_error": None, "rules_summary": _rules_summary(rules)}


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
    context = {
        "club": club_obj,
        "leagues": club_obj.leagues.prefetch_related("seasons"),
        "events": visible_events(request.user).filter(club=club_obj).order_by("-date", "name"),
        "players": club_obj.players.all(),
        "is_director": is_director(request.user, club_obj),
    }
    return render(request, "league/public/club.html", context)


def league_detail(request: HttpRequest, club: str, league: str) -> HttpResponse:
    league_obj = get_object_or_404(League.objects.select_related("club"), club__slug=club, slug=league)
    nights = visible_events(request.user).filter(season__league=league_obj).order_by("-date", "name")
    context = {"league": league_obj, "seasons": league_obj.seasons.all(), "nights": nights}
    return render(request, "league/public/league.html", context)


def season_detail(request: HttpRequest, club: str, league: str, season: str) -> HttpResponse:
    season_obj = get_object_or_404(
        Season.objects.select_related("league__club"),
        league__club__slug=club,
        league__slug=league,
        slug=season,
    )
    nights = selectors.with_entrant_counts(
        visible_events(request.user).filter(season=season_obj)
    ).order_by("-date", "name")
    context = {
        "season": season_obj,
        "league": season_obj.league,
        "club": season_obj.league.club,
        "nights": nights,
        "standings": analytics_selectors.season_standings(season_obj),
    }
    return render(request, "league/public/season.html", context)


def _event_or_404(request: HttpRequest, slug: str) -> Event:
    """The event with its seating and registrations; 404 alike for unknown events and for
    events the user may not see, so private events do not reveal that they exist."""
    try:
        return selectors.event_detail(slug=slug, user=request.user)
    except Event.DoesNotExist:
        raise Http404("No such event.") from None


def _rotation_views(event: Event, show_drafts: bool) -> list[dict]:
    views = []
    for rotation in event.rotations.all():
        hidden = rotation.status == Rotation.Status.DRAFT and not show_drafts
        views.append({"plan": selectors.rotation_plan(rotation), "hidden": hidden})
    return views


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event_or_404(request, slug)
    director = is_director(request.user, event.club)
    context = {
        "event": event,
        "is_director": director,
        "entrant_count": selectors.event_entrant_count(event=event),
        "rotations": _rotation_views(event, show_drafts=director),
        "standings": analytics_selectors.event_standings(event),
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
    rotations = {rotation.number: rotation for rotation in event.rotations.all()}
    if number is None:
        return rotations[max(rotations)] if rotations else None
    if number not in rotations:
        raise Http404(f"This event has no rotation {number}.")
    return rotations[number]


def _table_card(request: HttpRequest, table: selectors.TableView) -> dict:
    if table.game is None:
        return {"table": table, "entry_url": None, "qr": None}
    entry_url = request.build_absolute_uri(table.game.entry_url)
    return {"table": table, "entry_url": entry_url, "qr": _qr_svg(entry_url)}


def table_cards(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event_or_404(request, slug)
    check_directs_club(request.user, event.club)
    raw = request.GET.get("rotation", "").strip()
    if raw and not (raw.isascii() and raw.isdigit()):
        return HttpResponseBadRequest(
            f"rotation must be a rotation number such as 1, not {raw[:20]!r}.",
            content_type="text/plain; charset=utf-8",
        )
    rotation = _requested_rotation(event, int(raw) if raw else None)
    plan = selectors.rotation_plan(rotation) if rotation else None
    context = {
        "event": event,
        "rotation": rotation,
        "cards": [_table_card(request, table) for table in plan.tables] if plan else [],
        "play_url": request.build_absolute_uri("/play/"),
    }
    return render(request, "league/table_cards.html", context)

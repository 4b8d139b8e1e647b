"""Calendar feeds (text/calendar): a club's public nights, a league's, and a player's own."""

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from league.models import Club, Event, League, Player
from league.views.public import event_or_404
from notifications import calendars
from web.throttling import page_lookup_throttled

MAX_TOKEN = 64


def _ics(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "max-age=300"
    return response


@require_safe
def club_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    events = calendars.feed_events(events=Event.objects.filter(club=club, is_public=True))
    return _ics(
        calendars.nights_calendar(name=f"{club.name}: Hand and Foot nights", events=events),
        f"{club.slug}.ics",
    )


@require_safe
def event_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """One night, for "Add to my calendar" on its page (private nights for whom may see them)."""
    event = event_or_404(request, slug)
    return _ics(calendars.nights_calendar(name=event.name, events=[event]), f"{event.slug}.ics")


@require_safe
def league_calendar(request: HttpRequest, club: str, league: str) -> HttpResponse:
    found = get_object_or_404(League.objects.select_related("club"), club__slug=club, slug=league)
    events = calendars.feed_events(
        events=Event.objects.filter(season__league=found, is_public=True)
    )
    return _ics(
        calendars.nights_calendar(name=f"{found.club.name}, {found.name}", events=events),
        f"{found.club.slug}-{found.slug}.ics",
    )


@require_safe
@page_lookup_throttled
def player_calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The player's own feed: the secret address is the credential (calendar programs do not
    sign in); the player's club's public nights and the private ones the player is entered in."""
    player = (
        Player.objects.filter(calendar_token=token).select_related("club").first()
        if 20 <= len(token) <= MAX_TOKEN
        else None
    )
    if player is None:
        raise Http404("No such calendar")
    mine = (
        Q(registrations__player=player)
        | Q(registrations__partnership__player_a=player)
        | Q(registrations__partnership__player_b=player)
    )
    events = calendars.feed_events(
        events=Event.objects.filter(Q(club=player.club, is_public=True) | mine).distinct()
    )
    return _ics(calendars.player_calendar(player=player, events=events), "my-nights.ics")

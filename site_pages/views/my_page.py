"""A signed-in player's own page, phone first: tonight's tables as soon as they are seated (with
partner, opponents and the side's own entry link), results as they are confirmed, the nights
ahead with coming / not coming / maybe, the calendar, how the name shows, the data download and
deleting the account."""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from analytics import selectors as analytics_selectors
from core.errors import DomainError
from core.figures import figure, figures_words
from games.models import RoundResult
from league.models import Attendance, Event, Player, Rotation, Seat, SideCredential
from league.permissions import signed_in
from league.services.attendance import attendance_answer
from league.services.privacy import (
    account_data,
    account_delete,
    player_calendar_renew,
    player_privacy_update,
)
from league.templatetags.substitutes import full_seat_label
from league.time_zones import club_today
from notifications.models import Contact
from notifications.services.contacts import contact_update
from site_pages.views.seat_calls import my_seat_calls_context

UPCOMING_DAYS = 60


@dataclass
class MySeat:
    rotation: int
    table: int
    seat: int
    side: int
    partners: list[str]
    opponents: list[str]
    entry_url: str
    result: str
    note: str = ""  # "played by Sam for Ann": a substitute's seat (the player's, or for them)


@dataclass
class MyClub:
    player: Player
    tonight: list[tuple[Event, list[MySeat]]] = field(default_factory=list)
    upcoming: list[tuple[Event, str]] = field(default_factory=list)
    contact: Contact | None = None
    season: str = ""  # my line in the current season's standings, in words


def _seats(player: Player, event: Event) -> list[MySeat]:
    mine = list(
        Seat.objects.filter(Q(player=player) | Q(substitute_for=player), rotation__event=event)
        .exclude(rotation__status=Rotation.Status.DRAFT)
        .select_related("rotation", "table", "player", "substitute_for")
        .order_by("rotation__number")
    )
    tables = [s.table_id for s in mine]
    everyone = (
        Seat.objects.filter(table_id__in=tables)
        .exclude(pk__in=[s.pk for s in mine])
        .select_related("player", "substitute_for")
        .order_by("seat_number")
    )
    tokens = {
        (c.game.table_id, c.side): c.token
        for c in SideCredential.objects.filter(game__table_id__in=tables).select_related("game")
    }
    totals = {
        (game_table, side): total
        for game_table, side, total in RoundResult.objects.filter(game__table_id__in=tables)
        .values_list("game__table_id", "side")
        .annotate(total=Sum("score"))
        .order_by()
    }
    found = []
    for seat in mine:
        others = [s for s in everyone if s.table_id == seat.table_id]
        token = tokens.get((seat.table_id, seat.side))
        ours, theirs = (
            totals.get((seat.table_id, seat.side)),
            [
                t
                for (table, side), t in totals.items()
                if table == seat.table_id and side != seat.side
            ],
        )
        result = f"{figure(ours)} to {figures_words(theirs)}" if ours is not None else ""
        found.append(
            MySeat(
                rotation=seat.rotation.number,
                table=seat.table.number,
                seat=seat.seat_number + 1,
                side=seat.side + 1,
                partners=[full_seat_label(s) for s in others if s.side == seat.side],
                opponents=[full_seat_label(s) for s in others if s.side != seat.side],
                entry_url=reverse("play-game", args=[token]) if token else "",
                result=result,
                note=full_seat_label(seat) if seat.substitute_for_id else "",
            )
        )
    return found


def _my_clubs(user: User) -> list[MyClub]:
    clubs = []
    for player in Player.objects.filter(user=user).select_related("club", "contact"):
        today = club_today(player.club)  # "tonight" is the club's, wherever the site runs
        mine = MyClub(player=player, contact=getattr(player, "contact", None))
        entered = Q(registrations__player=player) | Q(rotations__seats__player=player)
        for event in Event.objects.filter(entered, club=player.club, date=today).distinct():
            mine.tonight.append((event, _seats(player, event)))
        answers = dict(
            Attendance.objects.filter(player=player, event__date__gte=today).values_list(
                "event_id", "answer"
            )
        )
        for event in (
            Event.objects.filter(
                club=player.club,
                date__gte=today,
                date__lte=today + timedelta(days=UPCOMING_DAYS),
                cancelled_at__isnull=True,
            )
            .exclude(status=Event.Status.FINISHED)
            .order_by("date", "pk")[:10]
        ):
            mine.upcoming.append((event, answers.get(event.pk, "")))
        mine.season = _season_line(player)
        clubs.append(mine)
    return clubs


def _season_line(player: Player) -> str:
    """"Tuesday League Season 1: 3rd of 12, 2 nights, 8,450 points" from the stored standings
    of the player's latest season (a read of one snapshot, whatever the history)."""
    latest = (Event.objects.filter(club=player.club, season__isnull=False)
              .select_related("season__league").order_by("-date", "-pk").first())
    if latest is None or latest.season is None:
        return ""
    snapshot = analytics_selectors.season_standings(season=latest.season)
    if snapshot is None:
        return ""
    key = f"p{player.pk}"
    rows = snapshot.rows
    mine = next((r for r in rows if r.get("key") == key or player.pk in (r.get("players") or [])),
                None)
    if mine is None:
        return ""
    nights = mine.get("nights", 0)
    came = f"{nights} night{'s' if nights != 1 else ''}"
    points = f"{mine.get('total_points', 0):,} points"
    if mine.get("rank") is None:  # below the season's minimum attendance: listed, no place yet
        needed = latest.season.min_attendance
        return (f"{latest.season}: no place yet: you have played {came} of the {needed} a place "
                f"needs ({len(rows)} players in the table), {points}")
    return f"{latest.season}: {mine['rank']} of {len(rows)}, {came}, {points}"


@require_safe
@login_required
def my_page(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "site_pages/my_page.html",
        {
            "clubs": _my_clubs(signed_in(request.user)),
            "answers": Attendance.Answer.choices,
            "name_choices": Player.NameShown.choices,
            **my_seat_calls_context(request),
        },
    )


def _my_player(request: HttpRequest, player_id: int) -> Player:
    return get_object_or_404(Player.objects.select_related("club"), pk=player_id, user=request.user)


def _attempt[T](request: HttpRequest, service: Callable[..., T], done: Callable[[T], str],
                **kwargs: Any) -> HttpResponse:
    """Run one of the page's writes: what it did, or why it was refused, said on the page."""
    try:
        messages.success(request, done(service(**kwargs)))
    except DomainError as refused:
        messages.error(request, refused.message)
    return redirect("my-page")


@require_POST
@login_required
def my_answer(request: HttpRequest, player_id: int, event_id: int) -> HttpResponse:
    player = _my_player(request, player_id)
    event = get_object_or_404(Event, pk=event_id, club=player.club)
    return _attempt(request, attendance_answer,
                    lambda attendance: f"{event.name}: {attendance.get_answer_display().lower()}.",
                    event=event, player=player, answer=request.POST.get("answer", "")[:8])


@require_POST
@login_required
def my_privacy(request: HttpRequest, player_id: int) -> HttpResponse:
    return _attempt(request, player_privacy_update,
                    lambda player: f"Public pages now show you as “{player.shown_name}”.",
                    player=_my_player(request, player_id), user=signed_in(request.user),
                    name_shown=request.POST.get("name_shown", "")[:8],
                    stats_public=request.POST.get("stats_public") == "yes")


@require_POST
@login_required
def my_mail(request: HttpRequest, player_id: int) -> HttpResponse:
    return _attempt(request, contact_update,
                    lambda contact: f"Mail goes to {contact.email}." if contact
                    else "No mail will be sent to you.",
                    player=_my_player(request, player_id), user=signed_in(request.user),
                    email=request.POST.get("email", "")[:254],
                    reminders="reminders" in request.POST, results="results" in request.POST,
                    nights="nights" in request.POST, seat_calls="seat_calls" in request.POST)


@require_POST
@login_required
def my_calendar(request: HttpRequest, player_id: int) -> HttpResponse:
    """Make (or make anew, which turns the old address off) the player's secret calendar address."""
    return _attempt(request, player_calendar_renew,
                    lambda _: "Your calendar address is ready: add it to your calendar program.",
                    player=_my_player(request, player_id))


@require_safe
@login_required
def my_data(request: HttpRequest) -> HttpResponse:
    data = account_data(user=signed_in(request.user))
    data["contact"] = [
        {
            "club": c.player.club.name,
            "email": c.email,
            "reminders": c.reminders,
            "results": c.results,
            "nights": c.nights,
            "seat_calls": c.seat_calls,
        }
        for c in Contact.objects.filter(player__user=signed_in(request.user)).select_related("player__club")
    ]
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = 'attachment; filename="my-hand-and-foot-data.json"'
    return response


@require_POST
@login_required
def my_account_delete(request: HttpRequest) -> HttpResponse:
    if request.POST.get("confirm") != "delete":
        messages.error(request, "Tick the box to confirm: deleting the account cannot be undone.")
        return redirect("my-page")
    user = signed_in(request.user)
    logout(request)
    account_delete(user=user)
    return render(request, "site_pages/account_deleted.html")

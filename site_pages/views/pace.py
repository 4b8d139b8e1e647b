"""The room's pace on the director's event page (issue 47): the rotation being played, its
tables ordered by how late they run (`league.pace.lateness`) with their clocks, a one-tap
"Give 5 more minutes" per table, and when the night will end (`night_forecast`).

The event page includes `league/director/_pace.html` empty; htmx loads it from here and
refreshes it every 20 seconds. Without JavaScript the same panel is a page of its own, and a
grant goes back to it. Only the event's directors see or post (404 for an event they may not
see, else 403)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from games.selectors.round_times import event_round_times
from games.services.table_clocks import EXTRA_MINUTES, table_extra_time_grant
from league.models import Event, Rotation, Table
from league.pace.lateness import rotation_lateness
from league.views.common import attempt, directed_event, form_valid
from site_pages.views.night_forecast import forecast_context

PACE_REFRESH_SECONDS = 20
ONE_TAP_MINUTES = 5
MINUTE_CHOICES = (1, 2, 3, 5, 10, 15, 20, 30, 45, 60)  # within EXTRA_MINUTES


class ExtraTimeForm(forms.Form):
    rotation = forms.IntegerField(min_value=1, max_value=60)
    table = forms.IntegerField(min_value=1, max_value=500)
    minutes = forms.IntegerField(min_value=EXTRA_MINUTES[0], max_value=EXTRA_MINUTES[1])


def _playing(event: Event) -> Rotation | None:
    return event.rotations.filter(status=Rotation.Status.STARTED).order_by("-number").first()


def pace_context(*, event: Event) -> dict[str, Any]:
    """What `_pace.html` shows: the rotation being played, its tables the latest first, and
    the night's forecast (a few queries; the night's rounds, never the club's whole history)."""
    rotation = _playing(event)
    tables = (rotation_lateness(event_round_times(event=event), rotation_number=rotation.number,
                                round_minutes=event.round_minutes, now=timezone.now())
              if rotation is not None else [])
    return {
        "event": event,
        "pace": {"rotation": rotation, "tables": tables, "slow": sum(t.slow for t in tables),
                 "one_tap": ONE_TAP_MINUTES, "choices": MINUTE_CHOICES,
                 "refresh_seconds": PACE_REFRESH_SECONDS},
        **forecast_context(event=event),
    }


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _panel(request: HttpRequest, event: Event) -> HttpResponse:
    template = "league/director/_pace.html" if _is_htmx(request) else "site_pages/pace.html"
    return render(request, template, pace_context(event=event))


@login_required
@require_safe
def event_pace(request: HttpRequest, slug: str) -> HttpResponse:
    """The pace panel (htmx) or, without JavaScript, the page around it."""
    return _panel(request, directed_event(request, slug))


@login_required
@require_POST
def event_pace_extra_time(request: HttpRequest, slug: str) -> HttpResponse:
    """Give one table of the rotation being played more minutes for its current round."""
    event = directed_event(request, slug)
    form = ExtraTimeForm(request.POST)
    if form_valid(request, form, "Choose a table and from 1 to 60 more minutes."):
        data = form.cleaned_data
        table = get_object_or_404(Table, rotation__event=event, rotation__number=data["rotation"],
                                  number=data["table"])
        minutes = data["minutes"]
        attempt(request, f"Gave table {table.number} {minutes} more minute{'s' if minutes != 1 else ''}.",
                table_extra_time_grant, table=table, minutes=minutes, by=request.user)
    if _is_htmx(request):
        return _panel(request, event)
    return redirect(reverse("director-event-pace", args=[event.slug]))

"""Who is coming to a night, for its directors: the answers and the expected count, and everyone
who said yes entered in one step at the door."""

from typing import cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from core.errors import DomainError
from league.models import Attendance, Registration
from league.permissions import check_directs_event
from league.services.attendance import attendance_register_coming
from league.views.public import event_or_404


@require_http_methods(["GET", "HEAD", "POST"])
def event_coming(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_or_404(request, slug)
    check_directs_event(request.user, event)
    if request.method == "POST":
        try:
            added = attendance_register_coming(event=event, by=cast(User, request.user))
            messages.success(
                request,
                f"Entered {len(added)} player{'s' if len(added) != 1 else ''}"
                f"{': ' + ', '.join(p.name for p in added) if added else ''}.",
            )
        except DomainError as refused:
            messages.error(request, refused.message)
        return redirect("director-event-coming", slug=event.slug)
    answers = (
        Attendance.objects.filter(event=event).select_related("player").order_by("player__name")
    )
    entered_ids = set(
        Registration.objects.filter(event=event, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    groups = [
        (label, [a for a in answers if a.answer == value])
        for value, label in Attendance.Answer.choices
    ]
    coming = [a for a in answers if a.answer == Attendance.Answer.YES]
    return render(
        request,
        "league/director/coming.html",
        {
            "event": event,
            "groups": groups,
            "entered": entered_ids,
            "expected": len(coming),
            "to_enter": [a for a in coming if a.player_id not in entered_ids],
        },
    )

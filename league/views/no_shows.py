"""The director's no-shows on the event page (issue 47): "No-show" beside a seated player of a
draft or started rotation, and the draft's fix "Seat again without ...". Thin: the services in
`league.services.no_shows` decide and say why they refuse."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from league.services.no_shows import no_show_mark, no_show_seat_again
from league.views.common import attempt, directed_event
from league.views.director import _rotation
from league.views.room import _event_url


@login_required
@require_POST
def no_show(request: HttpRequest, slug: str, number: int, player_id: int) -> HttpResponse:
    event = directed_event(request, slug)
    rotation = _rotation(event, number)
    entry = attempt(request, "", no_show_mark, rotation=rotation, player_id=player_id, by=request.user)
    if entry is not None:
        messages.success(request, entry.summary)
    return redirect(_event_url(event, f"rotation-{number}"))


@login_required
@require_POST
def no_show_seat_again_view(request: HttpRequest, slug: str, number: int, player_id: int) -> HttpResponse:
    event = directed_event(request, slug)
    rotation = _rotation(event, number)
    attempt(request, f"Rotation {number} is seated again as a draft: check it, then start it.",
            no_show_seat_again, rotation=rotation, player_id=player_id, by=request.user)
    return redirect(_event_url(event, f"rotation-{number}"))

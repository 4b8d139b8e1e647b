"""Seat calls: where each player goes when a rotation is seated (issue 47), on the wall and on
each player's own page (`/me/`), which polls its fragment every second (static/js/live-refresh.js
with If-None-Match: unchanged, the answer is an empty 304). The words come from
`league.seat_calls`."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.views.decorators.http import require_safe

from league.models import Event
from league.permissions import signed_in
from league.seat_calls import latest_started_rotation, player_seat_calls, seated_rotation_calls
from site_pages.views.rotation_pieces import club_names, rotations_seated

SEAT_CALL_REFRESH_SECONDS = 1


def wall_seat_calls_context(*, event: Event, version_rows: list[tuple]) -> dict[str, Any]:
    """What `site_pages/_wall_seat_calls.html` shows for this event ({} shows nothing): the
    rotation being played, everyone in name order with their table and seat, until their
    table's result is in (the projector's room goes back to the scores and standings). Read
    from the seating the wall keeps (`rotation_pieces.rotations_seated`, under the event's
    `version_rows`): a result drawn on the wall reads the games again, never the seats."""
    rotation = latest_started_rotation(event=event)
    if rotation is None:
        return {}
    rows = {rotation.pk: [row for row in version_rows if row[1] == rotation.pk]}
    seated = rotations_seated([rotation], rows, club_names(event))
    calls = seated_rotation_calls(rotation=seated[0]) if seated else []
    if not calls:
        return {}
    return {"seat_calls": {"rotation": rotation.number, "calls": calls}}


def my_seat_calls_context(request: HttpRequest) -> dict[str, Any]:
    """What `site_pages/_my_seat_calls.html` shows the signed-in person (their page's first
    paint and its polled fragment alike)."""
    return {"seat_call_nights": player_seat_calls(user=signed_in(request.user)),
            "seat_call_seconds": SEAT_CALL_REFRESH_SECONDS}


@require_safe
@login_required
def my_seat_calls(request: HttpRequest) -> HttpResponse:
    """The seat-call fragment of `/me/`: a 304 while it says the same (a few small queries,
    whatever the club's history)."""
    html = render_to_string("site_pages/_my_seat_calls.html", my_seat_calls_context(request), request)
    etag = '"' + hashlib.blake2b(html.encode(), digest_size=12).hexdigest() + '"'
    response: HttpResponse
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(html)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response

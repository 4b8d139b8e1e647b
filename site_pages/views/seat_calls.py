"""Seat calls: where each player goes when a rotation is seated (issue 47), on the wall and on
each player's own page. To be filled in."""

from __future__ import annotations

from typing import Any

from league.models import Event


def wall_seat_calls_context(*, event: Event) -> dict[str, Any]:
    """What `site_pages/_wall_seat_calls.html` shows for this event ({} shows nothing)."""
    return {}

"""When the night will end: the forecast the director's room view and the wall show (issue 47).
To be filled in: `league.pace.forecast` from the night's and the club's past rounds."""

from __future__ import annotations

from typing import Any

from league.models import Event


def forecast_context(*, event: Event) -> dict[str, Any]:
    """What `site_pages/_forecast.html` shows for this event ({} shows nothing)."""
    return {}

"""When the night will end: the forecast the director's room view and the wall show (issue 47),
in words and in the club's time zone: "Last table about 22:35, between 22:20 and 22:50." and,
for each table still playing, "Table 4 about 21:50". The forecast is `league.pace.forecast`'s,
from tonight's rounds and the club's last nights (`games.selectors.round_times`, bounded); the
wall draws it once per version of the event, so it moves as rounds are entered."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from games.selectors.round_times import club_past_round_times, event_round_times
from league.models import Event
from league.pace.forecast import Estimate, NightForecast, TableForecast, night_forecast
from league.time_zones import club_zone


def _clock(moment: datetime, zone: ZoneInfo) -> str:
    return timezone.localtime(moment, zone).strftime("%H:%M")


def _about(estimate: Estimate, zone: ZoneInfo) -> str:
    """"about 22:35, between 22:20 and 22:50" (the range left out when it is one minute)."""
    about, earliest, latest = (_clock(m, zone) for m in
                               (estimate.about, estimate.earliest, estimate.latest))
    return f"about {about}" if earliest == latest else (
        f"about {about}, between {earliest} and {latest}")


def _table_words(table: TableForecast, zone: ZoneInfo, *, rotations: bool) -> str:
    where = (f"Rotation {table.rotation_number}, table {table.table_number}" if rotations
             else f"Table {table.table_number}")
    return f"{where} about {_clock(table.finish.about, zone)}"


def _words(forecast: NightForecast, zone: ZoneInfo) -> dict[str, Any]:
    playing = [t for t in forecast.tables if not t.finished]
    rotations = len({t.rotation_number for t in playing}) > 1
    left = forecast.rotations_left
    return {
        "room": f"Last table {_about(forecast.room, zone)}.",
        "tables": [_table_words(t, zone, rotations=rotations) for t in playing],
        "counting": (f"Counting {left} more rotation{'s' if left != 1 else ''} after "
                     f"{'these' if rotations else 'this one'}." if left else
                     "No more rotations planned after this one."),
    }


def forecast_context(*, event: Event) -> dict[str, Any]:
    """What `site_pages/_forecast.html` shows for this event ({} shows nothing: no rotation
    started yet, or the night is over)."""
    if event.status == Event.Status.FINISHED:
        return {}
    tonight = event_round_times(event=event)
    if not tonight:
        return {}
    seated = len({t.rotation_number for t in tonight})
    forecast = night_forecast(
        tonight=tonight, past=club_past_round_times(club=event.club, before=event),
        rotations_left=max(event.planned_rotations - seated, 0), now=timezone.now(),
        seed=event.seed)
    if forecast is None:
        return {}
    return {"forecast": _words(forecast, club_zone(event.club))}

"""A club's own time zone (`Club.time_zone`): every time a person of the club types or reads
is in it. A night is kept as the club's own date and wall-clock time (`Event.date`,
`Event.starts_at`), so what the director typed is what the pages show; the moment it starts
(for calendars and reminders) is that wall-clock time in the club's zone, whichever date the
daylight-saving change falls on. The site's `TIME_ZONE` is only the zone a new club starts with.

Pages of a club read its moments (a history line, a mail sent, standings computed) in its zone:
the views that find the club of the page call `club_zone_activate`; the middleware
`config.time_zone.TimeZoneResetMiddleware` puts the site's zone back for the next request."""

from __future__ import annotations

import functools
from datetime import date, datetime, time
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone

if TYPE_CHECKING:
    from league.models import Club, Event


@functools.cache
def time_zone_names() -> tuple[str, ...]:
    """Every zone a club may choose (the IANA names zoneinfo knows), sorted."""
    return tuple(sorted(available_timezones()))


def is_time_zone(name: str) -> bool:
    return name in time_zone_names()


def validate_time_zone(value: str) -> None:
    if not is_time_zone(value):
        raise ValidationError("Choose a time zone from the list, such as Europe/Berlin.",
                              code="time_zone")


def default_time_zone() -> str:
    """The zone a new club starts with: the site's `TIME_ZONE`."""
    return str(settings.TIME_ZONE)


def zone_label(name: str) -> str:
    """A zone in words for a list to choose from: "America/New York"."""
    return name.replace("_", " ")


def zone_words(name: str) -> str:
    """A zone as a time is said beside it: "New York time", "Berlin time", "UTC"."""
    place = name.rsplit("/", 1)[-1].replace("_", " ")
    return place if place in {"UTC", "GMT"} or "/" not in name else f"{place} time"


def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, zone_label(name)) for name in time_zone_names()]


def club_zone(club: Club) -> ZoneInfo:
    """The club's zone (the site's for a zone this machine does not know, e.g. an older tzdata)."""
    try:
        return ZoneInfo(club.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(default_time_zone())


def club_zone_activate(club: Club) -> None:
    """Read and type times in `club`'s zone for the rest of this request."""
    timezone.activate(club_zone(club))


def club_today(club: Club, *, now: datetime | None = None) -> date:
    """The date it is in the club now."""
    return timezone.localdate(now or timezone.now(), club_zone(club))


def night_start(event: Event, *, default: time | None = None) -> datetime | None:
    """When the night starts, as an aware moment: its date and time in its club's zone (None
    for a night without a time, unless `default` stands in for it). Read on the wall clock: a
    night typed 19:30 starts at 19:30 on its date, summer or winter."""
    start = event.starts_at or default
    if start is None:
        return None
    return datetime.combine(event.date, start, tzinfo=club_zone(event.club))

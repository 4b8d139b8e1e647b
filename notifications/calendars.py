"""iCalendar feeds (the `icalendar` library): a club's nights, a league's, and a player's own
(secret address) with their seats. Each night keeps one UID for ever, so a moved night is updated
in place by the calendar programs (SEQUENCE grows with every change) and a called-off night shows
as cancelled instead of vanishing.

A night starts at its typed time in its club's zone (`league.time_zones.night_start`): DTSTART
carries the zone's name (TZID) and the feed a VTIMEZONE for each zone it uses, with its
daylight-saving rules, so a calendar program shows 19:30 in the club and the same moment
elsewhere, on both sides of a daylight-saving change."""

from datetime import timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from icalendar import Calendar
from icalendar import Event as CalendarEvent

from league.models import Event, Player, Rotation, Seat
from league.time_zones import night_start

DURATION = timedelta(hours=3)
PAST = timedelta(days=400)
MAX_EVENTS = 500
UID_DOMAIN = "hand-and-foot-league"


def event_uid(event: Event) -> str:
    return f"event-{event.pk}@{UID_DOMAIN}"


def _sequence(event: Event) -> int:
    if event.updated_at is None or event.created_at is None:
        return 0
    return max(0, int((event.updated_at - event.created_at).total_seconds()))


def _entry(event: Event, description: str) -> CalendarEvent:
    entry = CalendarEvent()
    entry.add("uid", event_uid(event))
    entry.add("summary", event.name)
    entry.add("dtstamp", event.updated_at or event.created_at)
    entry.add("sequence", _sequence(event))
    if event.updated_at is not None:
        entry.add("last-modified", event.updated_at)
    start = night_start(event)
    if start is None:
        entry.add("dtstart", event.date)  # a whole day: the time is not known yet
    else:
        entry.add("dtstart", start)
        entry.add("dtend", start + DURATION)
    if event.place:
        entry.add("location", event.place)
    entry.add("url", settings.SITE_URL + event.get_absolute_url())
    entry.add("status", "CANCELLED" if event.cancelled_at else "CONFIRMED")
    entry.add("description", description or f"{event.club.name}: {event.get_kind_display()}")
    return entry


def _calendar(name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", "-//Hand and Foot League//Nights//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    calendar.add("method", "PUBLISH")
    return calendar


def _with_zones(calendar: Calendar, events: list[Event]) -> bytes:
    """The feed, with a VTIMEZONE for every TZID its nights name, its daylight-saving changes
    from the first night to the last (not the zone's whole history: a feed stays small)."""
    if events:
        dates = [event.date for event in events]
        calendar.add_missing_timezones(first_date=min(dates) - timedelta(days=1),
                                       last_date=max(dates) + timedelta(days=2))
    return calendar.to_ical()


def nights_calendar(*, name: str, events: list[Event]) -> bytes:
    calendar = _calendar(name)
    for event in events:
        calendar.add_component(_entry(event, ""))
    return _with_zones(calendar, events)


def player_calendar(*, player: Player, events: list[Event]) -> bytes:
    """The player's nights, each with the player's table and seat per rotation once seated."""
    seats: dict[int, list[str]] = {}
    seated = (
        Seat.objects.filter(player=player, table__rotation__event__in=events)
        .exclude(table__rotation__status=Rotation.Status.DRAFT)
        .select_related("table__rotation")
        .order_by("table__rotation__number")
    )
    for seat in seated:
        seats.setdefault(seat.table.rotation.event_id, []).append(
            f"Rotation {seat.table.rotation.number}: table {seat.table.number}, "
            f"seat {seat.seat_number + 1}"
        )
    calendar = _calendar(f"{player.name}: Hand and Foot nights")
    for event in events:
        calendar.add_component(_entry(event, "\n".join(seats.get(event.pk, []))))
    return _with_zones(calendar, events)


def feed_events(*, events: QuerySet[Event]) -> list[Event]:
    """The nights a feed lists: from a season ago on (a feed does not grow with the club's
    history), at most `MAX_EVENTS`."""
    since = timezone.localdate() - PAST
    return list(
        events.filter(date__gte=since).select_related("club").order_by("date", "pk")[:MAX_EVENTS]
    )

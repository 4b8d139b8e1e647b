"""Mail about a night: the reminder before it (when and where, with one-click answers: coming,
not coming, maybe) on the club's schedule, and the night's results and standings once it is
finished. Each goes once per night and player (`mail_send`)."""

from datetime import datetime, time, timedelta
from typing import Any

from django.core import signing
from django.urls import reverse
from django.utils import timezone

from league.models import Attendance, Event, Player
from league.time_zones import night_start as league_night_start
from notifications.models import ClubMail, Contact
from notifications.services.mail import Mail, mail_send, site_url

RSVP_SALT = "notifications.rsvp"
DEFAULT_START = time(19, 0)  # a night without a time is reminded as if it started then
RSVP_DAYS = 60


def night_start(event: Event) -> datetime:
    """When the night starts: its typed date and time in its club's zone (`DEFAULT_START` for
    a night without a time)."""
    start = league_night_start(event, default=DEFAULT_START)
    assert start is not None  # a default is given  # nosec B101
    return start


def rsvp_token(*, event: Event, player: Player, answer: str) -> str:
    return signing.dumps(
        {"e": event.pk, "p": player.pk, "a": answer}, salt=RSVP_SALT, compress=True
    )


def rsvp_read(*, token: str) -> tuple[Event, Player, str] | None:
    """The night, player and answer a reminder's link names (None: not one of ours, or old)."""
    try:
        data = signing.loads(token, salt=RSVP_SALT, max_age=timedelta(days=RSVP_DAYS))
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("a") not in Attendance.Answer.values:
        return None
    event_id, player_id = data.get("e"), data.get("p")
    if not isinstance(event_id, int) or not isinstance(player_id, int):
        return None
    event = Event.objects.filter(pk=event_id).select_related("club").first()
    player = Player.objects.filter(pk=player_id, club_id=event.club_id).first() if event else None
    return (event, player, data["a"]) if event and player else None


def _club_contacts(event: Event, reason: str) -> list[Contact]:
    return [
        c
        for c in Contact.objects.filter(
            player__club=event.club, player__retired_at=None
        ).select_related("player")
        if c.wants(reason)
    ]


def night_reminders_send(*, event: Event) -> int:
    """The reminder of `event` to every player of the club who wants reminders."""
    if event.cancelled_at is not None or event.status == Event.Status.FINISHED:
        return 0
    sent = 0
    for contact in _club_contacts(event, Contact.Reason.REMINDER):
        links = {
            answer: site_url(
                reverse(
                    "rsvp", args=[rsvp_token(event=event, player=contact.player, answer=answer)]
                )
            )
            for answer in Attendance.Answer.values
        }
        sent += _night_mail_send(event, contact, "reminder", {"links": links})
    return sent


def _night_mail_send(event: Event, contact: Contact, reason: str, context: dict[str, Any]) -> int:
    """A mail about the night `event` to `contact`, once (`reason` names its template too):
    `context` adds to the player, the night and the night's page."""
    mail = Mail(
        reason=reason,
        key=f"event:{event.pk}",
        template=reason,
        context={
            "player": contact.player,
            "event": event,
            "event_url": site_url(event.get_absolute_url()),
            **context,
        },
        time_zone=event.club.time_zone,
    )
    return mail_send(mail=mail, email=contact.email, contact=contact)


def due_reminders_send(*, now: datetime | None = None) -> int:
    """Reminders of the nights whose reminder time has come (the beat runs this every quarter
    of an hour); each night's once. A night's reminder goes `reminder_hours` before its start
    on its club's wall clock (`night_start`, in the club's zone): a night at 19:30 reminded a
    day ahead is reminded at 19:30 local the day before, in every club and across a
    daylight-saving change."""
    now = now or timezone.now()
    hours = dict(ClubMail.objects.values_list("club_id", "reminder_hours"))
    sent = 0
    soon = Event.objects.filter(
        date__gte=timezone.localdate(now) - timedelta(days=1),
        date__lte=timezone.localdate(now) + timedelta(days=8),
        cancelled_at__isnull=True,
    ).exclude(status=Event.Status.FINISHED)
    for event in soon.select_related("club"):
        ahead = hours.get(event.club_id, 24)
        start = night_start(event)
        if ahead and start - timedelta(hours=ahead) <= now < start:
            sent += night_reminders_send(event=event)
    return sent


def night_results_send(*, event: Event, rows: list[dict]) -> int:
    """The finished night's results and standings (`rows`, as the standings page shows them)."""
    if event.status != Event.Status.FINISHED:
        return 0
    players = set(Player.objects.filter(registrations__event=event).values_list("pk", flat=True))
    sent = 0
    for contact in _club_contacts(event, Contact.Reason.NIGHT):
        if contact.player_id not in players:
            continue
        sent += _night_mail_send(event, contact, "night", {"rows": rows[:40]})
    return sent


def due_night_results_send() -> int:
    """The results mail of the nights finished in the last few days (the beat runs this with the
    reminders); each night's once, once its standings are computed."""
    from analytics.selectors import event_standings

    recent = Event.objects.filter(
        status=Event.Status.FINISHED, date__gte=timezone.localdate() - timedelta(days=3)
    )
    sent = 0
    for event in recent.select_related("club"):
        snapshot = event_standings(event=event)
        if snapshot is not None:
            sent += night_results_send(event=event, rows=snapshot.rows)
    return sent

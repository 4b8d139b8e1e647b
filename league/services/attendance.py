"""Who is coming to a night (RSVP): a player's answer, and the director registering everyone who
said yes in one step at the door."""

from django.contrib.auth.models import User
from django.db import transaction

from core.errors import Conflict, Invalid
from league.errors import Code, refusal
from league.models import Attendance, Event, Player, Registration
from league.services.registrations import registration_add


def attendance_answer(*, event: Event, player: Player, answer: str) -> Attendance:
    """Record `player`'s answer (yes / no / maybe) for `event`, replacing an earlier one."""
    if answer not in Attendance.Answer.values:
        raise refusal(Invalid, Code.BAD_ANSWER, field='answer')
    if player.club_id != event.club_id:
        raise refusal(Invalid, Code.NOT_THE_CLUBS, event_name=event.name, club_name=player.club.name)
    if event.status == Event.Status.FINISHED or event.cancelled_at is not None:
        raise refusal(Conflict, Code.EVENT_OVER, event_name=event.name)
    attendance, _ = Attendance.objects.update_or_create(
        event=event, player=player, defaults={"answer": answer}
    )
    return attendance


def attendance_register_coming(*, event: Event, by: User | None) -> list[Player]:
    """Enter every player who said they are coming (and is not entered yet); the players entered."""
    if event.is_fixed_partnerships:
        raise refusal(Invalid, Code.FIXED_PARTNERSHIPS)
    entered = set(
        Registration.objects.filter(event=event, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    coming = [
        a.player
        for a in Attendance.objects.filter(event=event, answer=Attendance.Answer.YES)
        .select_related("player")
        .order_by("player__name")
        if a.player_id not in entered
    ]
    with transaction.atomic():
        for player in coming:
            registration_add(event=event, player=player, by=by)
    return coming

"""A club's choices for its mail (`ClubMail`): when reminders go out before a league night.
Written here only, with a line in the club's History; read through `selectors.club_mail_choice`,
which never writes (a page that only shows the choice stores nothing)."""

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from core.errors import Invalid
from league.models import Club
from league.services.audit import audit_record
from notifications.errors import Code, refusal
from notifications.models import ClubMail

MAX_REMINDER_HOURS = 14 * 24


def _words(hours: int) -> str:
    return f"{hours} hours before each night" if hours else "never"


@transaction.atomic
def club_mail_reminders_set(*, club: Club, hours: int, by: User | AnonymousUser | None) -> ClubMail:
    """Set how many hours before a night its reminder goes out (0: no reminders)."""
    if not 0 <= hours <= MAX_REMINDER_HOURS:
        raise refusal(Invalid, Code.BAD_REMINDER_HOURS, field="reminder_hours",
                      most=MAX_REMINDER_HOURS)
    # Two directors saving at once: the row is created once (get_or_create) and locked.
    choice, _ = ClubMail.objects.select_for_update().get_or_create(club=club)
    if choice.reminder_hours != hours:
        before = choice.reminder_hours
        choice.reminder_hours = hours
        choice.save(update_fields=["reminder_hours"])
        audit_record(club=club, user=by, action="club_mail_reminders",
                     summary=f"Reminders: {_words(hours)} (were {_words(before)}).",
                     data={"reminder_hours": hours, "before": before})
    return choice

"""The seat-call mail (issue 47): when a rotation starts, each seated player who asked for it
("Mail me my seat when a rotation starts", off unless chosen) gets where to go, in words, with
the time it started in the club's zone. Once per rotation and place: a rotation started again
after a change of seats mails only the players whose place changed."""

from league.models import Rotation
from league.seat_calls import rotation_seat_calls
from notifications.models import Contact
from notifications.services.mail import Mail, mail_send, site_url


def seat_call_mails_send(*, rotation_id: int) -> int:
    """Mail each opted-in player of the started rotation their seat call; the number sent now."""
    rotation = (Rotation.objects.filter(pk=rotation_id, status=Rotation.Status.STARTED)
                .select_related("event__club").first())
    if rotation is None:
        return 0  # a draft again, or closed, before the job ran: nothing to call
    calls = {c.player_id: c for c in rotation_seat_calls(rotation=rotation)}
    contacts = Contact.objects.filter(player_id__in=calls, seat_calls=True).select_related("player")
    event = rotation.event
    sent = 0
    for contact in contacts.order_by("pk"):
        call = calls[contact.player_id]
        mail = Mail(
            reason=Contact.Reason.SEAT,
            key=f"rotation:{rotation.pk}:{call.table}-{call.seat}",
            template="seat_call",
            context={"player": contact.player, "event": event, "call": call,
                     "started_at": rotation.started_at,
                     "event_url": site_url(event.get_absolute_url())},
            time_zone=event.club.time_zone,
        )
        sent += mail_send(mail=mail, email=contact.email, contact=contact)
    return sent

"""What the notifications do when the results change (connected in `NotificationsConfig.ready()`)."""

from typing import Any


def mail_confirmed_result(sender: object, *, game_id: int | None = None, **kwargs: Any) -> None:
    """A game's confirmed result changed (after commit): its players get it by mail, once per
    confirmed version (the job does nothing for a game without one). The result is stored
    whatever the broker does: with it away the job is kept and sent when it is back."""
    if game_id is None:
        return
    from jobs.services.outbox import task_send
    from notifications.tasks import result_mails_task

    task_send(task=result_mails_task, args=[game_id])


def mail_seat_calls(sender: object, *, rotation_id: int | None = None, **kwargs: Any) -> None:
    """A rotation started (after commit): the players who asked get their seat by mail. The
    start is kept whatever the broker does (`task_send` keeps the job while it is away)."""
    if rotation_id is None:
        return
    from jobs.services.outbox import task_send
    from notifications.tasks import seat_call_mails_task

    task_send(task=seat_call_mails_task, args=[rotation_id])


def forget_contact(sender: object, *, player_id: int, **kwargs: Any) -> None:
    """A person deleted their account: their address and the mail sent to them go."""
    from notifications.models import Contact, SentMail

    SentMail.objects.filter(contact__player_id=player_id).delete()
    Contact.objects.filter(player_id=player_id).delete()

"""A player's own mail choices: the address, and which kinds of mail they want."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from core.errors import Forbidden, Invalid
from league.models import Player
from notifications.errors import Code, refusal
from notifications.models import Contact


def contact_update(
    *, player: Player, user: User, email: str, reminders: bool, results: bool, nights: bool,
    seat_calls: bool = False,
) -> Contact | None:
    """Set the player's address and choices (an empty address removes both: no mail at all)."""
    if player.user_id != user.pk:
        raise refusal(Forbidden, Code.NOT_YOURS)
    email = (email or "").strip()
    if not email:
        Contact.objects.filter(player=player).delete()
        return None
    try:
        validate_email(email)
    except ValidationError:
        raise refusal(Invalid, Code.BAD_EMAIL, field="email") from None
    contact, _ = Contact.objects.update_or_create(
        player=player,
        defaults={
            "email": email,
            "reminders": reminders,
            "results": results,
            "nights": nights,
            "seat_calls": seat_calls,
            "undeliverable_at": None,
            "undeliverable_reason": "",
        },
    )
    return contact

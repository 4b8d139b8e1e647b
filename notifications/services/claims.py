"""Inviting a player to take their profile by mail: the claim link (league.services.claims)
sent to the address the director typed, which is kept as the player's contact address."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.urls import reverse

from core.errors import Invalid
from league.models import Player, PlayerClaim
from league.services.claims import claim_create
from notifications.errors import Code, refusal
from notifications.models import Contact
from notifications.services.mail import Mail, mail_send, site_url


def claim_url(*, claim: PlayerClaim) -> str:
    return site_url(reverse("player-claim", args=[claim.nonce]))


def claim_invite_by_mail(*, player: Player, email: str, by: User | None) -> PlayerClaim:
    """A new claim link for `player`, mailed to `email` (kept as the player's address)."""
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise refusal(Invalid, Code.BAD_EMAIL, field="email") from None
    claim = claim_create(player=player, by=by, email=email)
    contact, _ = Contact.objects.update_or_create(
        player=player,
        defaults={"email": email, "undeliverable_at": None, "undeliverable_reason": ""},
    )
    mail = Mail(
        reason="invitation",
        key=f"claim:{claim.pk}",
        template="invitation",
        context={
            "player": player,
            "club": player.club,
            "claim": claim,
            "claim_url": claim_url(claim=claim),
            "by": by,
        },
    )
    mail_send(mail=mail, email=email, contact=contact)
    return claim

"""Inviting a player to take their profile by mail: the claim link (league.services.claims)
sent to the address the director typed, which is kept as the player's contact address."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from core.errors import Invalid
from jobs.services.outbox import task_send
from league.models import Player, PlayerClaim
from league.services.claims import claim_create
from notifications.errors import Code, refusal
from notifications.models import Contact
from notifications.services.mail import Mail, MailDeferred, mail_send, site_url

RETRY_SECONDS = 60  # the invitation's first retry; the job doubles its wait after that


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
    try:
        _claim_mail_send(claim, contact)
    except MailDeferred:
        # The mail server did not take it now: a job tries again, with a growing wait (the job
        # by its name: notifications.tasks imports this module).
        claim_id = claim.pk
        transaction.on_commit(lambda: task_send(
            task="notifications.claim_mail", args=[claim_id], countdown=RETRY_SECONDS))
    return claim


def _claim_mail_send(claim: PlayerClaim, contact: Contact) -> bool:
    player = claim.player
    mail = Mail(
        reason="invitation",
        key=f"claim:{claim.pk}",
        template="invitation",
        context={
            "player": player,
            "club": player.club,
            "claim": claim,
            "claim_url": claim_url(claim=claim),
            "by": claim.created_by,
        },
    )
    return mail_send(mail=mail, email=contact.email, contact=contact)


def claim_mail_send(*, claim_id: int) -> bool:
    """The invitation of a claim again (the job's retry): nothing when it went already, the claim
    is used or gone, or the player's address changed since (a newer claim was sent there)."""
    claim = (
        PlayerClaim.objects.filter(pk=claim_id, used_at=None, expires_at__gt=timezone.now())
        .select_related("player__club", "created_by")
        .first()
    )
    contact = Contact.objects.filter(player_id=claim.player_id).first() if claim else None
    if claim is None or contact is None or contact.email != claim.email:
        return False
    return _claim_mail_send(claim, contact)

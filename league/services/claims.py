"""Claiming a player profile: a person links their account to the `Player` the club knows.

A director makes a one-time link (`claim_create`: sent by mail, or handed over as a link or QR
code); the person opens it, signs in or makes an account, and the profile is theirs
(`claim_accept`). A person may also ask from the player's page (`claim_request`); a director's
approval links their account (`claim_approve`). Links work once and expire, and say in words why
when they do not. One account is one person in every club it plays in.
"""

import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, Invalid, NotFound
from league.models import Player, PlayerClaim

CLAIM_DAYS = 14
MAX_NONCE = 64


def claim_create(*, player: Player, by: User | None, email: str = "") -> PlayerClaim:
    """A new one-time link for `player` (earlier unused links keep working until they expire)."""
    if player.user_id is not None:
        raise Conflict("PLAYER_CLAIMED", f"{player.name}'s profile belongs to an account already.")
    return PlayerClaim.objects.create(
        player=player,
        email=email,
        nonce=secrets.token_urlsafe(32),
        created_by=by,
        expires_at=timezone.now() + timedelta(days=CLAIM_DAYS),
    )


def claim_find(*, nonce: str) -> PlayerClaim:
    """The claim a link names, or a refusal saying why it cannot be used."""
    claim = (
        PlayerClaim.objects.filter(nonce=nonce).select_related("player__club").first()
        if 20 <= len(nonce) <= MAX_NONCE
        else None
    )
    if claim is None:
        raise NotFound(
            "CLAIM_UNKNOWN",
            "This link is not one of ours: check that it was copied "
            "whole, or ask a director of your club for a new one.",
        )
    if claim.used_at is not None:
        raise Conflict(
            "CLAIM_USED",
            "This link was used already. Sign in with the account it "
            "was used with, or ask a director of your club for a new one.",
        )
    if claim.expires_at <= timezone.now():
        raise Conflict(
            "CLAIM_EXPIRED",
            f"This link expired on {claim.expires_at:%d %B %Y}. Ask a "
            "director of your club for a new one.",
        )
    return claim


def claim_accept(*, nonce: str, user: User) -> Player:
    """Link `user` to the claim's player; the link is used up."""
    with transaction.atomic():
        # Locked: the same link opened twice at once links one account, once.
        claim = claim_find(nonce=nonce)
        claim = (
            PlayerClaim.objects.select_for_update().select_related("player__club").get(pk=claim.pk)
        )
        if claim.used_at is not None:
            raise Conflict("CLAIM_USED", "This link was used already.")
        player = claim.player
        _check_free(player, user)
        player.user = user
        player.save(update_fields=["user"])
        claim.used_at = timezone.now()
        claim.save(update_fields=["used_at"])
    return player


def _check_free(player: Player, user: User) -> None:
    if player.user_id is not None and player.user_id != user.pk:
        raise Conflict("PLAYER_CLAIMED", f"{player.name}'s profile belongs to another account.")
    other = Player.objects.filter(club=player.club, user=user).exclude(pk=player.pk).first()
    if other is not None:
        raise Conflict(
            "ACCOUNT_HAS_PLAYER",
            f"Your account is already {other.name} at "
            f"{player.club.name}. If both are you, ask a director to merge the two.",
        )


def claim_request(*, player: Player, user: User) -> PlayerClaim:
    """`user` asks to be linked to `player`; a director of the club approves it."""
    if not user.is_authenticated:
        raise Invalid("SIGN_IN", "Sign in first: the profile is linked to your account.")
    _check_free(player, user)
    existing = PlayerClaim.objects.filter(
        player=player, requested_by=user, used_at=None, expires_at__gt=timezone.now()
    ).first()
    if existing is not None:
        return existing
    return PlayerClaim.objects.create(
        player=player,
        requested_by=user,
        nonce=secrets.token_urlsafe(32),
        expires_at=timezone.now() + timedelta(days=CLAIM_DAYS),
    )


def claim_approve(*, claim: PlayerClaim, by: User | None) -> Player:
    """A director approves a request: the asking account becomes the player's."""
    if claim.requested_by is None:
        raise Invalid("CLAIM_NOT_REQUESTED", "Only a request from an account can be approved.")
    player = claim_accept(nonce=claim.nonce, user=claim.requested_by)
    PlayerClaim.objects.filter(pk=claim.pk).update(approved_at=timezone.now())
    return player

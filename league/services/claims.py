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
from league.errors import Code, refusal
from league.models import Player, PlayerClaim

CLAIM_DAYS = 14
MAX_NONCE = 64


def claim_create(*, player: Player, by: User | None, email: str = "") -> PlayerClaim:
    """A new one-time link for `player` (earlier unused links keep working until they expire)."""
    if player.user_id is not None:
        raise refusal(Conflict, Code.PLAYER_CLAIMED, player_name=player.name)
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
        raise refusal(NotFound, Code.CLAIM_UNKNOWN)
    _check_usable(claim)
    return claim


def _check_usable(claim: PlayerClaim) -> None:
    """A link is used up once used, once it expired, and once its profile was taken with
    another link since (a superseded link: an older mail, a second QR code)."""
    if claim.used_at is not None:
        raise refusal(Conflict, Code.CLAIM_USED)
    if claim.expires_at <= timezone.now():
        raise refusal(Conflict, Code.CLAIM_EXPIRED, expires_at=claim.expires_at)
    if claim.player.user_id is not None:
        raise refusal(Conflict, Code.PLAYER_CLAIMED, player_name=claim.player.name)


def _locked(claim_pk: int) -> PlayerClaim:
    """The claim and its player, locked (in the caller's transaction) in one order, claim then
    player, and checked again now that no one else can change them."""
    claim = PlayerClaim.objects.select_for_update().select_related("player__club").get(pk=claim_pk)
    claim.player = Player.objects.select_for_update().select_related("club").get(pk=claim.player_id)
    _check_usable(claim)
    return claim


def claim_accept(*, nonce: str, user: User) -> Player:
    """Link `user` to the claim's player; the link is used up."""
    with transaction.atomic():
        # Locked: the same link opened twice at once links one account, once.
        claim = _locked(claim_find(nonce=nonce).pk)
        _check_free(claim.player, user)
        return _take(claim, user)


def claim_accept_new_account(*, nonce: str, username: str, password: str) -> tuple[Player, User]:
    """Make an account (`username`, `password`: checked by the form, all but whether the name
    is taken) and link it to the claim's player, all or nothing: a link that is used, expired or
    superseded makes no account. A taken username is refused in the same words as any other
    username that cannot be used, and only here, once the link is known good (the caller counts
    it as a failed lookup): the form never says which usernames exist."""
    with transaction.atomic():
        # The race: two links of one profile (an older mail and a new one) opened at once, or
        # one link twice. Each locks the claim and then the player before checking, so the
        # second waits for the first to commit, then sees the profile taken (or the link used)
        # and refuses before any account is made. Checking first and creating the account
        # outside this transaction made an account for a link refused a moment later.
        claim = _locked(claim_find(nonce=nonce).pk)
        if User.objects.filter(username__iexact=username).exists():
            raise refusal(Invalid, Code.USERNAME_UNUSABLE)
        user = User.objects.create_user(username=username, password=password)
        return _take(claim, user), user


def _take(claim: PlayerClaim, user: User) -> Player:
    """The locked claim's player becomes `user`'s; the link is used up."""
    player = claim.player
    player.user = user
    player.save(update_fields=["user"])
    claim.used_at = timezone.now()
    claim.save(update_fields=["used_at"])
    return player


def _check_free(player: Player, user: User) -> None:
    if player.user_id is not None and player.user_id != user.pk:
        raise refusal(Conflict, Code.PLAYER_CLAIMED, player_name=player.name)
    other = Player.objects.filter(club=player.club, user=user).exclude(pk=player.pk).first()
    if other is not None:
        raise refusal(Conflict, Code.ACCOUNT_HAS_PLAYER, other_name=other.name, club_name=player.club.name)


def claim_request(*, player: Player, user: User) -> PlayerClaim:
    """`user` asks to be linked to `player`; a director of the club approves it."""
    if not user.is_authenticated:
        raise refusal(Invalid, Code.SIGN_IN)
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
        raise refusal(Invalid, Code.CLAIM_NOT_REQUESTED)
    player = claim_accept(nonce=claim.nonce, user=claim.requested_by)
    PlayerClaim.objects.filter(pk=claim.pk).update(approved_at=timezone.now())
    return player

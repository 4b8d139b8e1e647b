"""A club's players and its fixed partnerships."""

from typing import Any

from django.contrib.auth.models import User

from core.errors import Conflict, Invalid
from league.models import Club, Partnership, Player
from league.services._common import (
    apply_changes,
    require_name,
    require_same_club,
    unique_slug,
)


def player_create(*, club: Club, name: str, user: User | None = None) -> Player:
    name = require_name(name, "player")
    return Player.objects.create(
        club=club, name=name, slug=unique_slug(club.players.all(), name), user=user
    )


def player_update(*, player: Player, name: str | None = None, user: User | None = None) -> Player:
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = require_name(name, "player")
    if user is not None:
        changes["user"] = user
    return apply_changes(player, changes)


def partnership_create(*, club: Club, player_a: Player, player_b: Player, name: str = "") -> Partnership:
    """Two players of the club as one side; stored in canonical order (lower id first)."""
    if player_a.pk == player_b.pk:
        raise Invalid("BAD_PARTNERSHIP", "A partnership needs two different players.")
    require_same_club(club, player_a, player_b, what="player")
    first, second = sorted((player_a, player_b), key=lambda p: p.pk)
    if Partnership.objects.filter(player_a=first, player_b=second).exists():
        raise Conflict("DUPLICATE", f"{first} and {second} are already a partnership.")
    return Partnership.objects.create(club=club, player_a=first, player_b=second, name=name.strip())


def partnership_get_or_create(*, club: Club, player_a: Player, player_b: Player) -> Partnership:
    first, second = sorted((player_a, player_b), key=lambda p: p.pk)
    existing = Partnership.objects.filter(player_a=first, player_b=second).first()
    return existing or partnership_create(club=club, player_a=first, player_b=second)

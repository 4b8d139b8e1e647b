"""Clubs and their directors and scorers."""

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from core.errors import Invalid
from league.errors import Code, refusal
from league.models import Club, Membership
from league.services._common import apply_changes, require_name, unique_slug


@transaction.atomic
def club_create(*, name: str, director: User | None = None, description: str = "") -> Club:
    """A club; the user who creates it becomes its first director."""
    name = require_name(name, "club")
    club = Club.objects.create(
        name=name, slug=unique_slug(Club.objects.all(), name, fallback="club"), description=description
    )
    if director is not None:
        Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    return club


def club_update(*, club: Club, name: str | None = None, description: str | None = None) -> Club:
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = require_name(name, "club")
    if description is not None:
        changes["description"] = description
    return apply_changes(club, changes)


def membership_add(*, club: Club, user: User, role: str) -> Membership:
    if role not in Membership.Role.values:
        raise refusal(Invalid, Code.BAD_ROLE, roles=', '.join(Membership.Role.values))
    membership, _ = Membership.objects.get_or_create(club=club, user=user, role=role)
    return membership

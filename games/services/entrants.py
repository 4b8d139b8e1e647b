"""Who enters or confirms a result: a side at the table (its link, or a seated player) or a
signed-in scorer or director."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from core.errors import Gone, Invalid
from games.models import Submission
from league.models import Event, Game, Seat


@dataclass(frozen=True)
class Entrant:
    """Who enters or confirms: a side at the table, or a signed-in user."""

    key: str
    user: AbstractBaseUser | None = None
    via: str = Submission.Via.ACCOUNT

    @classmethod
    def for_side(cls, game: Game, side: int) -> Entrant:
        return cls(key=f"game:{game.pk}:side:{side}", via=Submission.Via.TABLE_LINK)

    @classmethod
    def for_user(cls, user: AbstractBaseUser, via: str = Submission.Via.ACCOUNT) -> Entrant:
        return cls(key=f"user:{user.pk}", user=user, via=via)


def table_link_check(*, game: Game) -> None:
    """Table links take results only while their event runs."""
    event = game.table.rotation.event
    if event.status != Event.Status.RUNNING:
        raise Gone(
            "EVENT_NOT_RUNNING",
            f"Table links take results only while the event is running; {event.name} is "
            f"{event.get_status_display().lower()}. Ask the director.",
        )


def table_entrant(*, game: Game, side: Any) -> Entrant:
    """A side entering through the table link: only while the event runs, only a real side."""
    table_link_check(game=game)
    sides = sorted(set(Seat.objects.filter(table_id=game.table_id).values_list("side", flat=True)))
    if isinstance(side, bool) or side not in sides:
        raise Invalid(
            "BAD_SIDE", f"Say which side you are: one of {', '.join(map(str, sides))}."
        )
    return Entrant.for_side(game, side)


def seated_side(*, game: Game, user: Any) -> int | None:
    """The side a signed-in player sits on in this game (None if they do not play in it)."""
    if not getattr(user, "is_authenticated", False):
        return None
    seat = Seat.objects.filter(table_id=game.table_id, player__user=user).first()
    return seat.side if seat else None

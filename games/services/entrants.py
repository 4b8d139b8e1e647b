"""Who enters or confirms a result: a side at the table (its own link, or a seated player) or a
signed-in scorer or director. `entrant_for` is the one rule of who may, and as whom, for the
pages and the API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth.models import AbstractBaseUser, User

from core.errors import Forbidden, Gone
from games.errors import Code, refusal
from games.models import Submission
from league.models import Event, Game, Seat
from league.permissions import is_director, is_scorer

if TYPE_CHECKING:
    from games.selectors import TableLink


@dataclass(frozen=True)
class Entrant:
    """Who enters or confirms: a side at the table (its own link, or a signed-in player seated
    on it), or a signed-in scorer or director."""

    key: str
    user: AbstractBaseUser | None = None
    via: str = Submission.Via.ACCOUNT
    side: int | None = None
    director: bool = False

    @property
    def account(self) -> User | None:
        """`user` as the models' foreign keys type it: the project's user model is Django's
        User (AUTH_USER_MODEL is not swapped), so every user an Entrant holds is one."""
        return cast("User | None", self.user)

    @classmethod
    def for_side(cls, game: Game, side: int, user: AbstractBaseUser | None = None) -> Entrant:
        via = Submission.Via.TABLE_LINK if user is None else Submission.Via.ACCOUNT
        return cls(key=f"game:{game.pk}:side:{side}", user=user, via=via, side=side)

    @classmethod
    def for_user(
        cls, user: AbstractBaseUser, via: str = Submission.Via.ACCOUNT, *, director: bool = False
    ) -> Entrant:
        return cls(key=f"user:{user.pk}", user=user, via=via, director=director)


def table_link_check(*, game: Game) -> None:
    """Table links take results only while their event runs."""
    event = game.table.rotation.event
    if event.status != Event.Status.RUNNING:
        raise refusal(
            Gone,
            Code.EVENT_NOT_RUNNING,
            event=event.name,
            status=event.get_status_display().lower(),
        )


def seated_side(*, game: Game, user: Any) -> int | None:
    """The side a signed-in player sits on in this game (None if they do not play in it)."""
    if not getattr(user, "is_authenticated", False):
        return None
    seat = Seat.objects.filter(table_id=game.table_id, player__user=user).first()
    return seat.side if seat else None


def _side_claim_check(side: int, claimed_side: Any) -> None:
    if claimed_side is not None and claimed_side != side:
        shown = claimed_side + 1 if isinstance(claimed_side, int) else claimed_side
        raise refusal(Forbidden, Code.SIDE_MISMATCH, side=side + 1, claimed=shown)


def entrant_for(
    *, game: Game, user: Any, link: TableLink | None = None, claimed_side: Any = None
) -> Entrant | None:
    """The one rule of who may enter and confirm a game's result, and as whom.

    A signed-in director or scorer of the event's club enters as themselves. Otherwise a table
    link enters for its own side only, while the event runs; a signed-in player seated in the game enters for their
    side. A `claimed_side` (the API body's `side`) must be that side. None when none of these
    is asking; a link that cannot enter is refused. Confirming and settling disputes have their
    own limits (`confirmation.confirmer_check`).
    """
    club_id = game.table.rotation.event.club_id
    if is_director(user, club_id):
        return Entrant.for_user(user, director=True)
    if is_scorer(user, club_id):
        return Entrant.for_user(user)
    if link is not None:
        if link.game.pk != game.pk:
            raise refusal(Forbidden, Code.WRONG_TABLE_LINK)
        table_link_check(game=game)
        _side_claim_check(link.side, claimed_side)
        return Entrant.for_side(game, link.side)
    side = seated_side(game=game, user=user)
    if side is None:
        return None
    table_link_check(game=game)
    _side_claim_check(side, claimed_side)
    return Entrant.for_side(game, side, user=user)


def dispute_entrant_for(
    *, game: Game, user: Any, link: TableLink | None = None
) -> Entrant | None:
    """Who disputes a confirmed result: the side of the link (from the result mail), else the
    side a signed-in player sits on; None for anyone else. Unlike entering, the event need not
    run: the window is the result mail's (`disputes.result_dispute` checks it)."""
    if link is not None:
        if link.game.pk != game.pk:
            raise refusal(Forbidden, Code.WRONG_TABLE_LINK)
        return Entrant.for_side(game, link.side)
    side = seated_side(game=game, user=user)
    return None if side is None else Entrant.for_side(game, side, user=user)

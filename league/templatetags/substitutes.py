"""How a seat played by a substitute reads on a page: "played by X for Y".

`{{ player|seat_label:table }}` (a player of a `league.selectors.TableView`) and
`{{ seat|seat_label }}` (a `SeatView`) give the name as shown in public, or "played by <the
substitute> for <the absent member>"; `full_seat_label` gives the full names (director pages).
"""

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from django import template

from league.models import Player
from league.names import played_by

register = template.Library()


def _member(subject: Any, table: Any) -> tuple[Player, Player | None]:
    if isinstance(subject, Player):
        playing_for = getattr(table, "playing_for", None) or {}
        return subject, playing_for.get(subject.pk)
    # A SeatView names the member `playing_for`; a Seat row `substitute_for`.
    member = getattr(subject, "playing_for", None)
    if member is None and getattr(subject, "substitute_for_id", None):
        member = subject.substitute_for
    return subject.player, member


@register.filter
def seat_label(subject: Any, table: Any = None) -> str:
    return _label(subject, table, attrgetter("shown_name"))


@register.filter
def full_seat_label(subject: Any, table: Any = None) -> str:
    return _label(subject, table, attrgetter("name"))


def _label(subject: Any, table: Any, name: Callable[[Player], str]) -> str:
    """The seat's player by `name`, and the member they play for when they substitute."""
    player, member = _member(subject, table)
    if member is None:
        return name(player)
    return played_by(name(player), name(member))


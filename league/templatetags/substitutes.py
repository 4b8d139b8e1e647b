"""How a seat played by a substitute reads on a page: "played by X for Y".

`{{ player|seat_label:table }}` (a player of a `league.selectors.TableView`) and
`{{ seat|seat_label }}` (a `SeatView`) give the name as shown in public, or "played by <the
substitute> for <the absent member>"; `full_seat_label` gives the full names (director pages).
"""

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
    player, member = _member(subject, table)
    if member is None:
        return player.shown_name
    return played_by(player.shown_name, member.shown_name)


@register.filter
def full_seat_label(subject: Any, table: Any = None) -> str:
    player, member = _member(subject, table)
    if member is None:
        return player.name
    return played_by(player.name, member.name)


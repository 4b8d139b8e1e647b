"""The director's event page's no-shows: `{% event_no_shows event as no_shows %}` once, then
`{% with marked=no_shows|of_rotation:rotation.pk %}` per rotation (its `OpenNoShow`s) and
`{% if seat.player.pk|in_no_shows:marked %}` per seat."""

from typing import Any

from django import template

from league.models import Event
from league.seat_calls import OpenNoShow, event_open_no_shows

register = template.Library()


@register.simple_tag
def event_no_shows(event: Event) -> dict[int, list[OpenNoShow]]:
    return event_open_no_shows(event=event)


@register.filter
def of_rotation(no_shows: dict[int, list[OpenNoShow]], rotation_id: int) -> list[OpenNoShow]:
    return no_shows.get(rotation_id, []) if no_shows else []


@register.filter
def in_no_shows(player_id: Any, marked: list[OpenNoShow]) -> bool:
    return any(m.player_id == player_id for m in marked or [])

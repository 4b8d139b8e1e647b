"""The rows of an event's standings table, drawn once per standings snapshot.

At a night of 400 players the rows were most of the cost of the event page, the standings page
and their fragment (about 60 ms of Django template per drawing), and each of them is drawn
again for every new version of the event, while the rows change only with a new snapshot.
Standings that are not a stored snapshot (the season what-if's) are drawn every time."""

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from analytics.models import StandingsSnapshot
from analytics.views.page_cache import kept_piece, page_key
from league.models import Event

register = template.Library()
ROWS_TEMPLATE = "analytics/_event_standings_rows.html"


@register.simple_tag
def standings_rows(standings: object, event: Event) -> SafeString:
    context = {"standings": standings, "event": event}

    def draw() -> str:
        return render_to_string(ROWS_TEMPLATE, context)

    if not isinstance(standings, StandingsSnapshot) or standings.pk is None:
        return SafeString(draw())  # nosec B703, B308  (an autoescaping template)
    key = page_key("standings-rows", standings.pk, standings.computed_at, event.scoring,
                   event.sit_out_scoring)
    return kept_piece(key, draw)

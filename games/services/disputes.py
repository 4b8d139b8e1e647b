"""A player disputes a confirmed result: the result mail promises its dispute link until the
confirmation + settings.MAIL_DISPUTE_HOURS, so a side (its table link, or a seated player) may
say what is wrong until then, even after the night has ended. The dispute changes no figures:
it is a line of the event's History and a line on the director's results page, who corrects
the result (`correction.result_correct`) or leaves it."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, Forbidden, Gone, Invalid
from games import selectors
from games.errors import Code, refusal
from games.services.entrants import Entrant
from games.services.history import dispute_record
from league.models import AuditEntry, Game

REASON_MAX = 500


def result_dispute(
    *, game: Game, entrant: Entrant, reason: str, now: datetime | None = None
) -> AuditEntry:
    """Record that `entrant` (a side of the game) disputes its confirmed result, saying why.

    Refused when the result is not confirmed (the side enters its own figures instead), when
    the window the result mail promised has closed, or without a reason."""
    if entrant.side is None:
        raise refusal(Forbidden, Code.NOT_AN_ENTRANT)
    reason = " ".join(reason.split())[:REASON_MAX]
    if not reason:
        raise refusal(Invalid, Code.DISPUTE_REASON_REQUIRED)
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        version = selectors.game_current_version(game=locked)
        if locked.status != Game.Status.CONFIRMED or version is None:
            raise refusal(Conflict, Code.NOT_CONFIRMED)
        if not selectors.dispute_open(version=version, now=now or timezone.now()):
            until = selectors.dispute_open_until(version=version)
            shown = timezone.localtime(until).strftime("%-d %B %Y, %H:%M") if until else ""
            raise refusal(Gone, Code.DISPUTE_CLOSED, until=shown)
        return dispute_record(game=game, version=version, entrant=entrant, reason=reason)

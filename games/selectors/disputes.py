"""A player disputes a confirmed result (`games.services.disputes`): until when, and the
disputes so far."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.models import ResultVersion
from games.selectors.results import event_games
from league.models import AuditEntry, Event, Game

DISPUTE_ACTION = "result_dispute"


def dispute_open_until(*, version: ResultVersion | None) -> datetime | None:
    """Until when the players may dispute this confirmed version: the result mail's promise
    (confirmation + settings.MAIL_DISPUTE_HOURS), whether or not the night still runs. None for
    no confirmed version."""
    if version is None or version.confirmed_at is None:
        return None
    return version.confirmed_at + timedelta(hours=settings.MAIL_DISPUTE_HOURS)


def dispute_open(*, version: ResultVersion | None, now: datetime | None = None) -> bool:
    """Whether a player may still dispute this confirmed version."""
    until = dispute_open_until(version=version)
    return until is not None and (now or timezone.now()) < until


def game_disputes(*, game: Game, version: ResultVersion | None = None) -> list[AuditEntry]:
    """The players' disputes of the game's confirmed result (`version`: of that version only),
    oldest first."""
    entries = AuditEntry.objects.filter(
        event_id=game.table.rotation.event_id, action=DISPUTE_ACTION, data__game_id=game.pk
    ).order_by("created_at", "pk")
    if version is not None:
        entries = entries.filter(data__version=version.number)
    return list(entries)


def event_open_disputes(*, event: Event) -> list[dict[str, Any]]:
    """The director's list: each player's dispute of a confirmed result that still counts (no
    correction since), oldest first, with its game and words."""
    entries = list(
        AuditEntry.objects.filter(event=event, action=DISPUTE_ACTION)
        .select_related("user")
        .order_by("created_at", "pk")
    )
    games = {
        g.pk: g
        for g in event_games(event=event).filter(
            pk__in=[e.data.get("game_id") for e in entries]
        )
    }
    current = {
        v.game_id: v.number
        for v in ResultVersion.objects.filter(
            game_id__in=games, status=ResultVersion.Status.CONFIRMED
        )
    }
    rows = []
    for entry in entries:
        game = games.get(entry.data.get("game_id"))
        if game is None or current.get(game.pk) != entry.data.get("version"):
            continue  # corrected (or withdrawn) since: the director has answered it
        who = str(entry.data.get("who", "")).removesuffix(", by its table link")
        if not who and entry.user is not None:
            who = entry.user.get_full_name() or entry.user.get_username()
        rows.append({"game": game, "entry": entry, "who": who or "A player",
                     "reason": entry.data.get("reason", "")})
    return rows

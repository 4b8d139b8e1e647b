"""Reads for watching a logged game again: the game's move log replayed by the engine
(`games.engine.timeline`), cached, and the same data for the page and the API."""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.urls import reverse

from games.engine import EngineError
from games.engine.timeline import REPLAY_FORMAT, build_replay, game_story
from games.models import Submission
from games.selectors import game_seats
from league.models import Game
from league.permissions import visible_events

CACHE_SECONDS = 7 * 24 * 3600


def replay_games(*, user: Any) -> Any:
    """Games whose replay this user may watch: the one visibility rule (`visible_events`)."""
    return Game.objects.filter(table__rotation__event__in=visible_events(user)).select_related(
        "table__rotation__event__club"
    )


def game_log_submission(*, game: Game) -> Submission | None:
    """The game's move log to replay: its newest log the engine accepted, not withdrawn."""
    logs = game.submissions.filter(kind=Submission.Kind.LOG, withdrawn_at__isnull=True)
    for submission in logs.order_by("-created_at", "-id").only("id", "report", "body_hash"):
        if submission.report.get("valid"):
            return submission
    return None


def game_has_replay(*, game: Game) -> bool:
    return game_log_submission(game=game) is not None


def _cache_key(game: Game, submission: Submission, names: list[str]) -> str:
    version = game.result_versions.order_by("-number").values_list("number", flat=True).first()
    digest = hashlib.sha256("\x00".join(names).encode()).hexdigest()[:16]
    return (
        f"replay:{REPLAY_FORMAT}:{game.pk}:{submission.pk}:{submission.body_hash}:"
        f"{version or 0}:{digest}"
    )


def game_replay(*, game: Game) -> dict[str, Any] | None:
    """The replay of the game's move log (None without one), players by name; computed by the
    engine once and cached by game, log (its id and content hash), result version and names."""
    submission = game_log_submission(game=game)
    if submission is None:
        return None
    names = [seat.player.name for seat in game_seats(game=game)]
    key = _cache_key(game, submission, names)
    replay = cache.get(key)
    if replay is None:
        document = Submission.objects.values_list("document", flat=True).get(pk=submission.pk)
        try:
            replay = build_replay(document, names if len(names) == len(document["seats"]) else None)
        except (EngineError, ValueError):
            return None
        replay["story"] = game_story(replay)
        cache.set(key, replay, CACHE_SECONDS)
    return replay


def game_story_context(*, game: Game) -> dict[str, Any]:
    """What a game's page shows of its log: the story in words and the replay's address."""
    replay = game_replay(game=game)
    if replay is None:
        return {"story": [], "replay_url": ""}
    return {"story": replay["story"], "replay_url": reverse("game-replay", args=[game.pk])}

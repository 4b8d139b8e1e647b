"""Reads for watching a logged game again: the game's move log replayed by the engine
(`handfoot.timeline`), cached, and the same data for the page and the API."""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.urls import reverse

from games.models import Submission
from games.selectors import entrant_label, game_seats, round_comparison
from games.services.documents import rounds_same_figures
from handfoot import EngineError
from handfoot.timeline import REPLAY_FORMAT, build_replay, game_story
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
    for submission in logs.order_by("-created_at", "-id").only("id", "report", "body_hash", "entrant"):
        if submission.report.get("valid"):
            return submission
    return None


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
    names = [seat.player.shown_name for seat in game_seats(game=game)]  # as each chose to show it
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


# --- disputes settled by the log ---------------------------------------------------------------

LOG_REASON = "as the move log says"


def game_logged_rounds(*, game: Game) -> tuple[Submission | None, dict[int, dict[str, Any]]]:
    """The game's move log (`game_log_submission`) and the engine's report of each of its rounds
    (the figures a sheet of that round would show), by round number. Read from the log's stored
    report: no replay needed."""
    submission = game_log_submission(game=game)
    if submission is None:
        return None, {}
    return submission, {r["round"]: r for r in submission.report.get("rounds", [])}


def log_settlement(
    *, versions: list[Any], logged: dict[int, dict[str, Any]], differing: list[int]
) -> dict[str, Any]:
    """How the log settles a dispute between `versions` (oldest first): the rounds that differ
    and the log does not cover (`missing`), the figures "as the log says" (`rounds`: the newest
    version's rounds with the log's in their place) and the version equal to them, if any."""
    missing = [n for n in differing if n not in logged]
    by_round = {r["round"]: r for r in versions[-1].rounds}
    by_round.update({n: r for n, r in logged.items() if n in by_round})
    rounds = [by_round[n] for n in sorted(by_round)]
    matching = next((v for v in versions if rounds_same_figures(v.rounds, rounds)), None)
    return {"missing": missing, "rounds": rounds, "matching": matching}


def rounds_words(numbers: list[int]) -> str:
    """"round 3" / "rounds 1, 2 and 4"."""
    if len(numbers) == 1:
        return f"round {numbers[0]}"
    return "rounds " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


def dispute_with_log(*, game: Game, comparison: dict[str, Any] | None) -> dict[str, Any] | None:
    """The dispute view (`selectors.dispute_comparison`) with what the move log says: beside each
    row of a compared round the log's figure (`row["log"]`), and `comparison["log"]`: who
    entered the log, the differing rounds it misses and the version equal to it. Unchanged
    when the game has no accepted log."""
    if comparison is None:
        return None
    submission, logged = game_logged_rounds(game=game)
    if submission is None:
        return comparison
    versions = [v["version"] for v in comparison["versions"]]
    plan = log_settlement(versions=versions, logged=logged, differing=comparison["differing"])
    rounds = []
    for r in comparison["rounds"]:
        log_round = logged.get(r["round"])
        rows = r["rows"]
        if log_round is not None:
            pair = [(str(v.number), next(x for x in v.rounds if x["round"] == r["round"]))
                    for v in versions]
            with_log = round_comparison(sides=comparison["sides"], versions=[*pair, ("log", log_round)])
            rows = [{**row, "log": extra["values"][-1]} for row, extra in zip(rows, with_log, strict=True)]
        rounds.append({**r, "rows": rows, "logged": log_round is not None})
    matching = plan["matching"]
    return {
        **comparison,
        "rounds": rounds,
        "log": {
            "entered_by": entrant_label(game=game, entrant=submission.entrant),
            "missing": plan["missing"],
            "missing_words": rounds_words(plan["missing"]) if plan["missing"] else "",
            "covered_words": rounds_words(sorted(logged)) if logged else "",
            "matching": matching.number if matching is not None else None,
        },
    }

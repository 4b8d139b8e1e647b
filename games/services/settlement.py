"""Settlement by the log: a director settles a disputed sheet "as the move log says" in one
click. The decision of a dispute that already exists is reused: the version equal to the log's
figures is chosen (`confirmation.result_confirm`), or, when neither is, the log's figures
become a correction (`correction.result_correct`); either is kept in the event's history with
the reason."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from core.errors import Conflict, Forbidden, Stale

# `games.replays` reads the log and imports `games.services.documents`: imported as a module
# (its names read at call time) so that either package may be imported first.
from games import replays, selectors
from games.errors import Code, refusal
from games.models import ResultVersion, Submission
from games.services.confirmation import result_confirm
from games.services.correction import result_correct, result_revision
from games.services.entrants import entrant_for
from league.models import Game


def dispute_settle_by_log(*, game: Game, user: Any, expected_revision: int) -> ResultVersion:
    """Settle the game's dispute as its accepted move log says; returns the version that counts.

    Refused (and nothing changes) when the game is not disputed, has no accepted move log, the
    log does not cover every round the entries differ in, the user does not direct the event,
    or the result changed since `expected_revision` was shown.
    """
    with transaction.atomic():
        # Race: two directors settling at once (or a new entry): the second sees a new revision.
        game = Game.objects.select_for_update().get(pk=game.pk)
        entrant = entrant_for(game=game, user=user)
        if entrant is None or not entrant.director:
            raise refusal(Forbidden, Code.DIRECTOR_SETTLES_DISPUTES)
        revision = result_revision(game=game)
        if revision != expected_revision:
            raise refusal(Stale, Code.STALE_VERSION, now=revision, seen=expected_revision)
        comparison = selectors.dispute_comparison(game=game)
        if comparison is None:
            raise refusal(Conflict, Code.NOT_DISPUTED)
        submission, logged = replays.game_logged_rounds(game=game)
        if submission is None:
            raise refusal(
                Conflict,
                Code.NO_MOVE_LOG,
                consequence="the log cannot settle the dispute: choose a version or enter the "
                "right figures",
            )
        versions = [v["version"] for v in comparison["versions"]]
        plan = replays.log_settlement(
            versions=versions, logged=logged, differing=comparison["differing"]
        )
        if plan["missing"]:
            covered = replays.rounds_words(sorted(logged)) if logged else "no round"
            raise refusal(
                Conflict,
                Code.LOG_MISSES_ROUNDS,
                covered=covered,
                missing=replays.rounds_words(plan["missing"]),
            )
        if plan["matching"] is not None:
            return result_confirm(
                game=game,
                version_number=plan["matching"].number,
                entrant=entrant,
                reason=replays.LOG_REASON,
            )
        document = Submission.objects.values_list("document", flat=True).get(pk=submission.pk)
        return result_correct(
            game=game,
            user=user,
            reason=replays.LOG_REASON,
            expected_revision=revision,
            documents=[document],
        )

"""A night played on paper: the director enters a game's scores only (each round's score per
side, or only the game's totals), stored as a totals-only result (`ResultVersion.detail` False,
round 0 for a game's total, as the spreadsheet import stores them), confirmed at once with a
reason, feeding standings and ratings; statistics that need the detail leave it out."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Invalid, Stale
from games.errors import Code, refusal
from games.models import ResultVersion
from games.services._common import version_next_number, versions_supersede
from games.services.documents import game_table
from games.services.entrants import Entrant
from games.services.history import figures_words, game_record
from games.services.projection import result_project
from games.spreadsheets import MAX_ROUND_SCORE
from league.models import Game

PAPER_REASON = "Entered from the table's paper score sheet."
PAPER_ACTION = "result_paper"


def _score_check(value: int, what: str, limit: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise refusal(Invalid, Code.PAPER_NOT_A_NUMBER, what=what)
    if value % 5:
        raise refusal(Invalid, Code.PAPER_NOT_MULTIPLE_OF_5, value=value, what=what)
    if abs(value) > limit:
        raise refusal(Invalid, Code.PAPER_OUT_OF_RANGE, value=value, what=what, limit=limit)


def paper_rounds(
    *, rounds: Sequence[Sequence[int]] | None, totals: Sequence[int] | None, round_count: int
) -> list[dict]:
    """The rounds a totals-only version stores, checked: per round both sides' scores, or only
    the game's totals as round 0."""
    if rounds:
        if len(rounds) != round_count:
            raise refusal(Invalid, Code.PAPER_INCOMPLETE, rounds=round_count)
        stored = []
        for number, scores in enumerate(rounds, start=1):
            if len(scores) != 2:
                raise refusal(Invalid, Code.PAPER_TWO_SIDES, number=number)
            for side, score in enumerate(scores, start=1):
                _score_check(score, f"round {number}, side {side}", MAX_ROUND_SCORE)
            stored.append(
                {
                    "round": number,
                    "ended_by": "",
                    "seats": [],
                    "detail": False,
                    "sides": [{"score": s} for s in scores],
                }
            )
        return stored
    if not totals or len(totals) != 2:
        raise refusal(Invalid, Code.PAPER_NO_FIGURES)
    for side, total in enumerate(totals, start=1):
        _score_check(total, f"side {side}'s total", round_count * MAX_ROUND_SCORE)
    return [
        {
            "round": 0,
            "ended_by": "",
            "seats": [],
            "detail": False,
            "sides": [{"score": t} for t in totals],
        }
    ]


def result_enter_paper(
    *,
    game: Game,
    user: User,
    expected_revision: int,
    rounds: Sequence[Sequence[int]] | None = None,
    totals: Sequence[int] | None = None,
    reason: str = "",
) -> ResultVersion:
    """The director's scores for a game played on paper, confirmed at once (earlier versions
    kept as superseded). Refused when `expected_revision` is not the newest any more."""
    stored = paper_rounds(
        rounds=rounds, totals=totals, round_count=game_table(game=game).rules.rounds
    )
    totals_ = [sum(r["sides"][i]["score"] for r in stored) for i in range(2)]
    with transaction.atomic():
        # Race: two directors entering the same game at once; the lock makes the second see
        # the first's version and be refused as stale.
        game = Game.objects.select_for_update().get(pk=game.pk)
        newest = version_next_number(game=game) - 1
        if newest != expected_revision:
            raise refusal(Stale, Code.STALE_VERSION, now=newest, seen=expected_revision)
        current = game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()
        versions_supersede(
            versions=game.result_versions.exclude(status=ResultVersion.Status.SUPERSEDED)
        )
        entrant = Entrant.for_user(user, director=True)
        version = ResultVersion.objects.create(
            game=game,
            number=newest + 1,
            status=ResultVersion.Status.CONFIRMED,
            rounds=stored,
            totals=totals_,
            entered_by=entrant.key,
            entered_by_user=user,
            confirmed_at=timezone.now(),
            reason=(reason or "").strip()[:500] or PAPER_REASON,
            based_on=current,
            detail=False,
        )
        result_project(game=game)
        was = f" (was {figures_words(game, current.totals)})" if current is not None else ""
        kind = "each round's scores" if rounds else "the game's totals"
        game_record(
            game=game,
            user=user,
            action=PAPER_ACTION,
            summary=f"Entered the paper score sheet of rotation "
            f"{game.table.rotation.number}, table {game.table.number} ({kind} "
            f"only): {figures_words(game, totals_)}{was}.",
            data={"version": version.number},
        )
    return version

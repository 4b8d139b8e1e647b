"""Correction: a director's figures with a reason, confirmed at once; earlier versions are kept
as superseded. Guarded by the result's revision (its ETag) against a stale edit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Invalid, Stale
from games import selectors
from games.errors import Code, refusal
from games.models import ResultVersion
from games.services._common import version_next_number, versions_supersede
from games.services.documents import (
    GameTable,
    document_check,
    document_prepare,
    game_table,
    rounds_same_figures,
    rounds_totals,
)
from games.services.entrants import Entrant
from games.services.history import correction_record
from games.services.projection import result_project
from league.models import Game


def result_revision(*, game: Game, versions: Sequence[ResultVersion] | None = None) -> int:
    """The number of the game's newest result version (0 before any): the ETag of its result.
    `versions`: every version of the game, when the request has read them (no query then)."""
    if versions is not None:
        return max((v.number for v in versions), default=0)
    return version_next_number(game=game) - 1


def correction_rounds(
    *, game: Game, documents: list[Any], table: GameTable
) -> list[dict[str, Any]]:
    """The checked rounds of a correction's sheets and/or log (later documents win per round)."""
    rounds: dict[int, dict[str, Any]] = {}
    for document in documents:
        report = document_check(document=document_prepare(document=document, table=table))
        for r in report["rounds"]:
            rounds[r["round"]] = {**r, "source": {"submission": None, "kind": report["kind"]}}
    return [rounds[n] for n in sorted(rounds)]


def result_correct(
    *, game: Game, user: User, reason: str, expected_revision: int, documents: list[Any]
) -> ResultVersion:
    """A director's figures for the game, confirmed at once with a reason: corrects a confirmed
    result or resolves a dispute. Rounds the documents leave out keep the figures of the current
    (else the newest) version. Refused when `expected_revision` is not the newest any more."""
    reason = (reason or "").strip()
    if not reason:
        raise refusal(Invalid, Code.REASON_REQUIRED)
    if not isinstance(documents, list) or not documents:
        raise refusal(Invalid, Code.NO_FIGURES)
    table = game_table(game=game)
    corrected = correction_rounds(game=game, documents=documents, table=table)
    with transaction.atomic():
        # Race: two directors correcting the same version at once; the lock makes the second
        # see the first's version and be refused as stale instead of silently overwriting it.
        game = Game.objects.select_for_update().get(pk=game.pk)
        if result_revision(game=game) != expected_revision:
            raise refusal(
                Stale, Code.STALE_VERSION, now=result_revision(game=game), seen=expected_revision
            )
        base = selectors.game_correction_base(game=game)
        # A result of scores only (paper, import) is replaced whole, never mixed with a sheet.
        rounds = {r["round"]: r for r in (base.rounds if base and base.detail else [])}
        rounds.update({r["round"]: r for r in corrected})
        if sorted(rounds) != list(range(1, table.rules.rounds + 1)):
            raise refusal(Invalid, Code.INCOMPLETE, rounds=table.rules.rounds)
        figures = [rounds[n] for n in sorted(rounds)]
        current = game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()
        if current is not None and rounds_same_figures(current.rounds, figures):
            raise refusal(Invalid, Code.NO_CHANGE)
        versions_supersede(versions=game.result_versions.exclude(status=ResultVersion.Status.SUPERSEDED))
        version = ResultVersion.objects.create(
            game=game,
            number=version_next_number(game=game),
            status=ResultVersion.Status.CONFIRMED,
            rounds=figures,
            totals=rounds_totals(figures),
            entered_by=Entrant.for_user(user).key,
            entered_by_user=user,
            confirmed_at=timezone.now(),
            reason=reason,
            based_on=base,
        )
        result_project(game=game)
        correction_record(game=game, version=version, entrant=Entrant.for_user(user),
                          before=current)
    return version

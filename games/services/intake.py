"""Intake: every score sheet or move log is checked and kept as a `Submission` of its entrant;
once an entrant's entry covers every round it becomes a `ResultVersion` that confirms or
disputes the others."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction

from core.compiled_query import CompiledQuery
from core.errors import Conflict, Invalid
from games import selectors
from games.errors import Code, refusal
from games.models import ResultVersion, Submission
from games.services._common import game_all_versions, versions_supersede
from games.services.confirmation import settles_by_entry, version_confirm
from games.services.documents import (
    document_check,
    document_hash,
    document_prepare,
    round_differences,
    rounds_same_figures,
    rounds_totals,
)
from games.services.entrants import Entrant
from games.services.history import entry_record
from games.services.projection import game_status_sync
from league.models import Game

GameTable = selectors.GameTable


def _with_source(submission: Submission, r: dict[str, Any]) -> dict[str, Any]:
    return {**r, "source": {"submission": submission.pk, "kind": submission.kind}}


def _entry_figures(
    game: Game, entrant: str, submissions: Sequence[Submission] | None = None
) -> dict[int, dict[str, Any]]:
    """The entrant's entry (`selectors.entry_latest_rounds`) as figures per round. Seat facts
    come from their latest move log of that round when its figures agree with the chosen ones.
    `submissions`: the game's, oldest first, when the caller has read them (else one query)."""
    if submissions is None:
        submissions = selectors.game_entries(game=game, entrant=entrant)
    rounds = {
        n: _with_source(submission, r)
        for n, (submission, r) in selectors.entry_latest_rounds(
            game=game, entrant=entrant, submissions=submissions
        ).items()
    }
    logged = selectors.entry_latest_rounds(
        game=game, entrant=entrant, kind=Submission.Kind.LOG, submissions=submissions
    )
    for number, r in rounds.items():
        log_round = logged[number][1] if number in logged else None
        if not r["seats"] and log_round and not round_differences(r, log_round):
            rounds[number] = {**r, "seats": log_round["seats"]}
    return rounds


# --- intake ------------------------------------------------------------------------------------


# The key is unique: by primary key, not the model's ordering (a join of four tables).
_BY_IDEMPOTENCY_KEY = CompiledQuery(
    lambda key: Submission.objects.filter(idempotency_key=key).order_by("pk")[:1], key=str)
# The game row locked, with its table, rotation, event and club (unlocked: the history line
# names them).
_GAME_LOCKED = CompiledQuery(
    lambda game_id: Game.objects.select_related("table__rotation__event__club")
    .select_for_update(of=("self",)).filter(pk=game_id), game_id=int)


def _replayed(key: str, game: Game, digest: str, entrant: Entrant) -> Submission | None:
    """The earlier submission under this idempotency key, if it is the same request."""
    earlier = next(iter(_BY_IDEMPOTENCY_KEY.run(key=key)), None)
    if earlier is None:
        return None
    if earlier.game_id != game.pk or earlier.body_hash != digest or earlier.entrant != entrant.key:
        raise refusal(Conflict, Code.IDEMPOTENCY_KEY_REUSED)
    return earlier


def submission_create(
    *,
    game: Game,
    document: Any,
    entrant: Entrant,
    idempotency_key: str,
    table: GameTable | None = None,
) -> tuple[Submission, bool]:
    """Check and store one score sheet or move log of a game; returns (submission, created).

    The same key with the same body returns the first submission (created False). `table` is
    the game's table as the request read it (`selectors.game_table`), else it is read here: the
    event's rules are parsed once for the whole submission (check, versions, projection).
    """
    if not idempotency_key or len(idempotency_key) > 128:
        raise refusal(Invalid, Code.BAD_IDEMPOTENCY_KEY)
    digest = document_hash(document=document)
    earlier = _replayed(idempotency_key, game, digest, entrant)
    if earlier is not None:
        return earlier, False
    table = table or selectors.game_table(game=game)
    document = document_prepare(document=document, table=table)
    report = document_check(document=document, rules=table.rules)
    with transaction.atomic():
        # Race: two entries of one game at once (two phones, or a retry) would each build
        # versions from a stale view of the other's; the game row lock serialises them.
        locked = _GAME_LOCKED.run(game_id=game.pk)
        if not locked:
            raise Game.DoesNotExist(f"game {game.pk} is gone")
        game = locked[0]
        earlier = _replayed(idempotency_key, game, digest, entrant)
        if earlier is not None:
            return earlier, False
        if game.status == Game.Status.CONFIRMED:
            raise refusal(Conflict, Code.ALREADY_CONFIRMED)
        # The game's entries (not withdrawn, without their documents), read once with the row
        # locked: what the new one is compared with, and the entrant's entry with it.
        standing = selectors.game_entries(game=game)
        try:
            with transaction.atomic():
                # A savepoint: the IntegrityError below must leave the transaction usable.
                submission = Submission.objects.create(
                    game=game,
                    kind=report["kind"],
                    round_number=document["round"] if report["kind"] == "sheet" else None,
                    document=document,
                    report=report,
                    differences=_differences(report, standing),
                    entrant=entrant.key,
                    user=entrant.account,
                    via=entrant.via,
                    idempotency_key=idempotency_key,
                    body_hash=digest,
                )
        except IntegrityError:
            # The same key committed by a concurrent request for another game: a reuse.
            earlier = _replayed(idempotency_key, game, digest, entrant)
            if earlier is None:
                raise
            return earlier, False
        entries = sorted([*standing, submission], key=lambda s: (s.created_at, s.pk))
        entry_rebuild(game=game, entrant=entrant, table=table, submissions=entries)
        entry_record(game=game, submission=submission, entrant=entrant, sides=table.side_seats)
    return submission, True


def _differences(report: dict[str, Any], standing: Sequence[Submission]) -> list[dict[str, Any]]:
    """Where a new entry's rounds differ from the other kind of entry (sheet vs log) of the same
    rounds, by anyone (`standing`: the game's entries not withdrawn, oldest first); stored with
    the entry (its `differences`)."""
    other_kind = (
        Submission.Kind.LOG if report["kind"] == Submission.Kind.SHEET else Submission.Kind.SHEET
    )
    mine = {r["round"]: r for r in report["rounds"]}
    found = []
    for other in standing:
        if other.kind != other_kind or other.withdrawn_at is not None:
            continue
        for r in other.report["rounds"]:
            if r["round"] in mine and (diff := round_differences(mine[r["round"]], r)):
                found.append({"round": r["round"], "other_submission": other.pk, "fields": diff})
    return found


def entry_rebuild(
    *,
    game: Game,
    entrant: Entrant,
    table: GameTable,
    submissions: Sequence[Submission] | None = None,
) -> None:
    """Turn the entrant's entry into a version once it covers every round, then confirm or
    dispute against the other open versions. Called with the game row locked (after an entry,
    and after a director withdraws or restores one). `submissions`: the game's (at least the
    entrant's, not withdrawn), oldest first, as read with the lock held; else read here."""
    entry = _entry_figures(game, entrant.key, submissions)
    if sorted(entry) != list(range(1, table.rules.rounds + 1)):
        return
    figures = [entry[n] for n in sorted(entry)]
    # Every version, read once with the row locked and kept up to date below (the open ones,
    # the next number, the game's status).
    versions = game_all_versions(game=game)
    open_versions = [v for v in versions if v.status in ResultVersion.OPEN_STATUSES]
    own = [v for v in open_versions if v.entered_by == entrant.key]
    others = [v for v in open_versions if v.entered_by != entrant.key]
    if own and rounds_same_figures(own[0].rounds, figures):
        return
    matching = next(
        (
            v
            for v in others
            if rounds_same_figures(v.rounds, figures)
            and settles_by_entry(version=v, entrant=entrant)
        ),
        None,
    )
    if matching is not None:
        version_confirm(
            game=game, version=matching, entrant=entrant, table=table, versions=versions
        )
        return
    versions_supersede(versions=own)
    status = ResultVersion.Status.DISPUTED if others else ResultVersion.Status.ENTERED
    version = ResultVersion.objects.create(
        game=game,
        number=max((v.number for v in versions), default=0) + 1,
        status=status,
        rounds=figures,
        totals=rounds_totals(figures),
        entered_by=entrant.key,
        entered_by_user=entrant.account,
    )
    versions.append(version)
    if others:
        game.result_versions.filter(pk__in=[v.pk for v in others]).update(
            status=ResultVersion.Status.DISPUTED
        )
        for v in others:
            v.status = ResultVersion.Status.DISPUTED
    game_status_sync(game=game, versions=versions)

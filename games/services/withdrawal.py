"""Withdrawal: a director takes back a wrongly entered score sheet or move log before the result
is confirmed, and may restore it. Nothing is deleted: the submission is marked (`withdrawn_at`,
`withdrawn_by`) and every change is logged in the league's audit trail with who and when.

What a withdrawal does to the result: the entrant's open versions built on the withdrawn entry
are superseded (so they can no longer be confirmed), and the entrant's entry is read again
without it. When what remains still covers every round it is treated exactly as if it had just
been entered (a new version; or, if the other side entered the same figures, a confirmation:
both sides agree). A lone open version left behind is no longer disputed. So the table can
enter the round again at once, and the other side's entry no longer meets a dispute.

Restoring puts the entry back the same way, as if it had just arrived. It is refused when the
same entrant has since entered any of its rounds again (that newer entry is what counts: withdraw
it first), once the result is confirmed (a correction is the way then) and on finished events.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, NotFound
from games import selectors
from games.errors import Code, refusal
from games.models import ResultVersion, Submission
from games.services._common import versions_supersede
from games.services.entrants import Entrant
from games.services.history import game_record
from games.services.intake import entry_rebuild
from games.services.projection import game_status_sync
from league.models import AuditEntry, Event, Game
from league.permissions import is_director

WITHDRAW_ACTION = "result_withdraw"
RESTORE_ACTION = "result_restore"


def submission_entrant(*, submission: Submission) -> Entrant:
    """The entrant a stored submission was entered by (from its entrant key)."""
    parts = submission.entrant.split(":")
    game = submission.game
    if parts[0] == "game" and len(parts) == 4:
        return Entrant(key=submission.entrant, via=submission.via, side=int(parts[3]))
    user = submission.user
    club_id = game.table.rotation.event.club_id
    director = user is not None and is_director(user, club_id)
    return Entrant(key=submission.entrant, user=user, via=submission.via, director=director)


def submission_words(*, submission: Submission) -> str:
    """ "the round 2 score sheet of Side 1 (Ann & Ben) at rotation 1, table 3", for the log."""
    game = submission.game
    what = (
        f"round {submission.round_number} score sheet"
        if submission.kind == Submission.Kind.SHEET
        else "move log"
    )
    who = selectors.entrant_label(game=game, entrant=submission.entrant)
    return (
        f"the {what} of {who} at rotation {game.table.rotation.number}, table {game.table.number}"
    )


def _locked(submission: Submission) -> tuple[Game, Submission]:
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("table__rotation__event__club")
        .get(pk=submission.game_id)
    )
    submission = Submission.objects.select_related("user").get(pk=submission.pk)
    submission.game = game
    return game, submission


def _state_check(game: Game) -> None:
    if game.status == Game.Status.CONFIRMED:
        raise refusal(Conflict, Code.ALREADY_CONFIRMED)
    event = game.table.rotation.event
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED, event=event.name)


def _versions_of(game: Game, submission: Submission) -> list[ResultVersion]:
    """The open versions built (in part) on this submission."""
    return [
        v
        for v in game.result_versions.filter(status__in=ResultVersion.OPEN_STATUSES)
        if any((r.get("source") or {}).get("submission") == submission.pk for r in v.rounds)
    ]


def open_versions_settle(*, game: Game) -> None:
    """A single open version left is merely entered (nothing disputes it); two or more are a
    dispute. Then the game's status follows. Called with the game row locked."""
    open_versions = list(game.result_versions.filter(status__in=ResultVersion.OPEN_STATUSES))
    status = (
        ResultVersion.Status.DISPUTED if len(open_versions) > 1 else ResultVersion.Status.ENTERED
    )
    game.result_versions.filter(pk__in=[v.pk for v in open_versions]).exclude(status=status).update(
        status=status
    )
    game_status_sync(game=game)


def _log_settled(submission: Submission, action: str) -> None:
    """Mark the opposite log entries of this submission as undone (the change was reversed)."""
    AuditEntry.objects.filter(
        action=action, data__submission_id=submission.pk, undone_at__isnull=True
    ).update(undone_at=timezone.now())


def submission_withdraw(*, submission: Submission, by: User | None) -> Submission:
    """Withdraw a score sheet or move log entered by mistake, before the result is confirmed:
    kept, marked and logged; the result is read again without it (see the module docstring)."""
    table = selectors.game_table(game=submission.game)
    with transaction.atomic():
        # Race: a withdrawal and a new entry (or a confirmation) of one game at once.
        game, submission = _locked(submission)
        if submission.withdrawn_at is not None:
            raise refusal(Conflict, Code.ALREADY_WITHDRAWN)
        _state_check(game)
        submission.withdrawn_at = timezone.now()
        submission.withdrawn_by = by if by is not None and by.is_authenticated else None
        submission.save(update_fields=["withdrawn_at", "withdrawn_by"])
        versions_supersede(versions=_versions_of(game, submission))
        entry_rebuild(game=game, entrant=submission_entrant(submission=submission), table=table)
        open_versions_settle(game=game)
        _log_settled(submission, RESTORE_ACTION)
        _record(game, submission, by, WITHDRAW_ACTION)
    return submission


def submission_restore(*, submission: Submission, by: User | None) -> Submission:
    """Put a withdrawn entry back, as if it had just been entered. Refused when the entrant has
    entered any of its rounds again since, once the result is confirmed, on finished events."""
    table = selectors.game_table(game=submission.game)
    with transaction.atomic():
        game, submission = _locked(submission)
        if submission.withdrawn_at is None:
            raise refusal(Conflict, Code.NOT_WITHDRAWN)
        _state_check(game)
        newer = selectors.submission_newer_entry(submission=submission)
        if newer is not None:
            raise refusal(
                Conflict,
                Code.NEWER_ENTRY,
                who=selectors.entrant_label(game=game, entrant=submission.entrant),
                what=f"round {newer.round_number}" if newer.round_number else "a move log",
                time=f"{timezone.localtime(newer.created_at):%H:%M}",
            )
        submission.withdrawn_at = None
        submission.withdrawn_by = None
        submission.save(update_fields=["withdrawn_at", "withdrawn_by"])
        entry_rebuild(game=game, entrant=submission_entrant(submission=submission), table=table)
        game.refresh_from_db()
        if game.status != Game.Status.CONFIRMED:
            open_versions_settle(game=game)
        _log_settled(submission, WITHDRAW_ACTION)
        _record(game, submission, by, RESTORE_ACTION)
    return submission


def _record(game: Game, submission: Submission, by: User | None, action: str) -> None:
    """The History line of a withdrawal (`WITHDRAW_ACTION`) or of its undo."""
    done = "Withdrew" if action == WITHDRAW_ACTION else "Restored"
    game_record(
        game=game,
        user=by,
        action=action,
        summary=f"{done} {submission_words(submission=submission)}.",
        data={"submission_id": submission.pk},
    )


def _undo(restore: bool) -> Callable[[AuditEntry, User | None], None]:
    def undo(entry: AuditEntry, by: User | None) -> None:
        submission = selectors.audit_entry_submission(entry=entry)
        if submission is None:
            raise refusal(NotFound, Code.GONE, what="entry")
        (submission_restore if restore else submission_withdraw)(submission=submission, by=by)

    return undo


def _applies(restore: bool) -> Callable[[AuditEntry], bool]:
    def applies(entry: AuditEntry) -> bool:
        submission = selectors.audit_entry_submission(entry=entry)
        if submission is None:
            return False
        if restore:
            return selectors.submission_restorable(submission=submission)
        return selectors.submission_withdrawable(submission=submission)

    return applies


undo_withdraw = _undo(restore=True)
undo_restore = _undo(restore=False)
withdraw_undo_applies = _applies(restore=True)
restore_undo_applies = _applies(restore=False)

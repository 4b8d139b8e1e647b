"""Undo from the event's history (registered in `games.apps`): an entry not yet confirmed is
undone by withdrawing it; starting a rotation is undone while nothing has been entered at its
tables. Confirmations, decisions and corrections are not undone: a correction changes them.
A module of its own, so that `history` (which withdrawal records through) imports no withdrawal.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from core.errors import Conflict, NotFound
from games import selectors
from games.errors import Code, refusal
from games.models import Submission
from games.services.withdrawal import submission_withdraw
from league.models import AuditEntry, Rotation


def undo_entry(entry: AuditEntry, by: User | None) -> None:
    """Undo an entry: withdraw it (kept and marked, the result read again without it)."""
    submission = selectors.audit_entry_submission(entry=entry)
    if submission is None:
        raise refusal(NotFound, Code.GONE, what="entry")
    submission_withdraw(submission=submission, by=by)


def entry_undo_applies(entry: AuditEntry) -> bool:
    submission = selectors.audit_entry_submission(entry=entry)
    return submission is not None and selectors.submission_withdrawable(submission=submission)


def _rotation_entries(rotation: Rotation) -> int:
    return Submission.objects.filter(game__table__rotation=rotation).count()


def undo_rotation_start(entry: AuditEntry, by: User | None) -> None:
    """Undo starting a rotation, only while no sheet or log was entered at its tables."""
    from league.services import rotation_unstart

    rotation = Rotation.objects.filter(pk=entry.data.get("rotation_id")).first()
    if rotation is None:
        raise refusal(NotFound, Code.GONE, what="rotation")
    if _rotation_entries(rotation):
        raise refusal(Conflict, Code.RESULTS_EXIST, rotation=rotation.number)
    rotation_unstart(rotation=rotation, by=by)


def rotation_start_undo_applies(entry: AuditEntry) -> bool:
    rotation = Rotation.objects.filter(pk=entry.data.get("rotation_id")).first()
    return (
        rotation is not None
        and rotation.status == Rotation.Status.STARTED
        and not _rotation_entries(rotation)
    )

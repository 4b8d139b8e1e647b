"""Undo from the event's history: each kind of line that can safely be reversed has its undo
here (or registered by a layer above through `league.hooks`, e.g. result entries and starting a
rotation, whose safety depends on results). Each undo is itself logged; a line is undone once.
Where a change cannot be undone the refusal says why, in words (`audit_undo_refusal`)."""

from collections.abc import Callable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, NotFound
from league import hooks
from league.errors import Code, refusal
from league.models import AuditEntry, Event, Player, Registration, Rotation
from league.services.audit import audit_record
from league.services.events import event_reopen, event_set_status, event_update
from league.services.registrations import (
    registration_check_in,
    registration_reinstate,
    registration_remove,
    registration_withdraw,
)
from league.services.rotations import (
    rotation_close,
    rotation_delete,
    rotation_reopen,
    rotation_set_first_dealer,
    rotation_start,
    rotation_swap_players,
)

Undo = Callable[[AuditEntry, User | None], object]
Applies = Callable[[AuditEntry], bool]

# Why a kind of line is not undone from the history, in words.
NOT_UNDONE = {
    "event_create": "An event is not un-created; delete it in the admin if it was a mistake.",
    "event_settings": "Change the settings back on the settings page.",
    "registration_remove": "Enter them again.",
    "registrations_add": "Withdraw the players entered by mistake one by one.",
    "rotation_delete": "Seat the rotation again.",
    "seating_wish_add": "Remove the wish on the seating wishes page.",
    "seating_wish_remove": "Add the wish again on the seating wishes page.",
    "undo": "An undo is not undone: do the change again.",
    "result_enter": "The result is confirmed now: change it with a correction.",
    "result_confirm": "A confirmed result is changed with a correction on the table's result "
    "page, not undone.",
    "result_decide": "A decided dispute is changed with a correction on the table's result "
    "page, not undone.",
    "result_correct": "A correction is changed with another correction (the earlier figures "
    "are kept as versions).",
}


def _event_of(entry: AuditEntry) -> Event:
    """The event of an entry that undoes a change of an event (every such entry names one)."""
    if entry.event is None:
        raise refusal(NotFound, Code.GONE, what="event")
    return entry.event


def _undo_check_in_all(entry: AuditEntry, by: User | None) -> None:
    event = _event_of(entry)
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    ids = entry.data.get("registration_ids", [])
    Registration.objects.filter(pk__in=ids, event=event).update(checked_in=False)
    audit_record(club=event.club, event=event, user=by, action="undo",
                 summary=f"Undid: {entry.summary}")


def _registration_of(entry: AuditEntry) -> Registration:
    registration = Registration.objects.filter(pk=entry.data.get("registration_id"),
                                               event=entry.event).first()
    if registration is None:
        raise refusal(NotFound, Code.GONE, what="entry")
    return registration


def _rotation_of(entry: AuditEntry) -> Rotation:
    rotation = Rotation.objects.filter(pk=entry.data.get("rotation_id"), event=entry.event).first()
    if rotation is None:
        raise refusal(NotFound, Code.GONE, what="rotation")
    return rotation


def _undo_finish(entry: AuditEntry, by: User | None) -> None:
    if entry.data.get("status") != Event.Status.FINISHED:
        raise refusal(Conflict, Code.UNDO_NOT_OFFERED)
    event_reopen(event=_event_of(entry), by=by)


def _undo_house_rules(entry: AuditEntry, by: User | None) -> None:
    if _event_of(entry).rotations.exists():
        raise refusal(Conflict, Code.SEATING_EXISTS, fields="the house rules")
    event_update(event=_event_of(entry), rules_overrides=entry.data.get("before") or {}, by=by)


def _undo_swap(entry: AuditEntry, by: User | None) -> None:
    a, b = (Player.objects.get(pk=pk) for pk in entry.data["players"])
    rotation_swap_players(rotation=_rotation_of(entry), player_a=a, player_b=b, by=by)


def _undo_dealer(entry: AuditEntry, by: User | None) -> None:
    rotation_set_first_dealer(rotation=_rotation_of(entry), table_number=entry.data["table"],
                              player=Player.objects.get(pk=entry.data["was"]), by=by)


def _exists(entry: AuditEntry) -> bool:
    return Registration.objects.filter(pk=entry.data.get("registration_id"),
                                       event=entry.event_id).exists()


def _check_in_applies(entry: AuditEntry) -> bool:
    registration = Registration.objects.filter(pk=entry.data.get("registration_id"),
                                               event=entry.event_id).first()
    return (registration is not None and registration.withdrawn_after_rotation is None
            and registration.checked_in == entry.data.get("checked_in"))


SEATING_ACTIONS = ("rotation_generate", "rotation_swap", "rotation_first_dealer")


def _draft_latest(entry: AuditEntry) -> bool:
    """The rotation is still a draft and this is its newest seating change not undone (an
    earlier swap is undone after the later ones)."""
    rotation = Rotation.objects.filter(pk=entry.data.get("rotation_id")).first()
    if rotation is None or rotation.status != Rotation.Status.DRAFT:
        return False
    later = AuditEntry.objects.filter(event=entry.event_id, action__in=SEATING_ACTIONS,
                                      data__rotation_id=rotation.pk, undone_at__isnull=True,
                                      pk__gt=entry.pk)
    return not later.exists()


UNDO: dict[str, tuple[Undo, Applies | None]] = {
    "check_in_all": (_undo_check_in_all, None),
    "check_in": (lambda entry, by: registration_check_in(
        registration=_registration_of(entry), checked_in=not entry.data.get("checked_in"), by=by),
        _check_in_applies),
    "registration_add": (lambda entry, by: registration_remove(
        registration=_registration_of(entry), by=by), _exists),
    "house_rules": (_undo_house_rules, lambda entry: not _event_of(entry).rotations.exists()),
    "rotation_generate": (lambda entry, by: rotation_delete(rotation=_rotation_of(entry), by=by),
                          _draft_latest),
    "rotation_swap": (_undo_swap, _draft_latest),
    "rotation_first_dealer": (_undo_dealer, _draft_latest),
    "rotation_unstart": (lambda entry, by: rotation_start(rotation=_rotation_of(entry), by=by),
                         lambda entry: Rotation.objects.filter(
                             pk=entry.data.get("rotation_id"), status=Rotation.Status.DRAFT).exists()),
    "rotation_close": (lambda entry, by: rotation_reopen(rotation=_rotation_of(entry), by=by), None),
    "rotation_reopen": (lambda entry, by: rotation_close(rotation=_rotation_of(entry), by=by), None),
    "event_status": (_undo_finish, lambda entry: entry.data.get("status") == Event.Status.FINISHED),
    "event_reopen": (lambda entry, by: event_set_status(
        event=_event_of(entry), status=Event.Status.FINISHED, by=by), None),
    "registration_withdraw": (lambda entry, by: registration_reinstate(
        registration=_registration_of(entry), by=by), _exists),
    "registration_reinstate": (lambda entry, by: registration_withdraw(
        registration=_registration_of(entry), by=by), _exists),
}


# A line restored from a club's backup keeps its words, not its undo data: that named the ids of
# the site it came from (site_pages.backup drops it).
RESTORED = "restored_from_backup"
RESTORED_REFUSAL = "This line was restored from a backup and is not undone: do the change again."


def _undo_of(entry: AuditEntry) -> Undo | None:
    if entry.data.get(RESTORED):
        return None
    if entry.action in UNDO:
        return UNDO[entry.action][0]
    return hooks.undo_action(action=entry.action)


def _applies(entry: AuditEntry) -> bool:
    if entry.action in UNDO:
        check = UNDO[entry.action][1]
        return check is None or check(entry)
    return hooks.undo_applies(entry=entry)


def audit_undoable(*, entry: AuditEntry) -> bool:
    """Whether the entry can be undone from the history now (not yet undone, a reversible
    action, and nothing since has made its undo unsafe)."""
    return entry.undone_at is None and _undo_of(entry) is not None and _applies(entry)


def audit_undo_refusal(*, entry: AuditEntry) -> str:
    """Why this line cannot be undone now, in words ("" when it can)."""
    if entry.undone_at is not None:
        return "That change was already undone."
    if entry.data.get(RESTORED):
        return RESTORED_REFUSAL
    if _undo_of(entry) is None:
        return NOT_UNDONE.get(entry.action, "That change cannot be undone from the history.")
    if not _applies(entry):
        return NOT_UNDONE.get(entry.action, "Later changes (or results entered since) make it "
                              "unsafe to undo this now.")
    return ""


@transaction.atomic
def audit_undo(*, entry: AuditEntry, by: User | None = None) -> AuditEntry:
    """Reverse one logged change (itself logged); each entry is undone at most once."""
    entry = AuditEntry.objects.select_for_update(of=("self",)).select_related("event__club").get(pk=entry.pk)
    if entry.undone_at is not None:
        raise refusal(Conflict, Code.ALREADY_UNDONE)
    undo = _undo_of(entry)
    if undo is None:
        raise refusal(Conflict, Code.CANNOT_UNDO, reason=audit_undo_refusal(entry=entry))
    if entry.action in UNDO and not _applies(entry):
        raise refusal(Conflict, Code.CANNOT_UNDO, reason=_applies_refusal(entry))
    try:
        undo(entry, by)
    except (Rotation.DoesNotExist, Player.DoesNotExist) as exc:
        raise refusal(NotFound, Code.GONE, what="rotation or player") from exc
    entry.undone_at = timezone.now()
    entry.save(update_fields=["undone_at"])
    return entry


def _applies_refusal(entry: AuditEntry) -> str:
    if entry.action in SEATING_ACTIONS:
        return ("Only a draft's newest seating change is undone: undo the later ones first, "
                "or the rotation has started.")
    if entry.action == "house_rules":
        return "The house rules are fixed once a rotation is seated."
    if entry.action == "registration_add":
        return "That entry no longer exists."
    return "Later changes make it unsafe to undo this now."

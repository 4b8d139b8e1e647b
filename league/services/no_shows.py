"""No-shows (issue 47): a director marks a seated player of a draft or started rotation as not
there, in one tap (a History line), and the event page then offers the fix: in a draft, seating
it again without them (their check-in undone, so they sit the rotation out until they arrive and
are checked in again); in a started rotation, a substitute in their seat
(`league.services.substitutes`). A no-show is its History line (action `no_show`); it stays
offered while the player still sits in that rotation (`league.seat_calls.event_open_no_shows`);
the History undoes a no-show tapped by mistake."""

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from core.errors import Conflict, Invalid
from league import hooks
from league.errors import Code, refusal
from league.models import AuditEntry, Event, Player, Rotation, Seat
from league.seat_calls import NO_SHOW_ACTION
from league.services._common import lock_event
from league.services.audit import audit_record
from league.services.registrations import registration_check_in
from league.services.rotations import rotation_delete, rotation_generate

Director = User | AnonymousUser | None


def _user(by: Director) -> User | None:
    return by if isinstance(by, User) else None


def _seated(event: Event, rotation: Rotation, player_id: int) -> tuple[Rotation, Player]:
    """The rotation (read again, under the event's lock) and the player seated in it, or a
    refusal in words."""
    rotation = Rotation.objects.get(pk=rotation.pk)
    player = Player.objects.filter(pk=player_id, club=event.club).first()
    if player is None or not Seat.objects.filter(rotation=rotation, player=player).exists():
        raise refusal(Invalid, Code.NOT_IN_ROTATION, rotation_number=rotation.number,
                      player=player.name if player else "That player")
    return rotation, player


def _marked(rotation: Rotation, player: Player) -> AuditEntry | None:
    return (AuditEntry.objects.filter(event_id=rotation.event_id, action=NO_SHOW_ACTION,
                                      undone_at__isnull=True, data__rotation_id=rotation.pk,
                                      data__player_id=player.pk).order_by("-pk").first())


@transaction.atomic
def no_show_mark(*, rotation: Rotation, player_id: int, by: Director = None) -> AuditEntry:
    """Mark the player seated in `rotation` as a no-show (once: marking them
    again changes nothing). Refused in words for a closed rotation or a player not in it."""
    event = lock_event(rotation.event_id)
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    rotation, player = _seated(event, rotation, player_id)
    if rotation.status == Rotation.Status.CLOSED:
        raise refusal(Conflict, Code.NO_SHOW_CLOSED, rotation_number=rotation.number)
    marked = _marked(rotation, player)
    if marked is not None:
        return marked
    return audit_record(club=event.club, event=event, user=_user(by), action=NO_SHOW_ACTION,
                        player=player,
                        summary=f"Marked {player.name} as a no-show for rotation {rotation.number}.",
                        data={"rotation_id": rotation.pk, "player_id": player.pk})


@transaction.atomic
def no_show_seat_again(*, rotation: Rotation, player_id: int, by: Director = None) -> Rotation:
    """The draft fix: throw the draft away, undo the no-show's check-in and seat the rotation
    again without them (they sit it out; checked in again when they arrive, they are seated in
    the next rotation). All or nothing: a seating that cannot be made without them changes
    nothing. Rotating partners only (a fixed partnership's absent member takes a substitute)."""
    event = lock_event(rotation.event_id)
    rotation, player = _seated(event, rotation, player_id)
    if rotation.status != Rotation.Status.DRAFT:
        raise refusal(Conflict, Code.ROTATION_NOT_EDITABLE, rotation_number=rotation.number,
                      rotation_status=rotation.status)
    if event.is_fixed_partnerships:
        raise refusal(Conflict, Code.NO_SHOW_FIXED, player=player.name)
    entry = event.registrations.filter(player=player, withdrawn_after_rotation__isnull=True).first()
    if entry is None:
        raise refusal(Invalid, Code.NOT_IN_ROTATION, rotation_number=rotation.number, player=player.name)
    director = _user(by)
    rotation_delete(rotation=rotation, by=director)
    registration_check_in(registration=entry, checked_in=False, by=director)
    seated = rotation_generate(event=event, by=director)
    audit_record(club=event.club, event=event, user=director, action="no_show_seat_again",
                 player=player,
                 summary=f"Seated rotation {seated.number} again without {player.name} (a no-show): "
                 "check them in when they arrive.",
                 data={"rotation_id": seated.pk, "player_id": player.pk})
    return seated


def _unmark(entry: AuditEntry, by: User | None) -> None:
    """The History's undo of a no-show tapped by mistake: the player is no longer marked."""
    if entry.event is None or entry.player is None:
        return
    rotation = entry.event.rotations.filter(pk=entry.data.get("rotation_id")).first()
    number = f" for rotation {rotation.number}" if rotation else ""
    audit_record(club=entry.event.club, event=entry.event, user=by, action="no_show_undo",
                 player=entry.player,
                 summary=f"{entry.player.name} is no longer marked as a no-show{number}.")


hooks.undo_register(action=NO_SHOW_ACTION, undo=_unmark,
                    applies=lambda entry: entry.event is not None
                    and entry.event.status != Event.Status.FINISHED)

"""Substitutes: a director seats someone for an absent member for the rest of the night.

The substitute takes the member's seat in every rotation of the night still to play (a draft,
or a started rotation whose table has no result yet), and is seated for them in the rotations
seated later (`league.services.rotations` reads the substitutions in force through
`selectors.event_substitutions`). Each seat they take carries `Seat.substitute_for`: whom the
result counts for is the league's choice, applied by the analytics.

- Rotating partners: the substitute is entered (checked in, from the first rotation they
  play) and the member withdrawn from then on, so the seating seats the substitute.
- Fixed partnerships: the partnership stays entered and the substitute sits in the member's
  seat, beside the member's partner.

The substitution is a `Substitution` row, in force while its `removed_at` is empty (the
history's line, action `substitute_seat`, only says what was done); removing it
(`substitute_remove`, or undo from the history) sets `removed_at` (the row stays) and gives the
member back the seats still to play.
"""

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.errors import Conflict, Invalid
from league import hooks, selectors
from league.errors import Code, refusal
from league.models import (
    AuditEntry,
    Event,
    Game,
    Player,
    Registration,
    Rotation,
    Seat,
    SitOut,
    Substitution,
)
from league.services._common import lock_event, require_same_club
from league.services.audit import audit_record
from league.services.players import player_add

Director = User | AnonymousUser | None


def _user(by: Director) -> User | None:
    return by if isinstance(by, User) else None


def _member_registration(event: Event, member: Player) -> Registration:
    """The member's own entry (rotating partners) or their partnership's, still playing."""
    entered = event.registrations.filter(
        Q(player=member) | Q(partnership__player_a=member) | Q(partnership__player_b=member),
        withdrawn_after_rotation__isnull=True).first()
    if entered is None:
        raise refusal(Invalid, Code.SUBSTITUTE_MEMBER_ABSENT, member=member.name, event=event.name)
    return entered


def _refuse_if_playing(event: Event, substitute: Player) -> None:
    entered = event.registrations.filter(
        Q(player=substitute) | Q(partnership__player_a=substitute)
        | Q(partnership__player_b=substitute)).exists()
    seated = Seat.objects.filter(rotation__event=event, player=substitute).exists()
    if entered or seated or substitute.pk in selectors.event_substitutions(event_id=event.pk).values():
        raise refusal(Conflict, Code.SUBSTITUTE_PLAYING, substitute=substitute.name)


def _substitute_player(event: Event, substitute: Player | str, by: Director) -> Player:
    """The substitute as a player of the club: one of its players, or a name (a player of the
    club of that name, else a new player)."""
    if isinstance(substitute, Player):
        return substitute
    name = " ".join(substitute.split())
    known = event.club.players.filter(name__iexact=name, retired_at__isnull=True).order_by("pk").first()
    return known or player_add(club=event.club, name=name, by=_user(by))


def _seats_to_take(event: Event, member: Player) -> list[Seat]:
    """The member's seats still to play: in rotations not closed, at tables without a result."""
    return list(Seat.objects.filter(rotation__event=event, player=member)
                .exclude(rotation__status=Rotation.Status.CLOSED)
                .filter(table__game__status=Game.Status.PENDING)
                .select_related("rotation").order_by("rotation__number"))


def _rotations_to_come(event: Event) -> bool:
    return event.rotations.count() < event.planned_rotations


def _first_rotation(event: Event, seats: list[Seat]) -> int:
    if seats:
        return seats[0].rotation.number
    return selectors.next_rotation_number(event=event)


def _enter_substitute(event: Event, member_entry: Registration, substitute: Player,
                      first: int) -> Registration:
    """Rotating partners: the substitute entered from `first`, the member withdrawn before it."""
    member_entry.withdrawn_after_rotation = first - 1
    member_entry.save(update_fields=["withdrawn_after_rotation"])
    return Registration.objects.create(event=event, player=substitute, checked_in=True,
                                       joins_at_rotation=first)


def _check(event: Event, member: Player, substitute: Player) -> Registration:
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    require_same_club(event.club, member, substitute, what="player")
    if member.pk == substitute.pk:
        raise refusal(Invalid, Code.SUBSTITUTE_IS_MEMBER, member=member.name)
    current = selectors.event_substitutions(event_id=event.pk).get(member.pk)
    if current is not None:
        raise refusal(Conflict, Code.SUBSTITUTE_EXISTS, member=member.name,
                      substitute=Player.objects.get(pk=current).name)
    entry = _member_registration(event, member)
    _refuse_if_playing(event, substitute)
    return entry


@transaction.atomic
def substitute_seat(*, event: Event, member: Player, substitute: Player | str,
                    by: Director = None) -> AuditEntry:
    """Seat `substitute` (a player, or a name) for the absent `member` for the rest of the night.
    Refused in words: a finished event, a member not entered tonight, the member themself, a
    substitute already playing tonight, or no rotation left to play. Logged in the history."""
    # Race: two directors seating substitutes (or generating the next rotation) at once: the
    # event lock orders them, so nobody is seated twice.
    event = lock_event(event.pk)
    if isinstance(substitute, str) and not substitute.strip():
        raise refusal(Invalid, Code.BAD_NAME, field="substitute", what="substitute")
    substitute = _substitute_player(event, substitute, by)
    entry = _check(event, member, substitute)
    seats = _seats_to_take(event, member)
    if not seats and not _rotations_to_come(event):
        raise refusal(Conflict, Code.SUBSTITUTE_TOO_LATE, member=member.name)
    first = _first_rotation(event, seats)
    registration = None
    if not event.is_fixed_partnerships:
        registration = _enter_substitute(event, entry, substitute, first)
    Substitution.objects.create(event=event, member=member, substitute=substitute, from_rotation=first,
                                registration=registration, created_by=_user(by))
    Seat.objects.filter(pk__in=[s.pk for s in seats]).update(player=substitute, substitute_for=member)
    SitOut.objects.filter(rotation__event=event, player=member,
                          rotation__status=Rotation.Status.DRAFT).update(player=substitute)
    return audit_record(
        club=event.club, event=event, user=by, action=selectors.SUBSTITUTE_ACTION, player=member,
        summary=f"{substitute.name} plays for {member.name} from rotation {first} (substitute).",
        data={"member_id": member.pk, "substitute_id": substitute.pk, "first_rotation": first,
              "registration_id": registration.pk if registration else None})


def _substitution(event: Event, member: Player) -> Substitution:
    substitution = (Substitution.objects.select_for_update(of=("self",)).select_related("substitute")
                    .filter(event=event, member=member, removed_at__isnull=True).first())
    if substitution is None:
        raise refusal(Conflict, Code.SUBSTITUTE_NONE, member=member.name)
    return substitution


def _history_line_undone(event: Event, member: Player) -> None:
    """The history's line of the substitution, marked undone (it can no longer be undone)."""
    line = (AuditEntry.objects.select_for_update()
            .filter(event=event, action=selectors.SUBSTITUTE_ACTION, undone_at__isnull=True,
                    data__member_id=member.pk).order_by("-pk").first())
    if line is not None:
        line.undone_at = timezone.now()
        line.save(update_fields=["undone_at"])


def _give_back(event: Event, member: Player, substitute: Player, registration_id: int | None) -> None:
    """The member's seats (and entry) back in the rotations still to play."""
    open_seats = (Seat.objects.filter(rotation__event=event, player=substitute, substitute_for=member)
                  .exclude(rotation__status=Rotation.Status.CLOSED)
                  .filter(table__game__status=Game.Status.PENDING))
    open_seats.update(player=member, substitute_for=None)
    SitOut.objects.filter(rotation__event=event, player=substitute,
                          rotation__status=Rotation.Status.DRAFT).update(player=member)
    if event.is_fixed_partnerships:
        return
    event.registrations.filter(player=member).update(withdrawn_after_rotation=None)
    played = Seat.objects.filter(rotation__event=event, player=substitute).order_by("-rotation__number")
    last = played.values_list("rotation__number", flat=True).first()
    substitute_entry = event.registrations.filter(player=substitute, pk=registration_id or 0)
    if last is None:
        substitute_entry.delete()
    else:
        substitute_entry.update(withdrawn_after_rotation=last)


@transaction.atomic
def substitute_remove(*, event: Event, member: Player, by: Director = None) -> AuditEntry:
    """End the member's substitution: they take their seats back in the rotations still to
    play (the games the substitute played stay theirs). Logged in the history."""
    event = lock_event(event.pk)  # Race: as in substitute_seat.
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    substitution = _substitution(event, member)
    substitute = substitution.substitute
    _give_back(event, member, substitute, substitution.registration_id)
    substitution.removed_at = timezone.now()
    substitution.save(update_fields=["removed_at"])
    _history_line_undone(event, member)
    return audit_record(club=event.club, event=event, user=by, action="substitute_remove",
                        player=member,
                        summary=f"{member.name} plays again: {substitute.name} no longer plays for them.")


def _undo(entry: AuditEntry, by: User | None) -> None:
    if entry.event is None or entry.player is None:
        raise refusal(Conflict, Code.SUBSTITUTE_NONE, member="The member")
    substitute_remove(event=entry.event, member=entry.player, by=by)


# The history's undo of a substitution is its removal.
hooks.undo_register(action=selectors.SUBSTITUTE_ACTION, undo=_undo,
                    applies=lambda entry: entry.event is not None
                    and entry.event.status != Event.Status.FINISHED)

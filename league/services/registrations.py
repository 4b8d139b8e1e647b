"""Entries of an event: players or partnerships, check-in, late arrivals, withdrawals."""

from collections.abc import Iterable, Sequence

from django.contrib.auth.models import User
from django.db import transaction

from core.errors import Conflict, Invalid
from league import selectors
from league.errors import Code, refusal
from league.models import Event, Partnership, Player, Registration, Rotation
from league.names import name_key
from league.services._common import lock_event, partnership_of, require_same_club
from league.services.audit import audit_record
from league.services.players import partnership_get_or_create, player_add, player_create


def _check_entrant(event: Event, player: Player | None, partnership: Partnership | None) -> None:
    if (player is None) == (partnership is None):
        raise refusal(Invalid, Code.BAD_ENTRANT)
    if event.is_fixed_partnerships and player is not None:
        raise refusal(Invalid, Code.NEEDS_PARTNERSHIP, how="register a partnership")
    if not event.is_fixed_partnerships and partnership is not None:
        raise refusal(Invalid, Code.NEEDS_PLAYER, how="register players one by one")
    require_same_club(event.club, *(o for o in (player, partnership) if o is not None),
                      what="player or partnership")


def _players_of(registration: Registration) -> set[int]:
    if registration.player_id:
        return {registration.player_id}
    pair = partnership_of(registration)
    return {pair.player_a_id, pair.player_b_id}


def _refuse_double_entry(event: Event, player: Player | None, partnership: Partnership | None) -> None:
    if player is not None:
        wanted = {player.pk}
    else:
        wanted = {partnership.player_a_id, partnership.player_b_id} if partnership else set()
    for registration in event.registrations.select_related("partnership", "player"):
        clash = wanted & _players_of(registration)
        if clash:
            raise refusal(Conflict, Code.ALREADY_REGISTERED, entry=registration.player or registration.partnership)


def _registration_create(event: Event, player: Player | None,
                         partnership: Partnership | None) -> Registration:
    # Two directors adding the same player at once would both pass the duplicate check.
    event = lock_event(event.pk)
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    _check_entrant(event, player, partnership)
    _refuse_double_entry(event, player, partnership)
    late = event.status == Event.Status.RUNNING
    return Registration.objects.create(
        event=event, player=player, partnership=partnership, checked_in=late,
        joins_at_rotation=selectors.last_played_rotation_number(event=event) + 1 if late else 1,
    )


@transaction.atomic
def registration_add(
    *, event: Event, player: Player | None = None, partnership: Partnership | None = None,
    by: User | None = None,
) -> Registration:
    """Enter a player (rotating partners) or a partnership (fixed formats).

    While the event runs this is a late arrival: checked in, joining at the first rotation not
    yet started (a drafted one must then be seated again to include them).
    """
    registration = _registration_create(event, player, partnership)
    name = selectors.registration_name(registration=registration)
    if registration.joins_at_rotation > 1 or event.status == Event.Status.RUNNING:
        summary = (f"Late entry: {name}, checked in, plays from rotation "
                   f"{registration.joins_at_rotation}.")
    else:
        summary = f"Entered {name}."
    audit_record(club=event.club, event=event, user=by, action="registration_add",
                 summary=summary, data={"registration_id": registration.pk})
    return registration


@transaction.atomic
def registration_remove(*, registration: Registration, by: User | None = None) -> None:
    """Take back an entry made by mistake, while the entrant is in no rotation yet (seated or
    sitting out); once they are, withdraw them instead."""
    event = lock_event(registration.event_id)
    registration = Registration.objects.select_related("partnership", "player").get(pk=registration.pk)
    name = selectors.registration_name(registration=registration)
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    placed = [r.number for r in event.rotations.order_by("number")
              if _players_of(registration) & _rotation_player_ids(r)]
    if placed:
        raise refusal(Conflict, Code.ALREADY_SEATED, name=name, rotation=placed[0])
    registration.delete()
    audit_record(club=event.club, event=event, user=by, action="registration_remove",
                 summary=f"Took back the entry of {name}.")


@transaction.atomic
def registration_add_entrant(*, event: Event, players: Sequence[Player | str],
                             by: User | None = None) -> Registration:
    """Enter existing players or new ones by name: one for rotating partners, two (a
    partnership) for fixed formats. New players are created only if the entry succeeds."""
    needed = 2 if event.is_fixed_partnerships else 1
    if len(players) != needed:
        what = "two players (a partnership)" if needed == 2 else "one player"
        raise refusal(Invalid, Code.BAD_ENTRY_SIZE, what=what)
    resolved = [
        p if isinstance(p, Player) else player_create(club=event.club, name=p) for p in players
    ]
    if needed == 1:
        return registration_add(event=event, player=resolved[0], by=by)
    pair = partnership_get_or_create(club=event.club, player_a=resolved[0], player_b=resolved[1])
    return registration_add(event=event, partnership=pair, by=by)


def _fresh_registration(registration: Registration) -> Registration:
    return Registration.objects.select_related("event", "player", "partnership").get(pk=registration.pk)


@transaction.atomic
def registration_check_in(*, registration: Registration, checked_in: bool = True,
                          by: User | None = None) -> Registration:
    """Check one entrant in (or out again); logged when it changes anything."""
    registration = _fresh_registration(registration)
    event = registration.event
    name = selectors.registration_name(registration=registration)
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    if registration.withdrawn_after_rotation is not None:
        raise refusal(Conflict, Code.WITHDRAWN, name=name)
    if registration.checked_in == checked_in:
        return registration
    registration.checked_in = checked_in
    registration.save(update_fields=["checked_in"])
    audit_record(club=event.club, event=event, user=by, action="check_in",
                 summary=f"Checked in {name}." if checked_in else f"{name} is no longer checked in.",
                 data={"registration_id": registration.pk, "checked_in": checked_in})
    return registration


@transaction.atomic
def registration_withdraw(*, registration: Registration, by: User | None = None) -> Registration:
    """Withdraw between rotations: the entrant keeps the rotations already played, no more."""
    # A withdrawal racing "generate rotation" could leave the entrant seated after withdrawing.
    event = lock_event(registration.event_id)
    registration = Registration.objects.select_related("partnership").get(pk=registration.pk)
    if registration.withdrawn_after_rotation is not None:
        raise refusal(Conflict, Code.WITHDRAWN, name=selectors.registration_name(registration=registration))
    draft = event.rotations.filter(status=Rotation.Status.DRAFT).first()
    if draft and _players_of(registration) & _rotation_player_ids(draft):
        raise refusal(Conflict, Code.SEATED_IN_DRAFT, draft_number=draft.number, name=selectors.registration_name(registration=registration))
    registration.withdrawn_after_rotation = selectors.last_played_rotation_number(event=event)
    registration.save(update_fields=["withdrawn_after_rotation"])
    audit_record(club=event.club, event=event, user=by, action="registration_withdraw",
                 summary=f"Withdrew {selectors.registration_name(registration=registration)}.",
                 data={"registration_id": registration.pk})
    return registration


@transaction.atomic
def registration_reinstate(*, registration: Registration, by: User | None = None) -> Registration:
    """Undo a withdrawal: the entrant plays again from the next rotation seated."""
    registration = _fresh_registration(registration)
    if registration.event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    if registration.withdrawn_after_rotation is None:
        raise refusal(Conflict, Code.NOT_WITHDRAWN, name=selectors.registration_name(registration=registration))
    registration.withdrawn_after_rotation = None
    registration.save(update_fields=["withdrawn_after_rotation"])
    event = registration.event
    audit_record(club=event.club, event=event, user=by, action="registration_reinstate",
                 summary=f"{selectors.registration_name(registration=registration)} plays again.",
                 data={"registration_id": registration.pk})
    return registration


def _rotation_player_ids(rotation: Rotation) -> set[int]:
    seated = set(rotation.seats.values_list("player_id", flat=True))
    return seated | set(rotation.sit_outs.values_list("player_id", flat=True))


@transaction.atomic
def registration_add_players(*, event: Event, choices: Sequence[Player | str],
                             by: User | None = None) -> list[Registration]:
    """Enter many players of a rotating-partners event at once: existing players as they are,
    new ones (names) created first. Players already entered are skipped. All or nothing."""
    if event.is_fixed_partnerships:
        raise refusal(Invalid, Code.NEEDS_PARTNERSHIP, how="paste two names per line")
    entered = set(event.registrations.values_list("player_id", flat=True))
    players = (choice if isinstance(choice, Player) else player_add(club=event.club, name=choice, by=by)
               for choice in choices)
    return _enter_new(event, players, entered, by=by, noun="player", separator=", ")


@transaction.atomic
def registration_add_partnerships(*, event: Event, pairs: Sequence[tuple[Player | str, Player | str]],
                                  by: User | None = None) -> list[Registration]:
    """Enter many partnerships of a fixed-partnership event at once: each pair of existing
    players (or names of new ones, created first; a new name typed twice is one player) as
    their partnership. Partnerships already entered are skipped. All or nothing."""
    if not event.is_fixed_partnerships:
        raise refusal(Invalid, Code.NEEDS_PLAYER, how="paste one name per line")
    new_players: dict[str, Player] = {}

    def resolved(choice: Player | str) -> Player:
        if isinstance(choice, Player):
            return choice
        key = name_key(choice)
        if key not in new_players:
            new_players[key] = player_add(club=event.club, name=choice, by=by)
        return new_players[key]

    entered = set(event.registrations.exclude(partnership=None).values_list("partnership_id", flat=True))
    partnerships = (partnership_get_or_create(club=event.club, player_a=resolved(a), player_b=resolved(b))
                    for a, b in pairs)
    return _enter_new(event, partnerships, entered, by=by, noun="partnership", separator="; ")


def _enter_new(event: Event, entrants: Iterable[Player | Partnership], entered: set[int], *,
               by: User | None, noun: str, separator: str) -> list[Registration]:
    """Enter each of `entrants` (made one by one as it is read) not yet `entered` (their ids),
    and write one audit line for the bulk entry (none when nothing was entered)."""
    created: list[Registration] = []
    names: list[str] = []
    for entrant in entrants:
        if entrant.pk in entered:
            continue
        entered.add(entrant.pk)
        player, partnership = (entrant, None) if isinstance(entrant, Player) else (None, entrant)
        created.append(_registration_create(event, player, partnership))
        names.append(str(entrant))
    if created:
        audit_record(club=event.club, event=event, user=by, action="registrations_add",
                     summary=f"Entered {len(created)} {noun}{'s' if len(created) != 1 else ''}: "
                     f"{separator.join(names)[:240]}.", data={"registration_ids": [r.pk for r in created]})
    return created


@transaction.atomic
def registration_check_in_all(*, event: Event, by: User | None = None) -> list[int]:
    """Check in every entrant not yet checked in (withdrawn ones stay out). Returns their ids."""
    event = lock_event(event.pk)
    if event.status == Event.Status.FINISHED:
        raise refusal(Conflict, Code.EVENT_FINISHED)
    ids = list(selectors.event_entrants(event=event).filter(checked_in=False).values_list("pk", flat=True))
    if not ids:
        raise refusal(Conflict, Code.NOTHING_TO_DO)
    Registration.objects.filter(pk__in=ids).update(checked_in=True)
    audit_record(club=event.club, event=event, user=by, action="check_in_all",
                 summary=f"Checked in all {len(ids)} waiting entrant{'s' if len(ids) != 1 else ''}.",
                 data={"registration_ids": ids})
    return ids

"""A club's players and its fixed partnerships: adding (after the close names were offered),
renaming, merging two records of one person, retiring, each logged in the audit log."""

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.errors import Conflict, Invalid
from league.errors import Code, refusal
from league.models import Club, Partnership, Player, Registration, Seat, SitOut, Substitution
from league.services._common import (
    apply_given,
    require_name,
    require_same_club,
    unique_slug,
)
from league.services.audit import audit_record
from league.signals import player_merged, player_name_changed

# The longest name a player row holds (its field's max_length).
NAME_MAX_LENGTH: int = getattr(Player._meta.get_field("name"), "max_length", None) or 120


def player_create(*, club: Club, name: str, user: User | None = None) -> Player:
    name = require_name(name, "player")
    return Player.objects.create(
        club=club, name=name, slug=unique_slug(club.players.all(), name, fallback="player"), user=user
    )


def player_update(*, player: Player, name: str | None = None, user: User | None = None) -> Player:
    return apply_given(player, "player", name=name, user=user)


def partnership_create(*, club: Club, player_a: Player, player_b: Player, name: str = "") -> Partnership:
    """Two players of the club as one side; stored in canonical order (lower id first)."""
    if player_a.pk == player_b.pk:
        raise refusal(Invalid, Code.BAD_PARTNERSHIP)
    require_same_club(club, player_a, player_b, what="player")
    first, second = sorted((player_a, player_b), key=lambda p: p.pk)
    if Partnership.objects.filter(player_a=first, player_b=second).exists():
        raise refusal(Conflict, Code.PARTNERSHIP_EXISTS, first=first, second=second)
    return Partnership.objects.create(club=club, player_a=first, player_b=second, name=name.strip())


def partnership_get_or_create(*, club: Club, player_a: Player, player_b: Player) -> Partnership:
    first, second = sorted((player_a, player_b), key=lambda p: p.pk)
    existing = Partnership.objects.filter(player_a=first, player_b=second).first()
    return existing or partnership_create(club=club, player_a=first, player_b=second)


@transaction.atomic
def player_add(*, club: Club, name: str, by: User | None = None) -> Player:
    """A new player of the club (the caller has offered the close matches first)."""
    player = player_create(club=club, name=name)
    audit_record(club=club, user=by, action="player_add", player=player,
                 summary=f"Added player {player.name}.")
    return player


@transaction.atomic
def player_rename(*, player: Player, name: str, by: User | None = None) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    name = (name or "").strip()
    if not name:
        raise refusal(Invalid, Code.BAD_NAME, field='name', what="player")
    if len(name) > NAME_MAX_LENGTH:
        raise refusal(Invalid, Code.NAME_TOO_LONG, field='name')
    if name == player.name:
        return player
    clash = player.club.players.exclude(pk=player.pk).filter(name__iexact=name).first()
    if clash:
        raise refusal(Conflict, Code.DUPLICATE, field='name', name=clash.name)
    old = player.name
    player.name = name
    player.save(update_fields=["name"])
    player_name_changed.send(sender=Player, player_id=player.pk)
    audit_record(club=player.club, user=by, action="player_rename", player=player,
                 summary=f"Renamed {old} to {name}.", data={"old": old, "new": name})
    return player


@transaction.atomic
def player_retire(*, player: Player, by: User | None = None) -> Player:
    """No longer offered for new entries; results, ratings and history stay."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.retired_at is not None:
        raise refusal(Conflict, Code.ALREADY_RETIRED, name=player.name)
    player.retired_at = timezone.now()
    player.save(update_fields=["retired_at"])
    audit_record(club=player.club, user=by, action="player_retire", player=player,
                 summary=f"Retired {player.name}.")
    return player


@transaction.atomic
def player_reinstate(*, player: Player, by: User | None = None) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.retired_at is None:
        raise refusal(Conflict, Code.NOT_RETIRED, name=player.name)
    player.retired_at = None
    player.save(update_fields=["retired_at"])
    audit_record(club=player.club, user=by, action="player_reinstate", player=player,
                 summary=f"Brought {player.name} back from retirement.")
    return player


def _refuse_overlap(source: Player, target: Player) -> None:
    """Two records that sat in one rotation, or entered one event, are two people."""
    shared = (
        Seat.objects.filter(player=source, rotation__seats__player=target)
        .select_related("rotation__event").first()
        or SitOut.objects.filter(player=source, rotation__seats__player=target)
        .select_related("rotation__event").first()
        or SitOut.objects.filter(player=source, rotation__sit_outs__player=target)
        .select_related("rotation__event").first()
        or Seat.objects.filter(player=source, rotation__sit_outs__player=target)
        .select_related("rotation__event").first()
    )
    if shared:
        rotation = shared.rotation
        raise refusal(Conflict, Code.NOT_SAME_PERSON, source_name=source.name, target_name=target.name, rotation_number=rotation.number, event_name=rotation.event.name)
    both = Registration.objects.filter(player=source, event__registrations__player=target).first()
    if both:
        raise refusal(Conflict, Code.BOTH_ENTERED, source_name=source.name, target_name=target.name, event_name=both.event.name)


def _move_partnerships(source: Player, target: Player) -> None:
    for pair in Partnership.objects.filter(Q(player_a=source) | Q(player_b=source)):
        other_id = pair.player_b_id if pair.player_a_id == source.pk else pair.player_a_id
        if other_id == target.pk:
            raise refusal(Conflict, Code.WERE_PARTNERS, source_name=source.name, target_name=target.name)
        low, high = sorted((other_id, target.pk))
        existing = Partnership.objects.filter(player_a_id=low, player_b_id=high).first()
        if existing:
            pair.registrations.update(partnership=existing)
            pair.delete()
        else:
            Partnership.objects.filter(pk=pair.pk).update(player_a_id=low, player_b_id=high)


@transaction.atomic
def player_merge(*, source: Player, target: Player, by: User | None = None) -> Player:
    """Make `source` and `target` one player: every seat, sit-out, entry, substitution and
    partnership of `source` becomes `target`'s (results, ratings and statistics follow when the
    layers above recompute), and `source` is deleted. Refused when the two cannot be one person."""
    if source.pk == target.pk:
        raise refusal(Invalid, Code.BAD_MERGE)
    if source.club_id != target.club_id:
        raise refusal(Invalid, Code.MERGE_ACROSS_CLUBS)
    # Lock both (in id order) so a concurrent entry of either waits for the merge.
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk])
              .order_by("pk")}
    source, target = locked[source.pk], locked[target.pk]
    _refuse_overlap(source, target)
    _move_partnerships(source, target)
    Seat.objects.filter(player=source).update(player=target)
    Seat.objects.filter(substitute_for=source).update(substitute_for=target)
    Substitution.objects.filter(member=source).update(member=target)
    Substitution.objects.filter(substitute=source).update(substitute=target)
    SitOut.objects.filter(player=source).update(player=target)
    Registration.objects.filter(player=source).update(player=target)
    if target.user_id is None and source.user_id is not None:
        target.user_id = source.user_id
        target.save(update_fields=["user"])
    player_merged.send(sender=Player, club=target.club, source_id=source.pk, target_id=target.pk)
    audit_record(club=target.club, user=by, action="player_merge", player=target,
                 summary=f"Merged {source.name} into {target.name}.",
                 data={"source_id": source.pk, "source_name": source.name})
    source.delete()
    return target

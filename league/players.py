"""A club's players as a director keeps them: matching a typed name against the players the club
already has, renaming, merging two records of one person, retiring and bringing back.

Writes are keyword-only `player_<action>` functions that refuse with `LeagueError` and change
nothing, and log who did what in the audit log (`league.audit`).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone

from league.audit import audit_record
from league.models import Club, Partnership, Player, Registration, Seat, SitOut
from league.services import LeagueError, player_create

# Sent inside the merge's transaction, after every league row has moved to `target`:
# layers above (results, analytics) move or drop their own rows of `source`.
# Arguments: club, source_id, target_id.
player_merged = Signal()

CLOSE_ENOUGH = 0.8


def name_key(name: str) -> str:
    """A name as compared: accents dropped, case folded, punctuation and extra spaces removed."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = re.sub(r"[^\w\s]", " ", bare.casefold()).split()
    return " ".join(words)


def _similarity(a: str, b: str) -> float:
    if a == b:
        return 1.0
    if re.findall(r"\d+", a) != re.findall(r"\d+", b):
        return 0.0  # "Table 1" and "Table 2", "Newcomer 1" and "Newcomer 2": never the same
    if sorted(a.split()) == sorted(b.split()):
        return 0.99  # "Hopper Grace" is "Grace Hopper"
    return difflib.SequenceMatcher(None, a, b).ratio()


@dataclass(frozen=True)
class NameMatch:
    player: Player
    similarity: float

    @property
    def exact(self) -> bool:
        return self.similarity == 1.0


def player_matches(*, club: Club, name: str, limit: int = 3,
                   exclude: Player | None = None) -> list[NameMatch]:
    """The club's players whose name is the same as `name` or close to it, best first."""
    wanted = name_key(name)
    if not wanted:
        return []
    players = club.players.all() if exclude is None else club.players.exclude(pk=exclude.pk)
    scored = [NameMatch(p, _similarity(wanted, name_key(p.name))) for p in players]
    close = [m for m in scored if m.similarity >= CLOSE_ENOUGH]
    close.sort(key=lambda m: (-m.similarity, m.player.retired_at is not None, m.player.name))
    return close[:limit]


def possible_duplicates(*, club: Club) -> dict[int, list[Player]]:
    """Player id → other players of the club whose names are close to theirs."""
    players = list(club.players.all())
    keys = {p.pk: name_key(p.name) for p in players}
    found: dict[int, list[Player]] = {}
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            if _similarity(keys[a.pk], keys[b.pk]) >= CLOSE_ENOUGH:
                found.setdefault(a.pk, []).append(b)
                found.setdefault(b.pk, []).append(a)
    return found


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
        raise LeagueError("BAD_NAME", "The player needs a name.", field="name")
    if len(name) > Player._meta.get_field("name").max_length:
        raise LeagueError("BAD_NAME", "That name is too long (120 characters at most).", field="name")
    if name == player.name:
        return player
    clash = player.club.players.exclude(pk=player.pk).filter(name__iexact=name).first()
    if clash:
        raise LeagueError("DUPLICATE", f"{clash.name} is already a player of the club: merge the two "
                          "instead of giving them one name.", field="name")
    old = player.name
    player.name = name
    player.save(update_fields=["name"])
    audit_record(club=player.club, user=by, action="player_rename", player=player,
                 summary=f"Renamed {old} to {name}.", data={"old": old, "new": name})
    return player


@transaction.atomic
def player_retire(*, player: Player, by: User | None = None) -> Player:
    """No longer offered for new entries; results, ratings and history stay."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.retired_at is not None:
        raise LeagueError("ALREADY_RETIRED", f"{player.name} is already retired.")
    player.retired_at = timezone.now()
    player.save(update_fields=["retired_at"])
    audit_record(club=player.club, user=by, action="player_retire", player=player,
                 summary=f"Retired {player.name}.")
    return player


@transaction.atomic
def player_reinstate(*, player: Player, by: User | None = None) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.retired_at is None:
        raise LeagueError("NOT_RETIRED", f"{player.name} is not retired.")
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
        raise LeagueError(
            "NOT_SAME_PERSON",
            f"{source.name} and {target.name} both played rotation {rotation.number} of "
            f"{rotation.event.name}: they are two different people.",
        )
    both = Registration.objects.filter(player=source, event__registrations__player=target).first()
    if both:
        raise LeagueError(
            "NOT_SAME_PERSON",
            f"{source.name} and {target.name} are both entered in {both.event.name}: withdraw the "
            "duplicate entry's registration there first, or they are two different people.",
        )


def _move_partnerships(source: Player, target: Player) -> None:
    for pair in Partnership.objects.filter(Q(player_a=source) | Q(player_b=source)):
        other_id = pair.player_b_id if pair.player_a_id == source.pk else pair.player_a_id
        if other_id == target.pk:
            raise LeagueError("NOT_SAME_PERSON",
                              f"{source.name} and {target.name} were partners: two different people.")
        low, high = sorted((other_id, target.pk))
        existing = Partnership.objects.filter(player_a_id=low, player_b_id=high).first()
        if existing:
            pair.registrations.update(partnership=existing)
            pair.delete()
        else:
            Partnership.objects.filter(pk=pair.pk).update(player_a_id=low, player_b_id=high)


@transaction.atomic
def player_merge(*, source: Player, target: Player, by: User | None = None) -> Player:
    """Make `source` and `target` one player: every seat, sit-out, entry and partnership of
    `source` becomes `target`'s (results, ratings and statistics follow when the layers above
    recompute), and `source` is deleted. Refused when the two cannot be one person."""
    if source.pk == target.pk:
        raise LeagueError("BAD_MERGE", "Choose two different players to merge.")
    if source.club_id != target.club_id:
        raise LeagueError("WRONG_CLUB", "Only players of one club can be merged.")
    # Lock both (in id order) so a concurrent entry of either waits for the merge.
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk])
              .order_by("pk")}
    source, target = locked[source.pk], locked[target.pk]
    _refuse_overlap(source, target)
    _move_partnerships(source, target)
    Seat.objects.filter(player=source).update(player=target)
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

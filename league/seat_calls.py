"""Seat calls (issue 47): where each player goes when a rotation is seated, in the table's words
("Rotation 3: table 4, seat 2, partner Ann L."), read for the wall, a player's own page and the
seat-call mail. Names as each player chose to show them (`seat_label`); a substitute's seat reads
"played by X for Y".

The reads are small and bounded by the room, never by the club's history: a player's page polls
`player_seat_calls` every second (the latest started rotation of tonight's nights, and only the
tables the player's players sit at)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.contrib.auth.models import User
from django.db.models import Q

from league.models import AuditEntry, Event, Game, Player, Rotation, Seat, SitOut, Table
from league.templatetags.substitutes import seat_label
from league.time_zones import club_today


@dataclass(frozen=True)
class SeatCall:
    """One player's place in one rotation: a table and seat (from 1), or sitting out (table 0)."""

    rotation: int
    player_id: int
    name: str  # as the player chose to show it ("Ann L.", "Player 7")
    table: int = 0
    seat: int = 0
    partners: tuple[str, ...] = ()
    playing_for: str = ""  # the absent member this player plays for (a substitute)
    played_by: str = ""  # the substitute playing this player's seat tonight

    @property
    def sits_out(self) -> bool:
        return self.table == 0

    @property
    def place(self) -> str:
        """"table 4, seat 2" (the wall's line), or "sits out"."""
        return "sits out" if self.sits_out else f"table {self.table}, seat {self.seat}"

    @property
    def words(self) -> str:
        """What the player is told: "Rotation 3: table 4, seat 2, partner Ann L."."""
        head = f"Rotation {self.rotation}:"
        if self.played_by:
            return f"{head} {self.played_by} plays your seat at table {self.table}, seat {self.seat}."
        if self.sits_out:
            return f"{head} you sit out."
        line = f"{head} {self.place}"
        if self.playing_for:
            line += f", playing for {self.playing_for}"
        if self.partners:
            line += f", partner{'s' if len(self.partners) > 1 else ''} {_and(self.partners)}"
        return line if line.endswith(".") else line + "."  # "partner Cy P." ends a sentence


def _and(names: Iterable[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def _calls(rotations: dict[int, int], seats: list[Seat], sit_outs: list[SitOut],
           only: set[int] | None = None) -> list[SeatCall]:
    """The calls of `seats` and `sit_outs` (rotation id → number in `rotations`); with `only`,
    just the calls of those players (a member whose seat a substitute plays included)."""
    by_side: dict[tuple[int, int], list[Seat]] = defaultdict(list)
    for seat in seats:
        by_side[(seat.table_id, seat.side)].append(seat)
    calls = []
    for seat in seats:
        number, table, place = rotations[seat.rotation_id], seat.table.number, seat.seat_number + 1
        partners = tuple(seat_label(s) for s in by_side[(seat.table_id, seat.side)] if s.pk != seat.pk)
        member = seat.substitute_for if seat.substitute_for_id else None
        if only is None or seat.player_id in only:
            calls.append(SeatCall(number, seat.player_id, seat.player.shown_name, table, place,
                                  partners, playing_for=member.shown_name if member else ""))
        if member is not None and only is not None and member.pk in only:
            calls.append(SeatCall(number, member.pk, member.shown_name, table, place,
                                  played_by=seat.player.shown_name))
    calls += [SeatCall(rotation=rotations[s.rotation_id], player_id=s.player_id,
                       name=s.player.shown_name)
              for s in sit_outs if only is None or s.player_id in only]
    return calls


def rotation_seat_calls(*, rotation: Rotation) -> list[SeatCall]:
    """Everyone's call in `rotation`, by name as shown (two queries)."""
    seats = list(Seat.objects.filter(rotation=rotation)
                 .select_related("player", "substitute_for", "table")
                 .order_by("table__number", "seat_number"))
    sit_outs = list(SitOut.objects.filter(rotation=rotation).select_related("player"))
    return _in_name_order(_calls({rotation.pk: rotation.number}, seats, sit_outs))


def _in_name_order(calls: list[SeatCall]) -> list[SeatCall]:
    return sorted(calls, key=lambda c: (c.name.casefold(), c.player_id))


def seated_rotation_calls(*, rotation: Rotation) -> list[SeatCall]:
    """The calls of the players of `rotation`'s tables without a result yet (and its sit-outs
    while one is left: a table whose result is in has found its seats, and the wall gives the
    room back to the scores), from its seating loaded already (`selectors.rotations_with_seating`,
    as the wall keeps it): no query."""
    tables = [t for t in rotation.tables.all() if _waiting(t)]
    if not tables:
        return []
    seats = [seat for table in tables for seat in table.seats.all()]
    return _in_name_order(_calls({rotation.pk: rotation.number}, seats, list(rotation.sit_outs.all())))


def _waiting(table: Table) -> bool:
    try:
        game = table.game
    except Game.DoesNotExist:
        return True
    return game is None or game.status == Game.Status.PENDING


def latest_started_rotation(*, event: Event) -> Rotation | None:
    """The rotation being played: the latest one started and not closed."""
    return event.rotations.filter(status=Rotation.Status.STARTED).order_by("-number").first()


@dataclass(frozen=True)
class NightCalls:
    event_name: str
    player_name: str
    calls: tuple[SeatCall, ...]


def player_seat_calls(*, user: User) -> list[NightCalls]:
    """The signed-in person's calls tonight: per night of their clubs being played now (its
    latest started rotation), where each of their players goes. At most four small queries."""
    players = list(Player.objects.filter(user=user).select_related("club"))
    if not players:
        return []
    tonight = reduce(or_, (Q(event__club_id=p.club_id, event__date=club_today(p.club)) for p in players))
    latest: dict[int, Rotation] = {}
    for rotation in (Rotation.objects.filter(tonight, status=Rotation.Status.STARTED)
                     .select_related("event").order_by("event__date", "event_id", "-number")):
        latest.setdefault(rotation.event_id, rotation)
    if not latest:
        return []
    ids = {p.pk for p in players}
    numbers = {r.pk: r.number for r in latest.values()}
    mine = Seat.objects.filter(Q(player_id__in=ids) | Q(substitute_for_id__in=ids),
                               rotation_id__in=numbers).values("table_id")
    seats = list(Seat.objects.filter(table_id__in=mine)
                 .select_related("player", "substitute_for", "table").order_by("table__number", "seat_number"))
    sit_outs = list(SitOut.objects.filter(rotation_id__in=numbers, player_id__in=ids).select_related("player"))
    nights = []
    for rotation in latest.values():
        calls = _calls(numbers, [s for s in seats if s.rotation_id == rotation.pk],
                       [s for s in sit_outs if s.rotation_id == rotation.pk], only=ids)
        for player in players:
            own = tuple(c for c in calls if c.player_id == player.pk)
            if own:
                nights.append(NightCalls(rotation.event.name, player.name, own))
    return nights


@dataclass(frozen=True)
class OpenNoShow:
    """A player marked as a no-show who still sits in that rotation: the fix is still to make."""

    rotation_id: int
    player_id: int
    name: str  # the full name: the director's page


NO_SHOW_ACTION = "no_show"  # the History line of a no-show (`league.services.no_shows`)


def event_open_no_shows(*, event: Event) -> dict[int, list[OpenNoShow]]:
    """Rotation id → its no-shows still seated (drafts and started rotations), two queries."""
    marked = {(e.data.get("rotation_id"), e.player_id): e for e in
              AuditEntry.objects.filter(event=event, action=NO_SHOW_ACTION, undone_at__isnull=True,
                                        player__isnull=False).select_related("player")}
    if not marked:
        return {}
    still = Seat.objects.filter(rotation__event=event, player_id__in={p for _, p in marked},
                                rotation__status__in=[Rotation.Status.DRAFT, Rotation.Status.STARTED])
    found: dict[int, list[OpenNoShow]] = defaultdict(list)
    for rotation_id, player_id in still.values_list("rotation_id", "player_id").order_by("player__name"):
        entry = marked.get((rotation_id, player_id))
        if entry is not None and entry.player is not None:
            found[rotation_id].append(OpenNoShow(rotation_id, player_id, entry.player.name))
    return dict(found)

"""Whom a substitute's result counts for: the one place the analytics read `Seat.substitute_for`.

A seat whose player plays for an absent member (`Seat.substitute_for`) is credited by its
league's choice (`League.substitute_counts_for`):

  member      the absent member: the seat counts as theirs (the substitute's own row and
              rating get nothing).
  substitute  the substitute, like any seat.
  neither     nobody: the seat is left out (the other players' results stay).

With a cap (`League.substitute_cap`), a member's substituted nights of one season beyond the cap,
in date order, count for nobody. A night outside a league's season counts for the substitute.
In fixed-partnership events the side is the entrant: a side one of whose seats counts for nobody
counts for nobody (its opponents keep their results).

`seat_credits` reads the substituted seats of some games (a fixed number of queries, whatever
the history); `Credits.seats` turns the (game, side, player) rows every analytics reader loads
into the rows as counted. The standings, ratings and statistics selectors call it; nothing else
needs to know about substitutes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet

from league.models import Event, Game, League, Seat, shown_name
from league.names import played_by

SeatRow = tuple[int, int, int]  # game id, side, player id


@dataclass(frozen=True)
class Credits:
    """The substituted seats of some games: (game id, seat's player) → the player the seat
    counts for, None for nobody; and the games of fixed partnerships."""

    by_seat: dict[tuple[int, int], int | None] = field(default_factory=dict)
    fixed_games: frozenset[int] = frozenset()

    def player(self, game_id: int, player_id: int) -> int | None:
        """Whom this player's seat in this game counts for (None: nobody)."""
        return self.by_seat.get((game_id, player_id), player_id)

    def seats(self, rows: Iterable[SeatRow]) -> list[SeatRow]:
        """The rows as counted: each seat under the player it counts for; seats (and, in fixed
        partnerships, sides) that count for nobody left out."""
        rows = list(rows)
        if not self.by_seat:
            return rows
        nobody = {(game_id, side) for game_id, side, player_id in rows
                  if game_id in self.fixed_games and self.player(game_id, player_id) is None}
        counted = []
        for game_id, side, player_id in rows:
            credited = self.player(game_id, player_id)
            if credited is not None and (game_id, side) not in nobody:
                counted.append((game_id, side, credited))
        return counted


def _capped_out(substituted: list[tuple]) -> set[tuple[int, int]]:
    """(event id, member id) of the substituted nights beyond their league's cap."""
    capped = {(row[5], row[2]) for row in substituted if row[5] is not None and row[7] is not None}
    if not capped:
        return set()
    seasons = {season for season, _ in capped}
    members = {member for _, member in capped}
    nights = (Seat.objects.filter(substitute_for_id__in=members, rotation__event__season_id__in=seasons)
              .order_by().values_list("substitute_for_id", "rotation__event__season_id",
                                      "rotation__event__date", "rotation__event_id",
                                      "rotation__event__season__league__substitute_cap")
              .distinct())
    by_member: dict[tuple[int, int], set[tuple]] = defaultdict(set)
    caps: dict[int, int] = {}
    for member, season, date, event_id, cap in nights:
        if (season, member) in capped and cap is not None:
            by_member[(season, member)].add((date, event_id))
            caps[season] = cap
    out = set()
    for (season, member), events in by_member.items():
        for _, event_id in sorted(events)[caps[season]:]:
            out.add((event_id, member))
    return out


def _credit(choice: str | None, player_id: int, member_id: int) -> int | None:
    if choice is None or choice == League.SubstituteCountsFor.SUBSTITUTE:
        return player_id
    if choice == League.SubstituteCountsFor.MEMBER:
        return member_id
    return None


def seat_credits(*, games: QuerySet[Game] | list[int] | None = None,
                 seat_filter: Q | None = None) -> Credits:
    """The credits of the substituted seats of these games (ids, or a QuerySet of Game), or
    of the seats matched by `seat_filter` (a Q on Seat)."""
    matched = Q(table__game__in=games) if games is not None else seat_filter or Q()
    substituted = list(
        Seat.objects.filter(matched, substitute_for__isnull=False).order_by()
        .values_list("table__game__id", "player_id", "substitute_for_id", "rotation__event_id",
                     "rotation__event__format", "rotation__event__season_id",
                     "rotation__event__season__league__substitute_counts_for",
                     "rotation__event__season__league__substitute_cap"))
    if not substituted:
        return Credits()
    capped_out = _capped_out(substituted)
    by_seat: dict[tuple[int, int], int | None] = {}
    fixed = set()
    for game_id, player_id, member_id, event_id, event_format, season, choice, _ in substituted:
        chosen = choice if season is not None else None
        by_seat[(game_id, player_id)] = (
            None if (event_id, member_id) in capped_out else _credit(chosen, player_id, member_id))
        if event_format != Event.Format.ROTATING:
            fixed.add(game_id)
    return Credits(by_seat, frozenset(fixed))


def substituted_game_filter(*, player_ids: Iterable[int]) -> Q:
    """A Q on Seat: the seats these players sat in, and those played for them by a substitute
    (a member's games that may count for them)."""
    ids = list(player_ids)
    return Q(player_id__in=ids) | Q(substitute_for_id__in=ids)


def substitute_notes(rows: list[dict], *, event_id: int) -> list[dict]:
    """The event's standings rows, each row of a substitute or of the member they played for
    with a `note` in words ("played by Sam for Ann"), names as shown in public."""
    pairs = (Seat.objects.filter(rotation__event_id=event_id, substitute_for__isnull=False,
                                 table__game__round_results__isnull=False)
             .order_by("rotation__number").values_list(
                 "player_id", "player__name", "player__name_shown", "substitute_for_id",
                 "substitute_for__name", "substitute_for__name_shown").distinct())
    notes: dict[int, list[str]] = defaultdict(list)
    for sub_id, sub_name, sub_shown, member_id, member_name, member_shown in pairs:
        words = played_by(shown_name(sub_id, sub_name, sub_shown),
                          shown_name(member_id, member_name, member_shown))
        for player_id in (sub_id, member_id):
            if words not in notes[player_id]:
                notes[player_id].append(words)
    if not notes:
        return rows
    for row in rows:
        said = [w for p in row.get("players", ()) for w in notes.get(p, ())]
        if said:
            row["note"] = "; ".join(dict.fromkeys(said))
    return rows


def substituted_rotations(*, event_id: int) -> dict[int, set[int]]:
    """Member id → the rotations of the event with a confirmed game someone played for them: a
    partnership is not given a bye for a rotation its substitute played, whoever it counts for."""
    rotations: dict[int, set[int]] = defaultdict(set)
    for member_id, number in (Seat.objects.filter(rotation__event_id=event_id, substitute_for__isnull=False,
                                                  table__game__round_results__isnull=False)
                              .order_by().values_list("substitute_for_id", "rotation__number").distinct()):
        rotations[member_id].add(number)
    return rotations

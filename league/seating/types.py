"""Plain data types shared by every part of the seating generator (no Django)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

FORMATS = ("rotating", "swiss", "round_robin", "progressive")
ODD_HANDLING = ("sit_out", "table_of_six")
# Who sits out when the players do not fill the tables (rotating partners):
# - "fewest": the players who have sat out least so far; a rotation missed by arriving late is
#   not a sit-out, and among equals the latest arrival sits out first (then the seed), so nobody
#   who was there from the start sits out to seat a latecomer before everyone has sat out once;
# - "latecomers": players who arrived late sit out before anyone who was there from the start
#   (among them, fewest sit-outs first);
# - "seat_order": in turn, in the order the players were entered (fewest sit-outs first, then
#   the first entered).
SIT_OUT_RULES = ("fewest", "latecomers", "seat_order")
# What a seating wish asks (see wishes.py): two players never partners, or never at one table;
# a pair who should partner once in the season; a player who must not sit out, or keeps one
# seat all night (and so never sits out either).
WISH_KINDS = ("not_partners", "not_meet", "partner_once", "no_sit_out", "fixed_seat")
PAIR_WISHES = ("not_partners", "not_meet", "partner_once")
HARD_WISHES = ("not_partners", "not_meet", "no_sit_out", "fixed_seat")


class SeatingError(ValueError):
    """A seating request or a proposed rotation that cannot be accepted.

    The message says in plain words what is wrong, so it can be shown to a director as is.
    """


@dataclass(frozen=True)
class TablePlan:
    seats: tuple[int, ...]  # entrant player ids in clockwise seat order (seat 0 first)
    sides: tuple[tuple[int, ...], ...]  # players of each side; side k = seats k, k+sides, ...
    first_dealer: int  # player id of the round-1 dealer


@dataclass(frozen=True)
class RotationPlan:
    tables: tuple[TablePlan, ...]
    sit_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class Wish:
    """One seating wish: `other` for pair wishes, `table` and `seat` (from 1) for a fixed seat."""

    kind: str  # one of WISH_KINDS
    player: int
    other: int | None = None
    table: int | None = None
    seat: int | None = None


@dataclass(frozen=True)
class SeatingRequest:
    format: str  # "rotating" | "swiss" | "round_robin" | "progressive"
    players: tuple[int, ...]  # active player ids (rotating); fixed formats: players of partnerships
    partnerships: tuple[tuple[int, int], ...] = ()  # fixed formats: each side's two player ids
    rotations: int = 1  # total rotations of the event
    table_size: int = 4  # 4 or 6 (6 = odd handling by tables of six)
    six_sides: int = 2  # at a table of 6: 2 sides of three or 3 sides of two
    odd_handling: str = "sit_out"  # "sit_out" | "table_of_six"
    seed: int = 0
    sit_out_rule: str = "fewest"  # one of SIT_OUT_RULES; `players` is in entry order
    played: tuple[RotationPlan, ...] = ()  # rotations already played: kept exactly as they are
    # parallel to `played`: player id -> their side's game score in that rotation
    points: tuple[Mapping[int, int], ...] = ()
    # earlier nights (events) of the season, oldest first, each its rotations as played:
    # rotating partners are planned against them (see season.py); () plans the night alone
    season: tuple[tuple[RotationPlan, ...], ...] = ()
    # the night's and the season's wishes (rotating partners; see wishes.py)
    wishes: tuple[Wish, ...] = ()

"""Seating wishes: a director adds what the seating must keep for a night (or a whole season),
and takes it away again. The seating generator keeps them (`league.seating.wish_rules`) and says
of each whether it was kept (`league.seating.wishes`)."""

from django.contrib.auth.models import User
from django.db import transaction

from core.errors import Conflict, Invalid
from league.errors import Code, refusal
from league.models import Club, Event, Player, Season, SeatingWish
from league.services._common import require_same_club
from league.services.audit import audit_record

MAX_TABLE = 500
MAX_SEAT = 6


def _club_of(event: Event | None, season: Season | None) -> Club:
    if event is not None and season is None:
        if event.status == Event.Status.FINISHED:
            raise refusal(Conflict, Code.WISH_CLOSED, event_name=event.name)
        return event.club
    if season is not None and event is None:
        return season.league.club
    raise refusal(Invalid, Code.WISH_FOR)


def _check_shape(kind: str, player: Player, other: Player | None,
                 table_number: int | None, seat_number: int | None) -> None:
    if kind not in SeatingWish.Kind.values:
        raise refusal(Invalid, Code.BAD_KIND, field="kind", what="A wish",
                      choices=", ".join(SeatingWish.Kind.values), value=kind)
    if kind in SeatingWish.PAIR_KINDS:
        if other is None:
            raise refusal(Invalid, Code.WISH_NEEDS_OTHER, field="other",
                          kind=SeatingWish.Kind(kind).label.lower())
        if other.pk == player.pk:
            raise refusal(Invalid, Code.WISH_SAME_PLAYER, field="other")
    if kind == SeatingWish.Kind.FIXED_SEAT and not (
            isinstance(table_number, int) and 1 <= table_number <= MAX_TABLE
            and isinstance(seat_number, int) and 1 <= seat_number <= MAX_SEAT):
        raise refusal(Invalid, Code.WISH_BAD_SEAT, field="table_number")


@transaction.atomic
def seating_wish_add(*, kind: str, player: Player, other: Player | None = None,
                     table_number: int | None = None, seat_number: int | None = None,
                     event: Event | None = None, season: Season | None = None,
                     by: User | None = None) -> SeatingWish:
    """A wish for the night `event`, or for every night of `season`."""
    club = _club_of(event, season)
    _check_shape(kind, player, other, table_number, seat_number)
    require_same_club(club, *(p for p in (player, other) if p is not None), what="player")
    pair = kind in SeatingWish.PAIR_KINDS
    seat = kind == SeatingWish.Kind.FIXED_SEAT
    values = {"kind": kind, "player": player, "other": other if pair else None,
              "table_number": table_number if seat else None,
              "seat_number": seat_number if seat else None}
    same = SeatingWish.objects.filter(event=event, season=season, **values)
    if pair and other is not None:  # the pair in the other order is the same wish
        same = same | SeatingWish.objects.filter(event=event, season=season, kind=kind,
                                                 player=other, other=player)
    if same.exists():
        raise refusal(Conflict, Code.WISH_EXISTS)
    wish = SeatingWish.objects.create(event=event, season=season, **values)
    audit_record(club=club, event=event, user=by, action="seating_wish_add",
                 summary=f"Seating wish added{' for the season' if season else ''}: "
                 f"{wish_summary(wish)}.", data={"wish_id": wish.pk})
    return wish


@transaction.atomic
def seating_wish_remove(*, wish: SeatingWish, by: User | None = None) -> None:
    event, season = wish.event, wish.season
    club = _club_of(event, season)
    summary = wish_summary(wish)
    wish.delete()
    audit_record(club=club, event=event, user=by, action="seating_wish_remove",
                 summary=f"Seating wish removed{' from the season' if season else ''}: {summary}.")


def wish_summary(wish: SeatingWish) -> str:
    """The wish in words, with the players' names."""
    kind = SeatingWish.Kind
    if wish.kind == kind.FIXED_SEAT:
        return f"{wish.player.name} keeps table {wish.table_number}, seat {wish.seat_number} all night"
    if wish.kind == kind.NO_SIT_OUT:
        return f"{wish.player.name} must not sit out"
    other = wish.other.name if wish.other else "?"
    return {
        kind.NOT_PARTNERS: f"{wish.player.name} and {other} must not be partners",
        kind.NOT_MEET: f"{wish.player.name} and {other} must not meet at a table",
        kind.PARTNER_ONCE: f"{wish.player.name} and {other} should partner once this season",
    }[kind(wish.kind)]

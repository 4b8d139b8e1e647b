"""The game at its table: a side's link or code, the seats and sides, the rules in force."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from core.compiled_query import CompiledQuery
from core.errors import Invalid
from games.errors import Code, refusal
from handfoot.errors import EngineError
from handfoot.rules import RuleSet, rules_from_spec
from league.models import Event, Game, Seat, SideCredential
from league.permissions import visible_events
from league.services.credentials import code_normalise


def games_with_results(*, user: User | AnonymousUser) -> QuerySet[Game]:
    """Games of events this user may read, with what a result listing shows."""
    return (
        Game.objects.filter(table__rotation__event__in=visible_events(user))
        .select_related("table__rotation__event__club")
        .order_by("-table__rotation__event__date", "table__rotation__number", "table__number")
    )


_PUBLIC_GAME = CompiledQuery(
    lambda game_id: games_with_results(user=AnonymousUser()).filter(pk=game_id), game_id=int)


def game_with_results(*, user: User | AnonymousUser, game_id: int) -> Game | None:
    """One game of `games_with_results`, or None. A table's phone (not signed in) polls its
    result every few seconds: its query is built once per process."""
    if user.is_authenticated:
        return games_with_results(user=user).filter(pk=game_id).first()
    return next(iter(_PUBLIC_GAME.run(game_id=game_id)), None)


@dataclass(frozen=True)
class TableLink:
    """A side's table credential as presented: its game and the side it enters for."""

    game: Game
    side: int
    token: str


def _credential_link(credential: SideCredential | None) -> TableLink | None:
    if credential is None:
        return None
    return TableLink(game=credential.game, side=credential.side, token=credential.token)


# Every request from a table's phone starts here (its page, each entry, each poll).
_CREDENTIAL_BY_TOKEN = CompiledQuery(
    lambda token: SideCredential.objects.select_related("game__table__rotation__event__club")
    .filter(token=token).order_by("pk")[:1], token=str)


def table_link_by_token(*, token: str) -> TableLink | None:
    """The side link with this token, if any."""
    if not token or len(token) > 64:
        return None
    return _credential_link(next(iter(_CREDENTIAL_BY_TOKEN.run(token=token)), None))


def table_link_by_code(*, code: str) -> TableLink | None:
    """The side code typed at /play/, if any: as printed, typed in small letters, with dashes
    or spaces (`league.services.credentials.code_normalise`)."""
    cleaned = code_normalise(code)
    if cleaned is None:
        return None
    return _credential_link(
        SideCredential.objects.select_related("game").filter(code=cleaned).first()
    )


def game_event(*, game: Game) -> Event:
    return game.table.rotation.event


@dataclass(frozen=True)
class SideSeats:
    side: int
    names: list[str]

    @property
    def label(self) -> str:
        return " & ".join(self.names)


_TABLE_SEATS = CompiledQuery(
    lambda table_id: Seat.objects.filter(table_id=table_id)
    .select_related("player", "substitute_for").order_by("seat_number"), table_id=int)


def game_seats(*, game: Game) -> list[Seat]:
    """The game's seats with their players, in seat order (one query; a request that needs them
    more than once reads `game_table` once and passes it on)."""
    return _TABLE_SEATS.run(table_id=game.table_id)


def game_seat_players(*, game_id: int) -> list[int]:
    """The players' numbers (ids) in seat order: a move log's seat index is its position here
    (the API names a seat's player by number, not by the slug the log was written with)."""
    return list(Seat.objects.filter(table__game=game_id).order_by("seat_number")
                .values_list("player_id", flat=True))


def seats_sides(seats: list[Seat] | tuple[Seat, ...], *, shown: bool = False) -> list[SideSeats]:
    """Seats (in seat order) as the table's sides in the engine's order, with their players:
    their real names, or (`shown`) their names as each chose to show them in public."""
    sides: dict[int, list[str]] = {}
    for seat in seats:
        sides.setdefault(seat.side, []).append(
            seat.player.shown_name if shown else seat.player.name)
    return [SideSeats(side, names) for side, names in sorted(sides.items())]


def game_sides(*, game: Game) -> list[SideSeats]:
    """The table's sides in the engine's order (side 0 holds seat 0), with their players' real
    names (the director's room, the table's own page, history)."""
    return seats_sides(game_seats(game=game))


def game_sides_shown(*, game: Game) -> list[SideSeats]:
    """`game_sides` with the names as each player chose to show them (`Player.shown_name`):
    what public pages (the replay) and the public API show."""
    return seats_sides(game_seats(game=game), shown=True)


@dataclass(frozen=True)
class GameTable:
    """This game's table, read once per request (`game_table`) and passed down through entry,
    intake, the engine and projection: its seats with their players, its sides and the event's
    rule set, parsed. The fields besides `seats` and `event` are what the engine needs (a
    table of the spreadsheet import has only those)."""

    rules: RuleSet
    rules_spec: Any
    first_dealer: int = 0
    players: list[str] = field(default_factory=list)  # slugs in seat order
    player_ids: list[int] = field(default_factory=list)
    sides: int = 2
    seats: tuple[Seat, ...] = ()
    event: Event | None = None

    @property
    def side_seats(self) -> list[SideSeats]:
        """The sides with their players' names (side 0 holds seat 0)."""
        return seats_sides(self.seats)

    @property
    def seat_names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]


def event_rules(*, event: Event) -> RuleSet:
    """The event's rule set, parsed (refused when the stored spec is not valid)."""
    try:
        return rules_from_spec(event.rules_spec)
    except EngineError as err:
        raise refusal(Invalid, Code.BAD_RULES, reason=err.message) from None


def game_table(*, game: Game) -> GameTable:
    """The game's table: one query for its seats and one parse of the event's rules."""
    event = game.table.rotation.event
    return game_table_of(game=game, seats=tuple(game_seats(game=game)), event=event,
                         rules=event_rules(event=event))


def game_table_of(*, game: Game, seats: tuple[Seat, ...], event: Event, rules: RuleSet) -> GameTable:
    """The game's table from its seats (in seat order), event and rules already read: for a
    caller that reads many games' seats at once (the bulk import)."""
    return GameTable(
        rules=rules,
        rules_spec=event.rules_spec,
        first_dealer=game.first_dealer,
        players=[s.player.slug for s in seats],
        player_ids=[s.player_id for s in seats],
        sides=len({s.side for s in seats}) or 2,
        seats=seats,
        event=event,
    )

"""Divisions (flights) of a season: adding them, placing the season's players, and at the
season's end promotion and relegation, proposed from the final tables (`promotion_propose`,
pure) and confirmed by a director into the next season (`divisions_promotion_confirm`).

The tables come from the analytics (the layer above), so the page that shows a proposal passes
them in; the league never reads standings itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from core.errors import Conflict, Invalid
from league.errors import Code, refusal
from league.models import Division, DivisionPlace, Player, Season
from league.services._common import require_name
from league.services.audit import audit_record
from league.signals import divisions_changed

MAX_DIVISIONS = 50  # the database's division_number_range
Who = User | AnonymousUser | None


def _changed(season: Season) -> None:
    season_id = season.pk
    transaction.on_commit(lambda: divisions_changed.send(sender=Season, season_id=season_id))


def _lock_season(season: Season) -> Season:
    return Season.objects.select_related("league__club").select_for_update().get(pk=season.pk)


@transaction.atomic
def division_create(*, season: Season, name: str, by: Who = None) -> Division:
    """A new division below the season's others (numbered from 1, the top)."""
    # Race: two directors adding a division at once would both take the next number.
    season = _lock_season(season)
    name = require_name(name, "division")[:80]
    number = (season.divisions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    if number > MAX_DIVISIONS:
        raise refusal(Invalid, Code.TOO_MANY_DIVISIONS, field="name", most=MAX_DIVISIONS)
    division = Division.objects.create(season=season, name=name, number=number)
    audit_record(club=season.league.club, user=by, action="division_create",
                 summary=f"Added the division {name} (number {number}) to {season}.")
    _changed(season)
    return division


@transaction.atomic
def division_places_set(*, season: Season, places: Mapping[int, int | None],
                        by: Who = None) -> int:
    """Place players (by id) in divisions (by id) of the season; None takes a player out.
    Players not named keep their place. Returns how many places changed."""
    # Race: two directors saving places at once; the season's lock orders them.
    season = _lock_season(season)
    club = season.league.club
    divisions = {d.pk: d for d in season.divisions.all()}
    players = Player.objects.filter(club=club, pk__in=list(places)).in_bulk()
    for player_id, division_id in places.items():
        if player_id not in players:
            raise refusal(Invalid, Code.NOT_A_SEASON_PLAYER, name=f"Player {player_id}", club=club)
        if division_id is not None and division_id not in divisions:
            raise refusal(Invalid, Code.DIVISION_OF_ANOTHER_SEASON, field="division",
                          division=f"Division {division_id}")
    current = dict(DivisionPlace.objects.filter(season=season).values_list("player_id", "division_id"))
    changes = {p: d for p, d in places.items() if current.get(p) != d}
    DivisionPlace.objects.filter(season=season, player_id__in=list(changes)).delete()
    DivisionPlace.objects.bulk_create(
        DivisionPlace(season=season, division_id=d, player_id=p)
        for p, d in changes.items() if d is not None)
    if changes:
        words = "; ".join(f"{players[p].name} {'→ ' + divisions[d].name if d else 'out'}"
                          for p, d in sorted(changes.items(), key=lambda c: players[c[0]].name))
        audit_record(club=club, user=by, action="division_places",
                     summary=f"Division places of {season}: {words}"[:300])
        _changed(season)
    return len(changes)


# --- promotion and relegation ------------------------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    """An entrant of a division's final table: their players, name and place (None: below
    the season's minimum attendance, unranked)."""

    players: tuple[int, ...]
    name: str
    rank: int | None


@dataclass(frozen=True)
class DivisionTable:
    number: int
    name: str
    rows: tuple[TableRow, ...]
    placed: tuple[tuple[int, str], ...] = ()  # every player placed in it: (id, name)


@dataclass(frozen=True)
class Move:
    name: str
    players: tuple[int, ...]
    from_number: int
    to_number: int


@dataclass
class Proposal:
    """Where each placed player goes next season (`placements`: player id → division
    number), the moves among them, and what the director should know, in words."""

    placements: dict[int, int] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _count(n: int) -> str:
    return f"{n} player{'s' if n != 1 else ''}"


def _line_tie(ranked: Sequence[TableRow], cut: int, table: DivisionTable, what: str,
              taken: str) -> str | None:
    """Words for a tie across a promotion or relegation line (`cut`: rows above it)."""
    if not 0 < cut < len(ranked) or ranked[cut - 1].rank != ranked[cut].rank:
        return None
    tied = [r.name for r in ranked if r.rank == ranked[cut].rank]
    return (f"{' and '.join(tied)} share place {ranked[cut].rank} at the {what} line of "
            f"{table.name}: the proposal {taken}, in the table's order; change the places by "
            "hand if the league decides otherwise.")


def _division_moves(table: DivisionTable, places: int, last: int, proposal: Proposal) -> None:
    ranked = [r for r in table.rows if r.rank is not None]
    wanted_up = places if table.number > 1 else 0
    wanted_down = places if table.number < last else 0
    most = len(ranked) // 2 if wanted_up and wanted_down else len(ranked) - 1
    up, down = min(wanted_up, max(most, 0)), min(wanted_down, max(most, 0))
    if (up, down) != (wanted_up, wanted_down):
        parts = [f"{n} go{'es' if n == 1 else ''} {way}" for n, wanted, way in
                 ((up, wanted_up, "up"), (down, wanted_down, "down")) if wanted]
        each = " each way" if wanted_up and wanted_down else ""
        proposal.notes.append(
            f"{table.name} has only {_count(len(ranked))} ranked, too few to move {places}"
            f"{each}: {' and '.join(parts)}.")
    for row in ranked[:up]:
        proposal.moves.append(Move(row.name, row.players, table.number, table.number - 1))
    for row in ranked[len(ranked) - down:] if down else []:
        proposal.moves.append(Move(row.name, row.players, table.number, table.number + 1))
    for note in (_line_tie(ranked, up, table, "promotion", "moves up the one listed first"),
                 _line_tie(ranked, len(ranked) - down, table, "relegation",
                           "moves down the one listed last") if down else None):
        if note:
            proposal.notes.append(note)
    unranked = [r.name for r in table.rows if r.rank is None]
    if unranked:
        proposal.notes.append(f"{', '.join(unranked)} played too few nights to be ranked and "
                              f"stay{'s' if len(unranked) == 1 else ''} in {table.name}.")


def promotion_propose(*, tables: Sequence[DivisionTable], places: int) -> Proposal:
    """The top `places` of division k go up to k − 1, the bottom `places` down to k + 1;
    everyone else placed stays. A division too small for its moves moves fewer (each way at
    most half of its ranked players); ties at a line and unranked players are said in words."""
    proposal = Proposal()
    tables = sorted(tables, key=lambda t: t.number)
    if not tables:
        return proposal
    last = tables[-1].number
    for table in tables:
        for player_id, _name in table.placed:
            proposal.placements[player_id] = table.number
        _division_moves(table, places, last, proposal)
        played = {p for row in table.rows for p in row.players}
        absent = [name for player_id, name in table.placed if player_id not in played]
        if absent:
            proposal.notes.append(f"{', '.join(absent)} played no night this season and "
                                  f"stay{'s' if len(absent) == 1 else ''} in {table.name}.")
    for move in proposal.moves:
        for player_id in move.players:
            proposal.placements[player_id] = move.to_number
    return proposal


@transaction.atomic
def divisions_promotion_confirm(*, season: Season, target: Season, placements: Mapping[int, int],
                                by: Who = None) -> int:
    """Place the season's players in `target` as `placements` says (player id → division
    number of this season), creating `target`'s divisions like this season's. Refused, changing
    nothing, when `target` already has places. Returns the number of players placed."""
    # Race: two directors confirming into one season at once; the target's lock orders them.
    season = _lock_season(season)
    target = _lock_season(target)
    if target.pk == season.pk:
        raise refusal(Invalid, Code.SAME_SEASON, field="target", season=season)
    if target.league_id != season.league_id:
        raise refusal(Invalid, Code.SEASON_OF_ANOTHER_LEAGUE, field="target", season=target)
    if DivisionPlace.objects.filter(season=target).exists():
        raise refusal(Conflict, Code.SEASON_HAS_PLACES, field="target", season=target)
    divisions = list(season.divisions.all())
    if not divisions:
        raise refusal(Conflict, Code.NO_DIVISIONS, season=season)
    placed = set(DivisionPlace.objects.filter(season=season).values_list("player_id", flat=True))
    numbers = {d.number for d in divisions}
    for player_id, number in placements.items():
        if player_id not in placed or number not in numbers:
            raise refusal(Invalid, Code.NOT_A_SEASON_PLAYER, name=f"Player {player_id}",
                          club=season.league.club)
    existing = {d.number: d for d in target.divisions.all()}
    new = {d.number: existing.get(d.number) or Division.objects.create(
        season=target, name=d.name, number=d.number) for d in divisions}
    DivisionPlace.objects.bulk_create(
        DivisionPlace(season=target, division=new[number], player_id=player_id)
        for player_id, number in placements.items())
    audit_record(club=season.league.club, user=by, action="divisions_promotion",
                 summary=f"Confirmed the promotion and relegation of {season}: "
                 f"{_count(len(placements))} placed in the divisions of {target}.")
    _changed(target)
    return len(placements)

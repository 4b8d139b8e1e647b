"""Reads of the handicaps and divisions: what a night's handicaps are computed from (the
players' recent games in the league, their ratings), the frozen handicaps, the stored tables the
pages, the CSV and the API show, and the division tables a promotion proposal is made from. The
pages' reads are a few queries each."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, Sum

from analytics.handicaps.compute import Formula
from analytics.models import HandicapFreeze, NightHandicap, PlayerRating, StandingsTable
from analytics.ratings.compute import shown_rating
from analytics.substitutes import seat_credits, substituted_game_filter
from games.models import RoundResult
from league.models import Division, DivisionPlace, Event, League, Registration, Season, Seat
from league.services.divisions import DivisionTable, TableRow

NightGames = dict[int, list[tuple[tuple[int, int], int]]]


def league_formula(*, event: Event) -> Formula | None:
    """The handicap settings of the event's league now (None: no season, or no handicaps)."""
    league: League | None = event.season.league if event.season_id and event.season else None
    if league is None or league.handicap_formula == League.HandicapFormula.NONE:
        return None
    return Formula(league.handicap_formula, league.handicap_base, league.handicap_percent,
                   league.handicap_cap, league.handicap_nights)


def frozen_formula(freeze: HandicapFreeze) -> Formula:
    return Formula(freeze.formula, freeze.base, freeze.percent, freeze.cap, freeze.nights)


def night_players(*, event: Event) -> set[int]:
    """Everyone entered in the night (players, or both players of each partnership) and
    everyone seated in it."""
    entered = Registration.objects.filter(event=event).values_list(
        "player_id", "partnership__player_a_id", "partnership__player_b_id")
    ids = {p for row in entered for p in row if p is not None}
    ids.update(Seat.objects.filter(rotation__event=event).values_list("player_id", flat=True))
    return ids


def _earlier(event: Event) -> Q:
    """The league's nights before this one (by date, then the order they were made)."""
    return (Q(rotation__event__date__lt=event.date)
            | Q(rotation__event__date=event.date, rotation__event_id__lt=event.pk))


def league_games(*, event: Event, player_ids: Iterable[int]) -> NightGames:
    """Per player, (night's order, game total of their side) of each confirmed game that counts
    for them in the league's nights before `event`: a substitute's seat counts as the league
    chose, as in the standings (`analytics.substitutes`). Three or four queries."""
    if event.season is None:
        return {}
    wanted = set(player_ids)
    played = (Seat.objects.filter(substituted_game_filter(player_ids=wanted),
                                  rotation__event__season__league_id=event.season.league_id)
              .filter(_earlier(event)).values("table__game"))
    seats = list(
        Seat.objects.filter(table__game__in=played).order_by()
        .values_list("table__game__id", "side", "player_id", "rotation__event__date",
                     "rotation__event_id"))
    nights = {game_id: (date.toordinal(), event_id) for game_id, _, _, date, event_id in seats}
    counted = seat_credits(seat_filter=Q(table__game__in=played)).seats(
        (game_id, side, player_id) for game_id, side, player_id, _, _ in seats)
    totals = dict(
        ((game_id, side), total) for game_id, side, total in
        RoundResult.objects.filter(game_id__in=played).order_by()
        .values_list("game_id", "side").annotate(total=Sum("score")).values_list(
            "game_id", "side", "total"))
    games: NightGames = defaultdict(list)
    for game_id, side, player_id in counted:
        total = totals.get((game_id, side))
        if player_id in wanted and total is not None:  # only confirmed results are in RoundResult
            games[player_id].append((nights[game_id], int(total)))
    return games


def ratings(*, player_ids: Iterable[int]) -> dict[int, int]:
    """Each rated player's rating on the 1500 scale, as the pages show it."""
    return {pk: shown_rating(mu) for pk, mu in
            PlayerRating.objects.filter(player_id__in=list(player_ids)).values_list("player_id", "mu")}


def freeze_of(*, event: Event) -> HandicapFreeze | None:
    return HandicapFreeze.objects.filter(event=event).first()


def frozen_handicaps(*, event: Event) -> dict[int, NightHandicap]:
    """The night's frozen handicaps by player id (empty: none frozen)."""
    return {h.player_id: h for h in NightHandicap.objects.filter(event=event)}


# --- the stored tables, for pages, CSV and the API --------------------------------------------


def event_handicapped(*, event: Event) -> StandingsTable | None:
    """The night's handicapped table (None: it has no handicaps; no query for a night outside
    a season, which never has any)."""
    if event.season_id is None:
        return None
    return StandingsTable.objects.filter(event=event, handicapped=True).first()


def season_handicapped(*, season: Season) -> StandingsTable | None:
    return StandingsTable.objects.filter(season=season, division=None, handicapped=True).first()


@dataclass(frozen=True)
class DivisionTables:
    division: Division
    scratch: StandingsTable | None
    handicapped: StandingsTable | None


def season_tables(*, season: Season) -> tuple[StandingsTable | None, list[DivisionTables]]:
    """The season's handicapped table (None: no night has handicaps) and each division with its
    stored tables, top first (a division appears once the standings job has drawn its table).
    One query."""
    handicapped = None
    divisions: dict[int, Division] = {}
    tables: dict[tuple[int, bool], StandingsTable] = {}
    for table in StandingsTable.objects.filter(season=season).select_related("division"):
        if table.division is None:
            handicapped = table if table.handicapped else handicapped
        else:
            divisions[table.division.pk] = table.division
            tables[(table.division.pk, table.handicapped)] = table
    return handicapped, [
        DivisionTables(d, tables.get((d.pk, False)), tables.get((d.pk, True)))
        for d in sorted(divisions.values(), key=lambda d: d.number)]


def division_tables(*, season: Season) -> list[DivisionTables]:
    """Each division of the season (top first) with its stored tables. One query."""
    return season_tables(season=season)[1]


def handicap_explanations(*, event: Event) -> list[tuple[str, int, str]]:
    """(name as shown in public, handicap, how it was computed) of the night's players."""
    rows = (NightHandicap.objects.filter(event=event).select_related("player")
            .order_by("player__name"))
    return [(h.player.shown_name, h.handicap, h.explanation) for h in rows]


def promotion_tables(*, season: Season) -> list[DivisionTable]:
    """Each division's stored scratch table as the promotion proposal reads it, with every
    player placed in it (by their names: a director's page). Three queries."""
    places = (DivisionPlace.objects.filter(season=season).select_related("player")
              .order_by("player__name"))
    placed: dict[int, list[tuple[int, str]]] = defaultdict(list)
    names: dict[int, str] = {}
    for place in places:
        placed[place.division_id].append((place.player_id, place.player.name))
        names[place.player_id] = place.player.name
    tables = []
    for entry in division_tables(season=season):
        rows = entry.scratch.rows if entry.scratch else []
        tables.append(DivisionTable(
            entry.division.number, entry.division.name,
            tuple(TableRow(tuple(r["players"]),
                           " & ".join(names.get(p, r["name"]) for p in r["players"]), r["rank"])
                  for r in rows),
            tuple(placed.get(entry.division.pk, ()))))
    return tables


def event_handicapped_computed_at(*, event: Event) -> datetime | None:
    """When the event's handicapped table was computed (None: it has none), without its rows."""
    if event.season_id is None:
        return None
    return (StandingsTable.objects.filter(event=event, handicapped=True)
            .values_list("computed_at", flat=True).first())

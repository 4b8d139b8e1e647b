"""Reads of the analytics: game results shaped for the computations, and the stored snapshots.

Loading functions use `.values_list()` and a fixed number of queries whatever the data size.
"""

from __future__ import annotations

import hashlib
import io
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

import pandas as pd
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Exists, F, Max, OuterRef, Q, QuerySet, Subquery, Sum

from analytics import standings, statistics
from analytics.models import (
    NightResult,
    PartnershipStats,
    PlayerRating,
    PlayerStats,
    RatingHistory,
    StandingsSnapshot,
)
from analytics.standings import GameResult, SideResult
from games.models import RoundResult, SeatRoundFacts
from league.models import Event, Game, Player, Season, Seat
from league.permissions import visible_events

# Who is looking: results of events they may not see (`visible_events`) never reach them.
Viewer = User | AnonymousUser | None


def game_results(*, game_filter: Q) -> dict[int, GameResult]:
    """Each game's sides (players and game totals), for the games matched by `game_filter`
    (a Q on Game) that have a confirmed result."""
    games = _few_or_all(Game.objects.filter(game_filter))
    totals = (
        RoundResult.objects.filter(game__in=games)
        .values_list("game_id", "side", "game__table__rotation__event_id")
        .annotate(total=Sum("score"), held=Sum("held_points"))
        .order_by()
    )
    seats = Seat.objects.filter(table__game__in=games).order_by().values_list(
        "table__game__id", "side", "player_id"
    )
    players: dict[tuple[int, int], list[int]] = defaultdict(list)
    for game_id, side, player_id in seats:
        players[(game_id, side)].append(player_id)
    sides: dict[int, list[tuple[int, SideResult]]] = defaultdict(list)
    events: dict[int, int] = {}
    for game_id, side, event_id, total, held in totals:
        member_ids = tuple(sorted(players.get((game_id, side), ())))
        sides[game_id].append((side, SideResult(member_ids, int(total), int(held))))
        events[game_id] = event_id
    return {
        game_id: GameResult(game_id, tuple(s for _, s in sorted(entries, key=lambda e: e[0])),
                            events[game_id])
        for game_id, entries in sides.items()
    }


def event_byes(*, event: Event, games: Iterable[GameResult]) -> dict[str, int]:
    """Entrant key → rotations of the event with confirmed games that the entrant did not play,
    although entered and not yet withdrawn (sat out, or arrived late)."""
    rotation_of = dict(
        Game.objects.filter(pk__in=[g.game_id for g in games]).order_by()
        .values_list("pk", "table__rotation__number")
    )
    counted = set(rotation_of.values())
    played: dict[str, set[int]] = defaultdict(set)
    for game in games:
        for side in game.sides:
            keys = ([standings.side_key(side.players)] if event.is_fixed_partnerships
                    else [standings.player_key(p) for p in side.players])
            for key in keys:
                played[key].add(rotation_of[game.game_id])
    byes = {}
    for reg in event.registrations.select_related("partnership"):
        if reg.player_id:
            key = standings.player_key(reg.player_id)
        else:
            key = standings.side_key((reg.partnership.player_a_id, reg.partnership.player_b_id))
        last = reg.withdrawn_after_rotation
        due = {r for r in counted if last is None or r <= last}
        byes[key] = len(due - played[key])
    return byes


def event_standings_rows(*, event: Event, games: Iterable[GameResult],
                         names: Mapping[int, str]) -> list[dict]:
    """The event's ranked standings rows from these game results under the event's settings:
    scoring, tie-breaks, partnerships and how sit-outs count (byes). The one place the event's
    standings rules are applied: the stored snapshot and the what-if both use it."""
    games = sorted(games, key=lambda g: g.game_id)
    byes = (event_byes(event=event, games=games)
            if event.sit_out_scoring != Event.SitOutScoring.NONE else {})
    return standings.event_standings(
        games,
        scoring=event.scoring,
        tie_breaks=event.tie_breaks or [],
        by_side=event.is_fixed_partnerships,
        names=names,
        byes=byes,
        sit_outs=event.sit_out_scoring,
        bye_points=event.bye_points,
    )


FEW_GAMES = 10_000


def _few_or_all(games: QuerySet) -> QuerySet | list[int]:
    """A night's or a few players' games as a list of ids (PostgreSQL then reads their rows by
    index; as a subquery it may scan whole tables), a club's whole history as the subquery."""
    ids = list(games.values_list("pk", flat=True)[:FEW_GAMES + 1])
    return ids if len(ids) <= FEW_GAMES else games


def club_game_order(*, club_id: int) -> list[int]:
    """The club's confirmed games in the order played: event date, rotation, then the time the
    game was played when known, then table."""
    return list(
        Game.objects.filter(table__rotation__event__club_id=club_id, round_results__isnull=False)
        .distinct()
        .order_by(
            "table__rotation__event__date",
            "table__rotation__event_id",
            "table__rotation__number",
            F("played_at").asc(nulls_last=True),
            "table__number",
            "id",
        )
        .values_list("id", flat=True)
    )


def results_versions(*, game_filter: Q) -> dict[int, int]:
    """Each matched game's last result row id: it changes whenever the game's result is
    written again (results are replaced, never updated in place)."""
    return dict(
        RoundResult.objects.filter(game__in=_few_or_all(Game.objects.filter(game_filter)))
        .values("game_id").annotate(version=Max("id")).order_by()
        .values_list("game_id", "version")
    )


OrderKey = tuple[object, ...]


def game_order_keys(*, game_filter: Q) -> dict[int, OrderKey]:
    """The sort key of `club_game_order` of each game matched by `game_filter` (a Q on Game):
    comparing two keys tells which game came first."""
    rows = Game.objects.filter(game_filter).values_list(
        "id", "table__rotation__event__date", "table__rotation__event_id",
        "table__rotation__number", "played_at", "table__number")
    return {game_id: (date, event_id, rotation, played_at is None, played_at or 0, table, game_id)
            for game_id, date, event_id, rotation, played_at, table in rows}


def first_game_id(*, club_id: int) -> int | None:
    order = club_game_order(club_id=club_id)
    return order[0] if order else None


def game_fingerprint(*, game: GameResult) -> str:
    """Changes whenever anything a rating depends on changes (players, sides, totals)."""
    text = "|".join(f"{s.players}:{s.total}" for s in game.sides)
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:16]


def player_names(*, player_ids: Iterable[int]) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=list(player_ids)).values_list("pk", "name"))


def event_standings(*, event: Event) -> StandingsSnapshot | None:
    """The event's stored standings (None before the first recompute)."""
    return StandingsSnapshot.objects.filter(event=event).first()


def event_standings_computed_at(*, event: Event) -> datetime | None:
    """When the event's stored standings were computed (None before the first recompute),
    without reading their rows."""
    return StandingsSnapshot.objects.filter(event=event).values_list("computed_at", flat=True).first()


def season_standings(*, season: Season) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(season=season).first()


def night_results(*, season: Season, keys: Iterable[str] | None = None
                  ) -> tuple[list[standings.Night], dict[str, str]]:
    """The season's nights of every entrant, or of the entrants `keys` only (by index), in
    event order, and each entrant's name on their latest night."""
    rows = NightResult.objects.filter(event__season=season)
    if keys is not None:
        rows = rows.filter(key__in=list(keys))
    nights, names = [], {}
    for event_id, key, players, name, score, total in rows.order_by("event_id", "key").values_list(
            "event_id", "key", "players", "name", "score", "total_points"):
        nights.append(standings.Night(event_id, key, tuple(players), score, total))
        names[key] = name
    return nights, names


def season_games(*, season: Season) -> int:
    """The confirmed games of the season's nights, as their standings counted them."""
    return StandingsSnapshot.objects.filter(event__season=season).aggregate(
        games=Sum("games"))["games"] or 0


def leaderboard_min_games() -> int:
    """Fewest rated games to appear on the leaderboard (setting ANALYTICS_LEADERBOARD_MIN_GAMES)."""
    return getattr(settings, "ANALYTICS_LEADERBOARD_MIN_GAMES", 3)


def leaderboard(*, club_id: int | None, min_games: int) -> list[PlayerRating]:
    ratings = PlayerRating.objects.filter(games__gte=min_games).select_related("player__club")
    if club_id is not None:
        ratings = ratings.filter(club_id=club_id)
    return list(ratings.order_by("-ordinal", "player__name"))


def player_stats(*, player: Player) -> dict:
    stats = PlayerStats.objects.filter(player=player).values_list("data", flat=True).first()
    return stats or {}


def player_partnerships(*, player: Player) -> list[PartnershipStats]:
    return list(
        PartnershipStats.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("player_a", "player_b")
        .order_by("-data__games")
    )


STAT_LABELS = {
    "games": "Games", "wins": "Wins", "ties": "Ties", "losses": "Losses", "win_rate": "Win rate",
    "rounds": "Rounds", "total_points": "Total points", "average_game_total": "Average game total",
    "average_score_round_1": "Average side score, round 1",
    "average_score_round_2": "Average side score, round 2",
    "average_score_round_3": "Average side score, round 3",
    "average_score_round_4": "Average side score, round 4",
    "went_out_rate": "Went out (share of rounds)",
    "clean_books_per_round": "Clean books per round", "dirty_books_per_round": "Dirty books per round",
    "wild_books_per_round": "Wild books per round", "average_held_points": "Average held points",
    "red_threes_per_round": "Red 3s per round", "logged_rounds": "Rounds with a move log",
    "turns_to_foot": "Turns to reach the foot", "pickups_per_round": "Pile pickups per round",
    "wilds_in_dirty_per_round": "Wild cards on dirty melds per round",
    "black_three_blocks_per_round": "Black 3 blocks per round",
    "first_laydown_turn": "Turn of the first lay-down",
    "result_rate": "Result rate (win 1, tie ½)", "expected_rate": "Expected (from ratings)",
    "synergy": "Synergy (result − expected)",
}


# Shares of games or rounds (0..1): pages show them as percentages, CSV keeps the fraction.
RATE_STATS = {"win_rate", "went_out_rate", "result_rate", "expected_rate"}


def stat_rows(*, stats: dict) -> list[tuple[str, object, bool]]:
    """(label, value, is_rate) in a fixed order, for tables and CSV."""
    return [(label, stats[key], key in RATE_STATS)
            for key, label in STAT_LABELS.items() if key in stats]


def player_rating(*, player: Player) -> PlayerRating | None:
    return PlayerRating.objects.filter(player=player).first()


def rating_history(*, player: Player) -> list[tuple[int, float, float]]:
    """(games played, display value, mean) after each of the player's games, in order."""
    return list(
        RatingHistory.objects.filter(player=player).order_by("position")
        .values_list("games", "ordinal", "mu")
    )


@dataclass(frozen=True, slots=True)
class Partner:
    """A partner as the player page lists them (read without building Player rows)."""

    pk: int
    name: str
    slug: str


def player_partners(*, player: Player) -> list[tuple[Partner, dict]]:
    """Each partner of the player with the pair's figures, most frequent first."""
    rows = (PartnershipStats.objects.filter(Q(player_a=player) | Q(player_b=player)).order_by()
            .values_list("player_a_id", "player_a__name", "player_a__slug", "player_b_id",
                         "player_b__name", "player_b__slug", "data"))
    partners = [(Partner(*row[3:6]) if row[0] == player.pk else Partner(*row[0:3]), row[6])
                for row in rows]
    return sorted(partners, key=lambda item: (-(item[1].get("games") or 0), item[0].name))


def partnership_stats(*, a: Player, b: Player) -> dict:
    low, high = sorted([a.pk, b.pk])
    data = PartnershipStats.objects.filter(player_a_id=low, player_b_id=high).values_list(
        "data", flat=True).first()
    return data or {}


def player_game_totals(*, player: Player, viewer: Viewer) -> list[int]:
    """The player's side's total in each confirmed game the viewer may see."""
    return list(
        RoundResult.objects.filter(game__table__rotation__event__in=visible_events(viewer),
                                   game__table__seats__player=player,
                                   game__table__seats__side=F("side"))
        .values("game_id").annotate(total=Sum("score")).order_by()
        .values_list("total", flat=True)
    )


GAME_ROUND_COLUMNS = ["rotation", "table", "round", "side", "players", "score", "went_out",
                      "clean_books", "dirty_books", "wild_books", "red_threes", "held_points",
                      "game_total"]


def event_game_rounds(*, event: Event) -> list[dict]:
    """Every confirmed round of the event's games, one row per side: rotation, table, round and
    side (from 1), the side's players by name, the round's figures and the side's game total."""
    results = list(
        RoundResult.objects.filter(game__table__rotation__event=event)
        .select_related("game__table__rotation")
        .order_by("game__table__rotation__number", "game__table__number", "round_number", "side")
    )
    game_ids = {r.game_id for r in results}
    names: dict[tuple[int, int], list[str]] = defaultdict(list)
    for game_id, side, name in (Seat.objects.filter(table__game__in=game_ids)
                                .order_by("seat_number").values_list("table__game", "side", "player__name")):
        names[(game_id, side)].append(name)
    totals: dict[tuple[int, int], int] = defaultdict(int)
    for r in results:
        totals[(r.game_id, r.side)] += r.score
    return [
        {"rotation": r.game.table.rotation.number, "table": r.game.table.number,
         "round": r.round_number or "game total", "side": r.side + 1,
         "players": " & ".join(names[(r.game_id, r.side)]), "score": r.score,
         **(_round_detail(r) if r.detail else dict.fromkeys(_DETAIL_COLUMNS, "")),
         "game_total": totals[(r.game_id, r.side)]}
        for r in results
    ]


# A totals-only result (RoundResult.detail False) knows none of these: blank, never zero.
_DETAIL_COLUMNS = ("went_out", "clean_books", "dirty_books", "wild_books", "red_threes",
                   "held_points")


def _round_detail(r: RoundResult) -> dict:
    return {"went_out": "yes" if r.went_out else "no", "clean_books": r.clean_books,
            "dirty_books": r.dirty_books, "wild_books": r.wild_books,
            "red_threes": r.red_threes, "held_points": r.held_points}


def head_to_head_games(*, game_ids: list[int], a: set[int]) -> list[dict]:
    """The games of a head-to-head, newest first: event, date, rotation, table, side A's total,
    side B's (the best other side) and A's result."""
    games = (Game.objects.filter(pk__in=game_ids).select_related("table__rotation__event")
             .order_by("-table__rotation__event__date", "-table__rotation__number", "-pk"))
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for game_id, side, total in (
        RoundResult.objects.filter(game_id__in=game_ids).values_list("game_id", "side")
        .annotate(total=Sum("score")).order_by()
    ):
        totals[game_id][side] = total
    sides: dict[int, int] = {}
    for game_id, side in Seat.objects.filter(table__game__in=game_ids, player_id__in=a).values_list(
            "table__game", "side"):
        sides[game_id] = side
    rows = []
    for game in games:
        mine = totals[game.pk].get(sides.get(game.pk), 0)
        theirs = max((t for s, t in totals[game.pk].items() if s != sides.get(game.pk)), default=0)
        rows.append({"event": game.table.rotation.event, "rotation": game.table.rotation.number,
                     "table": game.table.number, "a": mine, "b": theirs,
                     "result": "win" if mine > theirs else "tie" if mine == theirs else "loss"})
    return rows


def recent_games(*, player: Player, limit: int, viewer: Viewer) -> list[dict]:
    """The player's latest confirmed games of events the viewer may see: event, rotation, own
    side total and best other."""
    # Exists, not a join on the results: the join gave a row per round and side to DISTINCT.
    played = RoundResult.objects.filter(game__table_id=OuterRef("table_id"))
    seats = list(
        Seat.objects.filter(Exists(played), player=player,
                            rotation__event__in=visible_events(viewer))
        .select_related("rotation__event", "table__game")
        .order_by("-rotation__event__date", "-rotation__number")[:limit]
    )
    game_ids = [s.table.game.pk for s in seats]
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for game_id, side, total in (
        RoundResult.objects.filter(game_id__in=game_ids).values_list("game_id", "side")
        .annotate(total=Sum("score")).order_by()
    ):
        totals[game_id][side] = total
    games = []
    for seat in seats:
        sides = totals[seat.table.game.pk]
        own = sides.get(seat.side, 0)
        others = [t for s, t in sides.items() if s != seat.side]
        best = max(others, default=0)
        games.append({"event": seat.rotation.event, "rotation": seat.rotation.number,
                      "table": seat.table.number, "own": own, "best_other": best,
                      "result": "win" if own > best else "tie" if own == best else "loss"})
    return games


def _frame(rows: QuerySet, columns: list[str]) -> pd.DataFrame:
    """A values_list queryset as a DataFrame. On PostgreSQL the rows come by COPY as CSV and
    pandas parses them in C: about twice as fast as building a Python tuple per row."""
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or not hasattr(cursor, "mogrify"):
            return statistics.frame(rows, columns)
        try:
            sql, params = rows.query.sql_with_params()
        except EmptyResultSet:  # e.g. `pk__in=[]`: no SQL to run, no rows
            return statistics.frame([], columns)
        buffer = io.BytesIO()
        with cursor.copy(f"COPY ({cursor.mogrify(sql, params)}) TO STDOUT WITH (FORMAT csv)") as copy:
            for data in copy:
                buffer.write(data)
    if not buffer.tell():
        return statistics.frame([], columns)
    buffer.seek(0)
    return pd.read_csv(buffer, names=columns, true_values=["t"], false_values=["f"])


def rounds_frame(*, round_filter: Q) -> pd.DataFrame:
    """RoundResult rows as a DataFrame with `statistics.ROUND_COLUMNS`: only results with
    detail (books, points, going out); totals-only results count for standings and ratings
    but are left out of the statistics, which need the detail."""
    return _frame(
        RoundResult.objects.filter(round_filter, detail=True).order_by("game_id", "round_number", "side")
        .values_list(
            "game_id", "round_number", "side", "score", "clean_books", "dirty_books",
            "wild_books", "red_threes", "table_points", "held_points", "went_out"),
        statistics.ROUND_COLUMNS)


def seats_frame(*, seat_filter: Q) -> pd.DataFrame:
    """Seats of games as a DataFrame with `statistics.SEAT_COLUMNS`."""
    return _frame(
        Seat.objects.filter(seat_filter, table__game__isnull=False)
        .order_by("table_id", "seat_number").values_list("table__game__id", "side", "player_id"),
        statistics.SEAT_COLUMNS)


def player_tables(*, player_ids: list[int], events: QuerySet) -> dict[int, int]:
    """Table id → game id of every game these players sat at in `events` (a QuerySet of
    Event). Two small queries, each by index (one joining seats to games through the tables
    would scan the whole table of tables)."""
    tables = list(Seat.objects.filter(player_id__in=player_ids, rotation__event__in=events)
                  .order_by().values_list("table_id", flat=True).distinct())
    return dict(Game.objects.filter(table_id__in=tables).order_by().values_list("table_id", "pk"))


def table_seats_frame(*, tables: dict[int, int]) -> pd.DataFrame:
    """The seats of these tables (table id → game id) as a DataFrame with
    `statistics.SEAT_COLUMNS`."""
    seats = _frame(Seat.objects.filter(table_id__in=list(tables)).order_by("table_id", "seat_number")
                   .values_list("table_id", "side", "player_id"), ["table", "side", "player"])
    seats.insert(0, "game", seats.pop("table").map(tables))
    return seats.astype({"game": "int64"}) if not seats.empty else seats


def facts_frame(*, facts_filter: Q) -> pd.DataFrame:
    return _frame(
        SeatRoundFacts.objects.filter(facts_filter)
        .order_by("game_id", "round_number", "player_id").values_list(
            "game_id", "round_number", "player_id", "turns", "foot_turn", "pickups",
            "cards_picked_up", "wilds_in_dirty", "black_threes_discarded", "first_laydown_turn"),
        statistics.FACT_COLUMNS)


def history_frame(*, club_id: int, history_filter: Q | None = None) -> pd.DataFrame:
    rows = RatingHistory.objects.filter(club_id=club_id)
    if history_filter is not None:
        rows = rows.filter(history_filter)
    return _frame(rows.order_by("game_id", "player_id").values_list("game_id", "player_id", "expected"),
                  statistics.HISTORY_COLUMNS)


def head_to_head(*, club_id: int, a: set[int], b: set[int], viewer: Viewer) -> dict:
    """Record of the players `a` (one side) against `b` (another side) in the club's games that
    the viewer may see."""
    games = Game.objects.filter(table__rotation__event__in=visible_events(viewer),
                                table__rotation__event__club_id=club_id)
    for player_id in a | b:
        games = games.filter(table__seats__player_id=player_id)
    game_ids = list(games.values_list("pk", flat=True))
    return statistics.head_to_head(rounds_frame(round_filter=Q(game_id__in=game_ids)),
                                   seats_frame(seat_filter=Q(table__game__in=game_ids)), a, b)


def _latest_confirmation(**owner: object) -> Subquery:
    from games.models import ResultVersion

    return Subquery(
        ResultVersion.objects.filter(status=ResultVersion.Status.CONFIRMED, **owner)
        .order_by("-confirmed_at").values("confirmed_at")[:1]
    )


def stale_event_ids(*, confirmed_before: datetime) -> list[int]:
    """Events whose standings snapshot is missing or older than their latest confirmed result
    (confirmed before `confirmed_before`: newer ones are still in their normal job's hands)."""
    latest = _latest_confirmation(game__table__rotation__event=OuterRef("pk"))
    computed = Subquery(
        StandingsSnapshot.objects.filter(event=OuterRef("pk")).values("computed_at")[:1]
    )
    events = (
        Event.objects.annotate(latest=latest, computed=computed)
        .filter(latest__lt=confirmed_before)
        .filter(Q(computed__isnull=True) | Q(computed__lt=F("latest")))
    )
    return list(events.order_by("pk").values_list("pk", flat=True))


def stale_club_ids(*, confirmed_before: datetime) -> list[int]:
    """Clubs whose player statistics (the last job of the chain after ratings) are missing or
    older than the club's latest confirmed result."""
    from league.models import Club

    latest = _latest_confirmation(game__table__rotation__event__club=OuterRef("pk"))
    computed = Subquery(
        PlayerStats.objects.filter(club=OuterRef("pk")).order_by("-computed_at")
        .values("computed_at")[:1]
    )
    clubs = (
        Club.objects.annotate(latest=latest, computed=computed)
        .filter(latest__lt=confirmed_before)
        .filter(Q(computed__isnull=True) | Q(computed__lt=F("latest")))
    )
    return list(clubs.order_by("pk").values_list("pk", flat=True))

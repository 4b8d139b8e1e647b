"""Reads of the statistics job: rounds, seats, move-log facts and rating history as
DataFrames for `analytics.statistics.compute`, and the clubs the stale snapshot sweep
re-queues.

On PostgreSQL the rows come by COPY as CSV (`_frame`); elsewhere from `.values_list()`.
"""

from __future__ import annotations

import io
from datetime import datetime

import pandas as pd
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import F, OuterRef, Q, QuerySet, Subquery

from analytics.models import PlayerStats, RatingHistory
from analytics.standings.selectors import latest_confirmation
from analytics.statistics import compute
from analytics.substitutes import Credits, seat_credits, substituted_game_filter
from games.models import RoundResult, SeatRoundFacts
from league.models import Club, Event, Game, Seat


def _frame(rows: QuerySet, columns: list[str]) -> pd.DataFrame:
    """A values_list queryset as a DataFrame. On PostgreSQL the rows come by COPY as CSV and
    pandas parses them in C: about twice as fast as building a Python tuple per row."""
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or not hasattr(cursor, "mogrify"):
            return compute.frame(rows, columns)
        try:
            sql, params = rows.query.sql_with_params()
        except EmptyResultSet:  # e.g. `pk__in=[]`: no SQL to run, no rows
            return compute.frame([], columns)
        buffer = io.BytesIO()
        with cursor.copy(f"COPY ({cursor.mogrify(sql, params)}) TO STDOUT WITH (FORMAT csv)") as copy:
            for data in copy:
                buffer.write(data)
    if not buffer.tell():
        return compute.frame([], columns)
    buffer.seek(0)
    return pd.read_csv(buffer, names=columns, true_values=["t"], false_values=["f"])


def rounds_frame(*, round_filter: Q) -> pd.DataFrame:
    """RoundResult rows as a DataFrame with `compute.ROUND_COLUMNS`: only results with
    detail (books, points, going out); totals-only results count for standings and ratings
    but are left out of the statistics, which need the detail."""
    return _frame(
        RoundResult.objects.filter(round_filter, detail=True).order_by("game_id", "round_number", "side")
        .values_list("game_id", "round_number", "side", "score", *compute.ROUND_COLUMNS[4:]),
        compute.ROUND_COLUMNS)


def _counted(seats: pd.DataFrame, credits: Credits) -> pd.DataFrame:
    """The seats as counted: a substitute's seat under the player it counts for, or left out
    (`analytics.substitutes`)."""
    if not credits.by_seat or seats.empty:
        return seats
    rows = ((int(g), int(s), int(p)) for g, s, p in
            seats[compute.SEAT_COLUMNS].itertuples(index=False, name=None))
    return compute.frame(credits.seats(rows), compute.SEAT_COLUMNS)


def seats_frame(*, seat_filter: Q) -> pd.DataFrame:
    """Seats of games as a DataFrame with `compute.SEAT_COLUMNS`, each seat under the player
    it counts for."""
    seats = _frame(
        Seat.objects.filter(seat_filter, table__game__isnull=False)
        .order_by("table_id", "seat_number").values_list("table__game__id", "side", "player_id"),
        compute.SEAT_COLUMNS)
    return _counted(seats, seat_credits(seat_filter=seat_filter))


def player_tables(*, player_ids: list[int], events: QuerySet[Event]) -> dict[int, int]:
    """Table id → game id of every game these players sat at in `events` (a QuerySet of
    Event). Two small queries, each by index (one joining seats to games through the tables
    would scan the whole table of tables)."""
    tables = list(Seat.objects.filter(substituted_game_filter(player_ids=player_ids),
                                      rotation__event__in=events)
                  .order_by().values_list("table_id", flat=True).distinct())
    return dict(Game.objects.filter(table_id__in=tables).order_by().values_list("table_id", "pk"))


def table_seats_frame(*, tables: dict[int, int]) -> pd.DataFrame:
    """The seats of these tables (table id → game id) as a DataFrame with
    `compute.SEAT_COLUMNS`."""
    seats = _frame(Seat.objects.filter(table_id__in=list(tables)).order_by("table_id", "seat_number")
                   .values_list("table_id", "side", "player_id"), ["table", "side", "player"])
    seats.insert(0, "game", seats.pop("table").map(tables))
    seats = seats.astype({"game": "int64"}) if not seats.empty else seats
    return _counted(seats, seat_credits(seat_filter=Q(table_id__in=list(tables))))


def facts_frame(*, facts_filter: Q) -> pd.DataFrame:
    """Move-log facts per game, round and player, each under the player the seat counts for
    (a substitute's, as their seat's result; left out when it counts for nobody)."""
    facts = _frame(
        SeatRoundFacts.objects.filter(facts_filter)
        .order_by("game_id", "round_number", "player_id").values_list(
            "game_id", "round_number", "player_id", "turns", "foot_turn", "pickups",
            "cards_picked_up", "wilds_in_dirty", "black_threes_discarded", "first_laydown_turn"),
        compute.FACT_COLUMNS)
    if facts.empty:
        return facts
    played = SeatRoundFacts.objects.filter(facts_filter).values("game_id")
    credits = seat_credits(seat_filter=Q(table__game__in=played))
    if not credits.by_seat:
        return facts
    credited = [credits.player(int(g), int(p)) for g, p in zip(facts["game"], facts["player"], strict=True)]
    facts = facts.assign(player=credited)
    return facts[facts["player"].notna()].astype({"player": "int64"})


def history_frame(*, club_id: int, history_filter: Q | None = None) -> pd.DataFrame:
    rows = RatingHistory.objects.filter(club_id=club_id)
    if history_filter is not None:
        rows = rows.filter(history_filter)
    return _frame(rows.order_by("game_id", "player_id").values_list("game_id", "player_id", "expected"),
                  compute.HISTORY_COLUMNS)


def stale_club_ids(*, confirmed_before: datetime) -> list[int]:
    """Clubs whose player statistics (the last job of the chain after ratings) are missing or
    older than the club's latest confirmed result."""
    latest = latest_confirmation(game__table__rotation__event__club=OuterRef("pk"))
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

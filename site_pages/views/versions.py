"""The version of what an event's public pages show (the event page, the wall), read in two
queries without loading the seating: the key their cached bytes are kept under and their ETag.

It changes with every result version (entered, confirmed, disputed, corrected), game status,
rotation and its status, table, seat (who sits where, for whom, which side), sit-out, entrant,
setting of the event, club, season or league, and every standings snapshot (a player renamed or
shown otherwise redraws the club's snapshots, so names follow). For the tables' clocks (issue
47) also with every entry of a round (withdrawn or not), every extra time given, and the
event's round time and chime on each rotation's row. Per rotation each kind of row is summed
weighted by its id: any one change moves the sum."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection

from analytics.views.page_cache import event_version_row
from games.models import ResultVersion, Submission
from league.models import Event, Game, Rotation, Seat, SitOut, Table, TableExtraTime


def _code(column: str, choices: Any) -> str:
    """A status as a number (its place among the choices), for weighted sums."""
    whens = " ".join(f"WHEN '{value}' THEN {n + 1}" for n, value in enumerate(choices.values))
    return f"(CASE {column} {whens} ELSE 0 END)"


def _rotation_sql() -> str:
    """Per rotation of the event (%s, five times) its status and every kind of row on it,
    counted and summed weighted by id. Plain SQL (PostgreSQL and SQLite): a poll runs it every
    second, and the ORM took longer to build it than the database to answer it."""
    q = connection.ops.quote_name
    rotation, table, seat = q(Rotation._meta.db_table), q(Table._meta.db_table), q(Seat._meta.db_table)
    sit_out, game, version = (q(SitOut._meta.db_table), q(Game._meta.db_table),
                              q(ResultVersion._meta.db_table))
    event, entry, extra = (q(Event._meta.db_table), q(Submission._meta.db_table),
                           q(TableExtraTime._meta.db_table))
    of_event = f"JOIN {rotation} r ON r.id = x.rotation_id WHERE r.event_id = %s GROUP BY x.rotation_id"
    # Table names from the models and statuses from their choices: no outside text (B608).
    return " UNION ALL ".join([
        f"SELECT 'r', r.id, r.number, {_code('r.status', Rotation.Status)}, "  # nosec B608
        "COALESCE(e.round_minutes, 0), CASE WHEN e.wall_chime THEN 1 ELSE 0 END, 0, 0 "
        f"FROM {rotation} r JOIN {event} e ON e.id = r.event_id WHERE r.event_id = %s",
        "SELECT 's', x.rotation_id, COUNT(*), MAX(x.id), SUM(x.player_id * x.id), "  # nosec B608
        "SUM((x.table_id * 16 + x.seat_number) * x.id), SUM(x.side * x.id), "
        f"SUM(COALESCE(x.substitute_for_id, 0) * x.id) FROM {seat} x {of_event}",
        f"SELECT 't', x.rotation_id, COUNT(*), MAX(x.id), SUM(x.number * x.id), 0, 0, 0 "  # nosec B608
        f"FROM {table} x {of_event}",
        f"SELECT 'o', x.rotation_id, COUNT(*), MAX(x.id), SUM(x.player_id * x.id), 0, 0, 0 "  # nosec B608
        f"FROM {sit_out} x {of_event}",
        f"SELECT 'g', x.rotation_id, COUNT(*), MAX(g.id), SUM({_code('g.status', Game.Status)} * g.id), "  # nosec B608
        f"SUM(g.first_dealer * g.id), 0, 0 FROM {game} g JOIN {table} x ON x.id = g.table_id {of_event}",
        f"SELECT 'v', x.rotation_id, COUNT(*), MAX(v.id), "  # nosec B608
        f"SUM({_code('v.status', ResultVersion.Status)} * v.id), 0, 0, 0 FROM {version} v "
        f"JOIN {game} g ON g.id = v.game_id JOIN {table} x ON x.id = g.table_id {of_event}",
        "SELECT 'e', x.rotation_id, COUNT(*), MAX(s.id), "  # nosec B608
        "SUM(CASE WHEN s.withdrawn_at IS NULL THEN s.id ELSE 0 END), "
        f"SUM(COALESCE(s.round_number, 0) * s.id), 0, 0 FROM {entry} s "
        f"JOIN {game} g ON g.id = s.game_id JOIN {table} x ON x.id = g.table_id {of_event}",
        f"SELECT 'x', x.rotation_id, COUNT(*), MAX(m.id), SUM(m.minutes * m.id), "  # nosec B608
        f"SUM(m.round_number * m.id), 0, 0 FROM {extra} m JOIN {table} x ON x.id = m.table_id {of_event}",
    ]) + " ORDER BY 1, 2"


_ROTATION_SQL: list[str] = []


def _rotation_rows(event_id: int) -> list[tuple]:
    if not _ROTATION_SQL:
        _ROTATION_SQL.append(_rotation_sql())
    with connection.cursor() as cursor:
        cursor.execute(_ROTATION_SQL[0], [event_id] * _ROTATION_SQL[0].count("%s"))
        return [tuple(row) for row in cursor.fetchall()]


def event_version(*, user: User | AnonymousUser, slug: str) -> tuple:
    """What the event's pages show, as a value (404 alike for an event the viewer may not see)."""
    row = event_version_row(user=user, slug=slug)
    return (row, _rotation_rows(row[0]))

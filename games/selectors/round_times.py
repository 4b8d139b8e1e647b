"""The rounds of a night's tables in time (`league.pace.TableRounds`), read from when each
round's first entry arrived: the clocks, the slow tables and the night's forecast start here."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime

from django.db.models import Count

from games.models import ResultVersion, Submission
from games.selectors.tables import event_rules
from handfoot.errors import EngineError
from league.models import Club, Event, Game, Rotation, Table, TableExtraTime
from league.pace.rounds import TableRounds

# The club's past nights a forecast learns from: enough for a club's usual pace, bounded so a
# page's work does not grow with the club's history.
PAST_NIGHTS = 20


def _arrivals(game_ids: list[int]) -> dict[int, tuple[dict[int, datetime], datetime | None]]:
    """Game id → (round number → its first entry's time, the first move log's time)."""
    firsts: dict[int, dict[int, datetime]] = defaultdict(dict)
    logs: dict[int, datetime] = {}
    rows = (Submission.objects.filter(game_id__in=game_ids, withdrawn_at__isnull=True)
            .order_by("created_at", "pk").values_list("game_id", "kind", "round_number", "created_at"))
    for game_id, kind, round_number, at in rows:
        if kind == Submission.Kind.LOG:
            logs.setdefault(game_id, at)
        elif round_number is not None:
            firsts[game_id].setdefault(round_number, at)
    return {g: (firsts.get(g, {}), logs.get(g)) for g in game_ids}


def _confirmations(game_ids: list[int]) -> dict[int, datetime]:
    """Game id → when its result was first confirmed (a result a director entered whole)."""
    rows = (ResultVersion.objects.filter(game_id__in=game_ids, confirmed_at__isnull=False)
            .order_by("confirmed_at").values_list("game_id", "confirmed_at"))
    confirmed: dict[int, datetime] = {}
    for game_id, at in rows:
        if at is not None:
            confirmed.setdefault(game_id, at)
    return confirmed


def _ends(firsts: dict[int, datetime], rounds: int) -> tuple[datetime, ...]:
    """The rounds entered in order from the first, stopping at the first gap."""
    ends: list[datetime] = []
    for number in range(1, rounds + 1):
        if number not in firsts:
            break
        ends.append(firsts[number])
    return tuple(ends)


def _done_at(ends: tuple[datetime, ...], rounds: int, log_at: datetime | None,
             confirmed_at: datetime | None) -> datetime | None:
    candidates = [at for at in (log_at, confirmed_at) if at is not None]
    if len(ends) >= rounds:
        candidates.append(ends[rounds - 1])
    return min(candidates) if candidates else None


def _rounds_of(event: Event) -> int:
    try:
        return event_rules(event=event).rounds
    except (EngineError, ValueError):
        return 4


def _extra_minutes(table_ids: list[int]) -> dict[int, dict[int, int]]:
    extra: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, number, minutes in (TableExtraTime.objects.filter(table_id__in=table_ids)
                                      .values_list("table_id", "round_number", "minutes")):
        extra[table_id][number] = extra[table_id].get(number, 0) + minutes
    return extra


def tables_round_times(*, tables: Iterable[Table]) -> list[TableRounds]:
    """Each of these tables (rotation, event and game loaded, `players` annotated) in time."""
    tables = list(tables)
    games = {t.pk: game for t in tables if (game := _game_of(t)) is not None}
    game_ids = [g.pk for g in games.values()]
    arrivals = _arrivals(game_ids)
    confirmed = _confirmations(game_ids)
    extra = _extra_minutes([t.pk for t in tables])
    rounds_by_event: dict[int, int] = {}
    rows = []
    for table in tables:
        event = table.rotation.event
        rounds = rounds_by_event.setdefault(event.pk, _rounds_of(event))
        game = games.get(table.pk)
        firsts, log_at = arrivals[game.pk] if game else ({}, None)
        ends = _ends(firsts, rounds)
        rows.append(TableRounds(
            table_id=table.pk, rotation_number=table.rotation.number, table_number=table.number,
            players=getattr(table, "players", 0), preset=event.rules_preset, rounds=rounds,
            started_at=table.rotation.started_at, ends=ends,
            done_at=_done_at(ends, rounds, log_at, confirmed.get(game.pk) if game else None),
            extra_minutes=extra.get(table.pk, {})))
    return rows


def _game_of(table: Table) -> Game | None:
    try:
        return table.game
    except Game.DoesNotExist:
        return None


def _tables(**filters: object) -> list[Table]:
    return list(
        Table.objects.filter(**filters).exclude(rotation__status=Rotation.Status.DRAFT)
        .select_related("rotation__event", "game").annotate(players=Count("seats"))
        .order_by("rotation__event__date", "rotation__number", "number"))


def event_round_times(*, event: Event) -> list[TableRounds]:
    """The event's tables of every started or closed rotation, in time (a few queries)."""
    return tables_round_times(tables=_tables(rotation__event=event))


def club_past_round_times(*, club: Club, before: Event) -> list[TableRounds]:
    """The tables of the club's last `PAST_NIGHTS` nights before this one, in time: the pace the
    club usually plays at."""
    past = [pk for pk, _date in
            Event.objects.filter(club=club, date__lt=before.date, rotations__started_at__isnull=False)
            .values_list("pk", "date").distinct().order_by("-date", "-pk")[:PAST_NIGHTS]]
    return tables_round_times(tables=_tables(rotation__event__in=past))

"""Writes of the standings job: each event's snapshot and its lines for the season
(`NightResult`), and the seasons' snapshots added up from those lines.

Every snapshot is replaced inside one transaction, so a job killed half-way leaves the previous
one in place. Every function recomputes from the database, so running one twice is harmless.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Collection, Iterable

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from analytics import bulk
from analytics.models import NightResult, StandingsSnapshot
from analytics.standings import compute, selectors
from analytics.standings.compute import GameResult
from league.models import Event, Season


def _event_snapshot_store(event: Event, games: list[GameResult], names: dict[int, str]
                          ) -> StandingsSnapshot:
    rows = selectors.event_standings_rows(event=event, games=games, names=names)
    return _snapshot_replace(event=event, games=len(games), rows=rows)


def _snapshot_replace(*, games: int, rows: list[dict], basis: str = "", **owner: Event | Season
                      ) -> StandingsSnapshot:
    """Overwrite the owner's snapshot in one UPDATE (update_or_create would first read and
    decode the old rows), or create the first one."""
    values = {"computed_at": timezone.now(), "games": games, "rows": rows, "basis": basis}
    if not StandingsSnapshot.objects.filter(**owner).update(**values):
        return StandingsSnapshot.objects.create(**owner, **values)
    return StandingsSnapshot(**owner, **values)


NIGHT_COLUMNS = ["event_id", "key", "players", "name", "score", "total_points"]


def _night_rows(event_id: int, rows: Iterable[dict]) -> Iterable[tuple]:
    return ((event_id, r["key"], r["players"], r["name"], r["score"], r["total_points"])
            for r in rows)


def _night_results_replace(event: Event, rows: list[dict]) -> set[str]:
    """Replace the event's `NightResult` lines by its new standings rows. Returns the entrants
    whose lines changed (appeared, went or moved)."""
    # repr: 300 and 300.0 differ (a switch to per-game scoring), as they do in the rows.
    old = {line[0]: repr(line) for line in NightResult.objects.filter(event=event).values_list(
        "key", "players", "name", "score", "total_points")}
    NightResult.objects.filter(event=event).delete()
    bulk.rows_insert(NightResult, NIGHT_COLUMNS, _night_rows(event.pk, rows))
    new = {row[1]: repr(row[1:]) for row in _night_rows(event.pk, rows)}
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def players_of(games: Iterable[GameResult]) -> set[int]:
    """Every player of these games."""
    return {p for g in games for s in g.sides for p in s.players}


def _event_standings_refresh(event: Event) -> tuple[StandingsSnapshot, set[str]]:
    games = list(selectors.game_results(game_filter=Q(table__rotation__event=event)).values())
    snapshot = _event_snapshot_store(event, games,
                                     selectors.player_names(player_ids=players_of(games)))
    return snapshot, _night_results_replace(event, snapshot.rows)


def event_standings_refresh(*, event: Event) -> StandingsSnapshot:
    """Recompute the event's standings from its confirmed games and store them (and its lines
    for the season standings)."""
    return _event_standings_refresh(event)[0]


def club_standings_recompute(*, club_id: int) -> int:
    """Recompute the standings of every event and season of the club, loading the games once
    (a full rebuild, e.g. after an import). Returns the number of events."""
    games = selectors.game_results(game_filter=Q(table__rotation__event__club_id=club_id))
    by_event: dict[int, list[GameResult]] = defaultdict(list)
    for game in games.values():
        by_event[game.event_id].append(game)
    names = selectors.player_names(player_ids=players_of(games.values()))
    events = list(Event.objects.filter(club_id=club_id))
    with transaction.atomic():
        nights = []
        for event in events:
            snapshot = _event_snapshot_store(event, by_event.get(event.pk, []), names)
            nights.append(_night_rows(event.pk, snapshot.rows))
        NightResult.objects.filter(event__club_id=club_id).delete()
        bulk.rows_insert(NightResult, NIGHT_COLUMNS, itertools.chain.from_iterable(nights))
        for season in Season.objects.filter(league__club_id=club_id):
            season_standings_refresh(season=season)
    return len(events)


def events_part_recompute(*, event_ids: list[int]) -> int:
    """One part of a fanned-out club rebuild: these events' standings and their lines for the
    season, not the season's (its club's part after every event adds those up), their games
    read at once. Returns the games counted. The same rows `club_standings_recompute` gives
    these events."""
    with transaction.atomic():
        # Race: an event's own recompute job at once would insert its first snapshot twice.
        events = list(Event.objects.select_for_update(no_key=True).filter(pk__in=event_ids)
                      .order_by("pk"))
        games = selectors.game_results(
            game_filter=Q(table__rotation__event_id__in=[e.pk for e in events]))
        by_event: dict[int, list[GameResult]] = defaultdict(list)
        for game in games.values():
            by_event[game.event_id].append(game)
        names = selectors.player_names(player_ids=players_of(games.values()))
        nights = [_night_rows(e.pk, _event_snapshot_store(e, by_event.get(e.pk, []), names).rows)
                  for e in events]
        NightResult.objects.filter(event__in=events).delete()
        bulk.rows_insert(NightResult, NIGHT_COLUMNS, itertools.chain.from_iterable(nights))
    return len(games)


def club_seasons_refresh(*, club_id: int) -> list[Season]:
    """Add up every season of the club from its nights' stored lines (after every event's part
    of a fanned-out rebuild). Returns the seasons."""
    seasons = list(Season.objects.filter(league__club_id=club_id).order_by("pk"))
    for season in seasons:
        with transaction.atomic():
            # Race: a night of the season finishing its own recompute at once.
            Season.objects.select_for_update(no_key=True).filter(pk=season.pk).first()
            season_standings_refresh(season=season)
    return seasons


# The season rows' format and what they are added up under: rows kept from a snapshot of
# another basis would mix two ways of counting.
SEASON_ROWS_VERSION = 1


def _season_basis(season: Season) -> str:
    return f"v{SEASON_ROWS_VERSION}|{season.aggregate}|{season.best_n_nights or ''}"


def season_standings_refresh(*, season: Season, entrants: Collection[str] | None = None,
                             games_before: int | None = None) -> StandingsSnapshot:
    """Add up the season's nights into its standings (`NightResult`, the nights' standings
    lines). With `entrants`, the keys whose lines changed since the stored season snapshot,
    only their rows are added up again and the other rows are kept (then all ranked again):
    the same rows as a full refresh, reading only those entrants' nights. `games_before`, the
    season's games the stored snapshot should count, guards that it is the one the change
    started from: otherwise (or under other season settings) everything is added up."""
    basis = _season_basis(season)
    games = selectors.season_games(season=season)
    kept: list[dict] = []
    if entrants is not None:
        stored = (StandingsSnapshot.objects.filter(season=season)
                  .values_list("rows", "basis", "games").first())
        if stored is None or stored[1] != basis or stored[2] != games_before:
            entrants = None
        else:
            kept = [row for row in stored[0] if row["key"] not in entrants]
    nights, names = selectors.night_results(season=season, keys=entrants)
    rows = compute.season_rows(nights, aggregate=season.aggregate, best_n=season.best_n_nights,
                               names=names)
    ranked = compute.season_rank(kept + rows, min_attendance=season.min_attendance)
    return _snapshot_replace(season=season, games=games, rows=ranked, basis=basis)


def event_recompute(*, event_id: int) -> None:
    """Recompute the event's standings and its season's in one transaction (the season's
    snapshot always adds up the nights' lines stored with it). Only the season rows of the
    event's entrants whose lines changed are added up again, so a new game costs the same
    whatever the season's length. Ratings and statistics follow in their own jobs."""
    with transaction.atomic():
        # Race: a duplicate delivery of this job recomputing at once would insert the first
        # snapshot twice; the row lock serialises them (FOR NO KEY UPDATE: results entered
        # meanwhile, whose history lines reference the event, commit without waiting for it).
        event = Event.objects.select_for_update(no_key=True).filter(pk=event_id).first()
        if event is None:
            return
        games_before = (StandingsSnapshot.objects.filter(event=event)
                        .values_list("games", flat=True).first() or 0)
        snapshot, changed = _event_standings_refresh(event)
        if event.season_id is None:
            return
        # Race: two nights of one season finishing their recomputes at once (events are
        # always locked before their season).
        season = Season.objects.select_for_update(no_key=True).filter(pk=event.season_id).first()
        if season is not None:
            season_standings_refresh(
                season=season, entrants=changed,
                games_before=selectors.season_games(season=season) - snapshot.games
                + games_before)

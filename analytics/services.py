"""Writes of the analytics: snapshots of standings, ratings and statistics.

Every snapshot is replaced inside one transaction, so a job killed half-way leaves the previous
one in place. Every function recomputes from the database, so running one twice is harmless.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import JSONField, Model, Q, QuerySet
from django.utils import timezone

from analytics import selectors, standings, statistics
from analytics.models import (
    NightResult,
    PartnershipStats,
    PlayerRating,
    PlayerStats,
    RatedGame,
    RatingHistory,
    StandingsSnapshot,
)
from analytics.ratings import PlayerState, rate_games
from analytics.standings import GameResult
from league.models import Club, Event, Season
from league.permissions import visible_events


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
    _insert(NightResult, NIGHT_COLUMNS, _night_rows(event.pk, rows))
    new = {row[1]: repr(row[1:]) for row in _night_rows(event.pk, rows)}
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def _players_of(games: Iterable[GameResult]) -> set[int]:
    return {p for g in games for s in g.sides for p in s.players}


def _event_standings_refresh(event: Event) -> tuple[StandingsSnapshot, set[str]]:
    games = list(selectors.game_results(game_filter=Q(table__rotation__event=event)).values())
    snapshot = _event_snapshot_store(event, games,
                                     selectors.player_names(player_ids=_players_of(games)))
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
    names = selectors.player_names(player_ids=_players_of(games.values()))
    events = list(Event.objects.filter(club_id=club_id))
    with transaction.atomic():
        nights = []
        for event in events:
            snapshot = _event_snapshot_store(event, by_event.get(event.pk, []), names)
            nights.append(_night_rows(event.pk, snapshot.rows))
        NightResult.objects.filter(event__club_id=club_id).delete()
        _insert(NightResult, NIGHT_COLUMNS, itertools.chain.from_iterable(nights))
        for season in Season.objects.filter(league__club_id=club_id):
            season_standings_refresh(season=season)
    return len(events)


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
    rows = standings.season_rows(nights, aggregate=season.aggregate, best_n=season.best_n_nights,
                                 names=names)
    ranked = standings.season_rank(kept + rows, min_attendance=season.min_attendance)
    return _snapshot_replace(season=season, games=games, rows=ranked, basis=basis)


def event_recompute(*, event_id: int) -> None:
    """Recompute the event's standings and its season's in one transaction (the season's
    snapshot always adds up the nights' lines stored with it). Only the season rows of the
    event's entrants whose lines changed are added up again, so a new game costs the same
    whatever the season's length. Ratings and statistics follow in their own jobs."""
    with transaction.atomic():
        # Race: a duplicate delivery of this job recomputing at once would insert the first
        # snapshot twice; the row lock serialises them.
        event = Event.objects.select_for_update().filter(pk=event_id).first()
        if event is None:
            return
        games_before = (StandingsSnapshot.objects.filter(event=event)
                        .values_list("games", flat=True).first() or 0)
        snapshot, changed = _event_standings_refresh(event)
        if event.season_id is None:
            return
        # Race: two nights of one season finishing their recomputes at once (events are
        # always locked before their season).
        season = Season.objects.select_for_update().filter(pk=event.season_id).first()
        if season is not None:
            season_standings_refresh(
                season=season, entrants=changed,
                games_before=selectors.season_games(season=season) - snapshot.games
                + games_before)


def club_recompute(*, club_id: int) -> None:
    """Rebuild everything of a club: standings, ratings (full replay), statistics."""
    club_standings_recompute(club_id=club_id)
    ratings_recompute(club_id=club_id, from_game_id=selectors.first_game_id(club_id=club_id))
    statistics_recompute(club_id=club_id)


def _first_changed_position(club_id: int, order: list[int], fingerprints: list[str]) -> int:
    stored = list(
        RatedGame.objects.filter(club_id=club_id).order_by("position")
        .values_list("game_id", "fingerprint")
    )
    current = list(zip(order, fingerprints, strict=True))
    for position, (was, now) in enumerate(zip(stored, current, strict=False)):
        if was != now:
            return position
    return min(len(stored), len(current))


def _states_before(club_id: int, position: int,
                   player_ids: Collection[int] | None = None) -> dict[int, PlayerState]:
    """Each player's rating after their last game before `position` (one query; PostgreSQL
    returns only those rows, elsewhere the later rows of a player overwrite the earlier).
    Only `player_ids`' when given."""
    if position == 0:
        return {}
    rows = RatingHistory.objects.filter(club_id=club_id, position__lt=position)
    if player_ids is not None:
        rows = rows.filter(player_id__in=list(player_ids))
    if connection.vendor == "postgresql":
        rows = rows.order_by("player_id", "-position").distinct("player_id")
    else:
        rows = rows.order_by("player_id", "position")
    return {
        player_id: PlayerState(mu, sigma, games)
        for player_id, mu, sigma, games in rows.values_list(
            "player_id", "mu", "sigma", "games").iterator(chunk_size=10000)
    }


def ratings_recompute(*, club_id: int, from_game_id: int | None = None) -> int:
    """Bring the club's ratings up to date: replay every game from the first one that changed
    (or from `from_game_id`, when given and earlier). Returns the number of games replayed.

    The result equals a full recompute: the stored history before that game is exactly what a
    full replay would have produced, and the replay continues from it.
    """
    # Two jobs of one club replaying at once would interleave deletes and inserts: lock the club.
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club_id).first()
        order = selectors.club_game_order(club_id=club_id)
        games = selectors.game_results(game_filter=Q(table__rotation__event__club_id=club_id))
        fingerprints = [selectors.game_fingerprint(game=games[g]) for g in order]
        start = _first_changed_position(club_id, order, fingerprints)
        if from_game_id in order:
            start = min(start, order.index(from_game_id))
        stale = RatedGame.objects.filter(club_id=club_id, position__gte=start)
        if start == len(order) and not stale.exists():
            return 0
        state = _states_before(club_id, start)
        RatingHistory.objects.filter(club_id=club_id, position__gte=start).delete()
        stale.delete()
        replay = [games[g] for g in order[start:]]
        versions = selectors.results_versions(
            game_filter=Q(table__rotation__event__club_id=club_id))
        _history_store(club_id, replay, state, start, versions)
        _current_ratings_replace(club_id, state)
    return len(replay)


@dataclass(frozen=True)
class RatingsChange:
    """What a ratings update did: `games` rated or re-rated; `players` whose ratings changed,
    or None after a replay (any player's may have)."""

    games: int
    players: frozenset[int] | None


def ratings_update(*, club_id: int, event_id: int) -> RatingsChange:
    """Bring the club's ratings up to date after the event's results changed.

    When the event's changes are only new games that come after every game already rated, those
    games alone are rated, from their players' current ratings (their own history rows, their
    places in the club's order): the same rows a full replay would write, without loading the
    club's results. Anything else (a corrected or withdrawn result, a late result before games
    already rated) replays from the first changed game (`ratings_recompute`).
    """
    with transaction.atomic():
        # Race: a replay of the same club at once would interleave with the appended rows.
        Club.objects.select_for_update().filter(pk=club_id).first()
        appended = _ratings_append(club_id, event_id)
    if appended is not None:
        return appended
    return RatingsChange(ratings_recompute(club_id=club_id), None)


def _ratings_append(club_id: int, event_id: int) -> RatingsChange | None:
    """Rate the event's new games if they come after every rated game and no rated game of the
    event changed what its rating used; None when a replay is needed. Runs under the club's
    lock. The players whose statistics change: those of the new games and of rated games whose
    other figures were corrected."""
    in_event = Q(table__rotation__event_id=event_id, table__rotation__event__club_id=club_id)
    games = selectors.game_results(game_filter=in_event)
    versions = selectors.results_versions(game_filter=in_event)
    rated = RatedGame.objects.filter(club_id=club_id, game__table__rotation__event_id=event_id)
    touched: list[RatedGame] = []
    for mark in rated:
        game = games.get(mark.game_id)
        if game is None or selectors.game_fingerprint(game=game) != mark.fingerprint:
            return None  # a rated game of the event changed its totals or lost its result
        if mark.results_version != versions[mark.game_id]:
            mark.results_version = versions[mark.game_id]
            touched.append(mark)
    RatedGame.objects.bulk_update(touched, ["results_version"])
    marked = {mark.game_id for mark in rated}
    new = [g for g in games if g not in marked]
    players = _players_of(games[m.game_id] for m in touched)
    if not new:
        return RatingsChange(0, frozenset(players))
    tail = (RatedGame.objects.filter(club_id=club_id).order_by("-position")
            .values_list("position", "game_id").first())
    keys = selectors.game_order_keys(game_filter=Q(pk__in=[*new, *([tail[1]] if tail else [])]))
    new.sort(key=keys.__getitem__)
    if tail is not None and keys[new[0]] <= keys[tail[1]]:
        return None  # a late result: it goes before games already rated
    first = tail[0] + 1 if tail else 0
    rated_now = _players_of(games[g] for g in new)
    state = _states_before(club_id, first, rated_now)
    _history_store(club_id, [games[g] for g in new], state, first, versions)
    _player_ratings_store(club_id, {p: state[p] for p in rated_now if p in state})
    return RatingsChange(len(new), frozenset(players | rated_now))


def _history_store(club_id: int, replay: list[GameResult], state: dict[int, PlayerState],
                   first: int, versions: dict[int, int]) -> None:
    """Rate `replay` from `state`, placed from position `first` on: their history rows and
    rated-game marks."""
    _insert(RatingHistory, ["club_id", "player_id", "game_id", "position", "mu", "sigma",
                            "ordinal", "games", "expected"],
            ((club_id, r.player_id, r.game_id, r.position, r.mu, r.sigma, r.ordinal, r.games,
              r.expected) for r in rate_games(replay, state, first_position=first)))
    _insert(RatedGame, ["club_id", "game_id", "position", "fingerprint", "results_version"],
            ((club_id, game.game_id, p, selectors.game_fingerprint(game=game),
              versions.get(game.game_id)) for p, game in enumerate(replay, start=first)))


def _insert(model: type[Model], columns: list[str], rows: Iterable[tuple]) -> None:
    """Insert many rows: COPY on PostgreSQL (ten times faster than INSERT for a full replay),
    bulk_create elsewhere. `columns` are attribute names (`player_id`, ...)."""
    if connection.vendor == "postgresql":
        fields = [model._meta.get_field(c.removesuffix("_id")) for c in columns]
        as_json = [i for i, f in enumerate(fields) if isinstance(f, JSONField)]
        with connection.cursor() as cursor, cursor.copy(
            f"COPY {model._meta.db_table} ({', '.join(f.column for f in fields)}) FROM STDIN"
        ) as copy:
            for row in rows:
                if as_json:
                    row = list(row)
                    for i in as_json:
                        row[i] = json.dumps(row[i], cls=DjangoJSONEncoder)
                copy.write_row(row)
        return
    model.objects.bulk_create((model(**dict(zip(columns, row, strict=True))) for row in rows),
                              batch_size=5000)


def _current_ratings_replace(club_id: int, state: dict[int, PlayerState]) -> None:
    PlayerRating.objects.filter(club_id=club_id).delete()
    PlayerRating.objects.bulk_create(
        PlayerRating(club_id=club_id, player_id=player_id, mu=s.mu, sigma=s.sigma,
                     ordinal=s.ordinal, games=s.games)
        for player_id, s in state.items()
    )


def _player_ratings_store(club_id: int, state: dict[int, PlayerState]) -> None:
    """Replace these players' current ratings."""
    PlayerRating.objects.filter(player_id__in=list(state)).delete()
    PlayerRating.objects.bulk_create(
        PlayerRating(club_id=club_id, player_id=player_id, mu=s.mu, sigma=s.sigma,
                     ordinal=s.ordinal, games=s.games)
        for player_id, s in state.items()
    )


def statistics_recompute(*, club_id: int) -> None:
    """Recompute and replace the club's per-player and per-partnership statistics. They are
    shown to anyone on player pages, so only public events count: a private night's figures
    stay private (ratings still learn from every game)."""
    public = visible_events(None).filter(club_id=club_id)
    in_club = Q(game__table__rotation__event__in=public)
    rounds = selectors.rounds_frame(round_filter=in_club)
    seats = selectors.seats_frame(seat_filter=Q(rotation__event__in=public))
    facts = selectors.facts_frame(facts_filter=in_club)
    history = selectors.history_frame(club_id=club_id)
    per_player = statistics.player_statistics(rounds, seats, facts)
    per_pair = statistics.partnership_statistics(rounds, seats, history)
    _statistics_store(club_id, per_player, per_pair,
                      PlayerStats.objects.filter(club_id=club_id),
                      PartnershipStats.objects.filter(club_id=club_id))


def statistics_refresh(*, club_id: int, player_ids: Collection[int]) -> None:
    """Recompute the statistics of these players and of their partnerships from all their
    games (the figures `statistics_recompute` gives them), leaving the rest of the club's as
    they are: after new games, only their players' figures change."""
    ids = sorted(player_ids)
    if not ids:
        return
    tables = selectors.player_tables(player_ids=ids,
                                     events=visible_events(None).filter(club_id=club_id))
    their_games = list(tables.values())
    rounds = selectors.rounds_frame(round_filter=Q(game_id__in=their_games))
    seats = selectors.table_seats_frame(tables=tables)
    facts = selectors.facts_frame(facts_filter=Q(game_id__in=their_games, player_id__in=ids))
    history = selectors.history_frame(club_id=club_id,
                                      history_filter=Q(game_id__in=their_games))
    chosen = set(ids)
    # Only their own seats and the sides they sat on count for their figures and their
    # partnerships: the other players of those games are left out of the frames.
    own = seats[seats["player"].isin(chosen)]
    sides = seats.merge(own[["game", "side"]].drop_duplicates(), on=["game", "side"])
    per_player = {p: data for p, data in statistics.player_statistics(rounds, own, facts).items()
                  if p in chosen}
    per_pair = {pair: data for pair, data in
                statistics.partnership_statistics(rounds, sides, history).items()
                if chosen & set(pair)}
    _statistics_store(club_id, per_player, per_pair,
                      PlayerStats.objects.filter(club_id=club_id, player_id__in=ids),
                      PartnershipStats.objects.filter(Q(player_a_id__in=ids)
                                                      | Q(player_b_id__in=ids), club_id=club_id))


def _statistics_store(club_id: int, per_player: dict[int, dict],
                      per_pair: dict[tuple[int, int], dict], old_players: QuerySet,
                      old_pairs: QuerySet) -> None:
    """Replace `old_players` and `old_pairs` by the new figures in one transaction."""
    now = timezone.now()
    with transaction.atomic():
        # Race: a club-wide recompute and a players' refresh writing the same rows at once.
        Club.objects.select_for_update().filter(pk=club_id).first()
        old_players.delete()
        _insert(PlayerStats, ["club_id", "player_id", "computed_at", "data"],
                ((club_id, p, now, data) for p, data in per_player.items()))
        old_pairs.delete()
        _insert(PartnershipStats, ["club_id", "player_a_id", "player_b_id", "computed_at", "data"],
                ((club_id, a, b, now, data) for (a, b), data in per_pair.items()))

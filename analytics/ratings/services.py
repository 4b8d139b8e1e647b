"""Writes of the ratings job: the rating history (one row per player and game, in the club's
order), the marks of the rated games and the current ratings.

Every write happens under the club's row lock, inside one transaction; every function
recomputes from the database, so running one twice is harmless.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q

from analytics import bulk
from analytics.models import PlayerRating, RatedGame, RatingHistory
from analytics.ratings import selectors
from analytics.ratings.compute import PlayerState, game_fingerprint, rate_games
from analytics.standings.compute import GameResult
from analytics.standings.selectors import game_results
from analytics.standings.services import players_of
from league.models import Club


def ratings_recompute(*, club_id: int, from_game_id: int | None = None,
                      full: bool = False) -> int:
    """Bring the club's ratings up to date: replay every game from the first one that changed
    (or from `from_game_id`, when given and earlier; from the first game with `full`, without
    reading the stored marks). Returns the number of games replayed.

    The result equals a full recompute: the stored history before that game is exactly what a
    full replay would have produced, and the replay continues from it.
    """
    # Two jobs of one club replaying at once would interleave deletes and inserts: lock the club.
    with transaction.atomic():
        # (FOR NO KEY UPDATE, as every analytics job's lock: it serialises the jobs, yet lets
        # results be entered meanwhile, whose rows' foreign keys to the club take KEY SHARE
        # at commit: a plain FOR UPDATE held every entry's commit for the whole job.)
        Club.objects.select_for_update(no_key=True).filter(pk=club_id).first()
        order = selectors.club_game_order(club_id=club_id)
        games = game_results(game_filter=Q(table__rotation__event__club_id=club_id))
        start = 0 if full else selectors.first_changed_position(
            club_id=club_id, order=order, fingerprints=[game_fingerprint(games[g]) for g in order])
        if from_game_id in order:
            start = min(start, order.index(from_game_id))
        stale = RatedGame.objects.filter(club_id=club_id, position__gte=start)
        if not full and start == len(order) and not stale.exists():
            return 0
        state = selectors.states_before(club_id=club_id, position=start)
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
        Club.objects.select_for_update(no_key=True).filter(pk=club_id).first()
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
    games = game_results(game_filter=in_event)
    versions = selectors.results_versions(game_filter=in_event)
    rated = RatedGame.objects.filter(club_id=club_id, game__table__rotation__event_id=event_id)
    touched: list[RatedGame] = []
    for mark in rated:
        game = games.get(mark.game_id)
        if game is None or game_fingerprint(game) != mark.fingerprint:
            return None  # a rated game of the event changed its totals or lost its result
        if mark.results_version != versions[mark.game_id]:
            mark.results_version = versions[mark.game_id]
            touched.append(mark)
    RatedGame.objects.bulk_update(touched, ["results_version"])
    marked = {mark.game_id for mark in rated}
    new = [g for g in games if g not in marked]
    players = players_of(games[m.game_id] for m in touched)
    if not new:
        return RatingsChange(0, frozenset(players))
    tail = selectors.last_rated_game(club_id=club_id)
    keys = selectors.game_order_keys(game_filter=Q(pk__in=[*new, *([tail[1]] if tail else [])]))
    new.sort(key=keys.__getitem__)
    if tail is not None and keys[new[0]] <= keys[tail[1]]:
        return None  # a late result: it goes before games already rated
    first = tail[0] + 1 if tail else 0
    rated_now = players_of(games[g] for g in new)
    state = selectors.states_before(club_id=club_id, position=first, player_ids=rated_now)
    _history_store(club_id, [games[g] for g in new], state, first, versions)
    _player_ratings_store(club_id, {p: state[p] for p in rated_now if p in state})
    return RatingsChange(len(new), frozenset(players | rated_now))


def _history_store(club_id: int, replay: list[GameResult], state: dict[int, PlayerState],
                   first: int, versions: dict[int, int]) -> None:
    """Rate `replay` from `state`, placed from position `first` on: their history rows and
    rated-game marks."""
    bulk.rows_insert(
        RatingHistory, ["club_id", "player_id", "game_id", "position", "mu", "sigma",
                        "ordinal", "games", "expected"],
        ((club_id, r.player_id, r.game_id, r.position, r.mu, r.sigma, r.ordinal, r.games,
          r.expected) for r in rate_games(replay, state, first_position=first)))
    bulk.rows_insert(
        RatedGame, ["club_id", "game_id", "position", "fingerprint", "results_version"],
        ((club_id, game.game_id, p, game_fingerprint(game), versions.get(game.game_id))
         for p, game in enumerate(replay, start=first)))


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

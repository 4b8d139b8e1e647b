"""The ladder's arithmetic, pure: each club's games as JSON (a job part's output), merged in the
order played across clubs (event date, then each club's own order), rated as one pool."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from analytics.ratings.compute import PlayerState, rate_games
from analytics.standings.compute import GameResult, SideResult

JSON = Any


def game_to_json(*, date: str, club_id: int, position: int, game: GameResult) -> JSON:
    """One game of a club: where it stands in the merged order, and what its rating reads."""
    return {"order": [date, club_id, position], "game": game.game_id,
            "sides": [[list(side.players), side.total] for side in game.sides]}


def game_from_json(data: JSON) -> GameResult:
    sides = tuple(SideResult(tuple(players), int(total)) for players, total in data["sides"])
    return GameResult(int(data["game"]), sides)


def games_merged(parts: Iterable[list[JSON]]) -> list[GameResult]:
    """Every club's games in one order: by event date, then club, then the club's own order
    (clubs never share a game, so their order on one date is arbitrary but fixed)."""
    games = [game for part in parts for game in part]
    games.sort(key=lambda game: (game["order"][0], game["order"][1], game["order"][2]))
    return [game_from_json(game) for game in games]


def ladder_states(games: Iterable[GameResult]) -> dict[int, PlayerState]:
    """Each player's rating after every game, rated from nothing in the given order."""
    state: dict[int, PlayerState] = {}
    for _ in rate_games(games, state):  # the clubs' own rating, game by game (fills `state`)
        pass
    return state

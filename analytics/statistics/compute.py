"""Per-player and per-partnership statistics, vectorised with pandas.

Inputs are DataFrames built from `.values_list()` (see `analytics.statistics.selectors`):
  rounds   game, round, side, score, and every part a scorer writes (`handfoot.rules.ENTERED_PARTS`)
  seats    game, side, player
  facts    game, round, player, turns, foot_turn, pickups, cards_picked_up, wilds_in_dirty,
           black_threes, first_laydown_turn
  history  game, player, expected  (the side's rated win probability before the game)

Side figures (score, books, held points, red 3s, went out) are the figures of the player's side.
Synergy = the pair's actual result rate (win 1, tie 1/2, loss 0) minus the mean win probability
their ratings gave them before each game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from handfoot.rules import ENTERED_PARTS

ROUND_COLUMNS = ["game", "round", "side", "score", *(part.name for part in ENTERED_PARTS)]
SEAT_COLUMNS = ["game", "side", "player"]
FACT_COLUMNS = ["game", "round", "player", "turns", "foot_turn", "pickups", "cards_picked_up",
                "wilds_in_dirty", "black_threes", "first_laydown_turn"]
HISTORY_COLUMNS = ["game", "player", "expected"]


def frame(rows: Iterable[tuple[Any, ...]], columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame.from_records(list(rows), columns=columns)


def game_outcomes(rounds: pd.DataFrame) -> pd.DataFrame:
    """One row per game and side: total, held, and result (win 2, tie 1, loss 0 match points)."""
    sides = rounds.groupby(["game", "side"], as_index=False).agg(
        total=("score", "sum"), held=("held_points", "sum"))
    pairs = sides.merge(sides, on="game", suffixes=("", "_other"))
    pairs = pairs[pairs["side"] != pairs["side_other"]]
    best_other = pairs.groupby(["game", "side"], as_index=False)["total_other"].max()
    sides = sides.merge(best_other, on=["game", "side"])
    sides["match_points"] = np.sign(sides["total"] - sides["total_other"]).astype(int) + 1
    sides["win"] = (sides["match_points"] == 2).astype(int)
    sides["tie"] = (sides["match_points"] == 1).astype(int)
    sides["result"] = sides["match_points"] / 2
    return sides.drop(columns="total_other")


def _clean(df: pd.DataFrame) -> pd.DataFrame:
    """Round floats and turn NaN into None so the rows are JSON."""
    df = df.round(3)
    return df.astype(object).where(df.notna(), None)


def player_statistics(rounds: pd.DataFrame, seats: pd.DataFrame,
                      facts: pd.DataFrame) -> dict[int, dict[str, Any]]:
    """Every player's figures, keyed by player id."""
    if rounds.empty:
        return {}
    outcomes = game_outcomes(rounds).merge(seats, on=["game", "side"])
    per_game = outcomes.groupby("player").agg(
        games=("game", "nunique"), wins=("win", "sum"), ties=("tie", "sum"),
        total_points=("total", "sum"), average_game_total=("total", "mean"))
    per_game["losses"] = per_game["games"] - per_game["wins"] - per_game["ties"]
    per_game["win_rate"] = per_game["wins"] / per_game["games"]

    # Sum each side's rounds first, so only one row per game and player is merged.
    side_sums = rounds.groupby(["game", "side"]).agg(
        rounds=("round", "size"), went_out=("went_out", "sum"), clean=("clean_books", "sum"),
        dirty=("dirty_books", "sum"), wild=("wild_books", "sum"), held=("held_points", "sum"),
        red_threes=("red_threes", "sum"))
    round_scores = rounds.pivot(index=["game", "side"], columns="round", values="score")
    round_scores.columns = [f"average_score_round_{int(r)}" for r in round_scores.columns]
    played = side_sums.join(round_scores).reset_index().merge(seats, on=["game", "side"])
    sums = played.drop(columns=["game", "side"]).groupby("player").sum(min_count=1)
    per_round = pd.DataFrame({"rounds": sums["rounds"]})
    for column, name in (("went_out", "went_out_rate"), ("clean", "clean_books_per_round"),
                         ("dirty", "dirty_books_per_round"), ("wild", "wild_books_per_round"),
                         ("held", "average_held_points"), ("red_threes", "red_threes_per_round")):
        per_round[name] = sums[column] / sums["rounds"]
    counts = played.groupby("player")[list(round_scores.columns)].count()
    by_round = sums[list(round_scores.columns)] / counts.replace(0, np.nan)

    parts = [per_game, per_round, by_round]
    if not facts.empty:
        parts.append(facts.groupby("player").agg(
            logged_rounds=("round", "size"), turns_to_foot=("foot_turn", "mean"),
            pickups_per_round=("pickups", "mean"), wilds_in_dirty_per_round=("wilds_in_dirty", "mean"),
            black_three_blocks_per_round=("black_threes", "mean"),
            first_laydown_turn=("first_laydown_turn", "mean")))
    table = _clean(pd.concat(parts, axis=1))
    return {int(player): row for player, row in table.to_dict("index").items()}


def partnership_statistics(rounds: pd.DataFrame, seats: pd.DataFrame,
                           history: pd.DataFrame) -> dict[tuple[int, int], dict[str, Any]]:
    """Every pair of players who shared a side: record, average game total and synergy."""
    if rounds.empty:
        return {}
    pairs = seats.merge(seats, on=["game", "side"], suffixes=("_a", "_b"))
    pairs = pairs[pairs["player_a"] < pairs["player_b"]]
    outcomes = game_outcomes(rounds).merge(pairs, on=["game", "side"])
    if outcomes.empty:
        return {}
    if not history.empty:
        expected = history.rename(columns={"player": "player_a"})
        outcomes = outcomes.merge(expected, on=["game", "player_a"], how="left")
    else:
        outcomes["expected"] = np.nan
    table = outcomes.groupby(["player_a", "player_b"]).agg(
        games=("game", "nunique"), wins=("win", "sum"), ties=("tie", "sum"),
        average_game_total=("total", "mean"), result_rate=("result", "mean"),
        expected_rate=("expected", "mean"))
    table["losses"] = table["games"] - table["wins"] - table["ties"]
    table["win_rate"] = table["wins"] / table["games"]
    table["synergy"] = table["result_rate"] - table["expected_rate"]
    table = _clean(table)
    return {(int(a), int(b)): row for (a, b), row in table.to_dict("index").items()}


def head_to_head(rounds: pd.DataFrame, seats: pd.DataFrame, a: set[int],
                 b: set[int]) -> dict[str, Any]:
    """The record of side or player `a` against `b`: games where every player of `a` sat on one
    side and every player of `b` on another. No common game gives an all-zero record."""
    if rounds.empty or seats.empty:
        return _head_to_head_record(pd.DataFrame(columns=["game", "total", "total_b"]))
    outcomes = game_outcomes(rounds)
    members = seats.groupby(["game", "side"])["player"].apply(frozenset).rename("members")
    outcomes = outcomes.merge(members.reset_index(), on=["game", "side"])
    # astype(bool): an empty mask must still be a boolean mask, not a list of column names.
    mine = outcomes[outcomes["members"].map(lambda m: a <= m and not (b & m)).astype(bool)]
    theirs = outcomes[outcomes["members"].map(lambda m: b <= m and not (a & m)).astype(bool)]
    return _head_to_head_record(mine.merge(theirs, on="game", suffixes=("", "_b")))


def _head_to_head_record(met: pd.DataFrame) -> dict[str, Any]:
    return {
        "games": int(len(met)),
        "wins": int((met["total"] > met["total_b"]).sum()),
        "ties": int((met["total"] == met["total_b"]).sum()),
        "losses": int((met["total"] < met["total_b"]).sum()),
        "points_for": int(met["total"].sum()),
        "points_against": int(met["total_b"].sum()),
        "game_ids": [int(g) for g in met["game"]],
    }

"""Handicaps and handicapped standings: pure functions over plain values (no database).

A league picks one formula (`League.handicap_formula`):
  none     no handicaps.
  average  percent × (base − the player's average game points over their last N nights).
  rating   percent × (base − the player's rating, on the 1500 scale).
The average (or rating) is rounded to whole points first, the handicap to the nearest whole
point (halves up), then capped. A difference below 0 (a player better than the base) gives 0,
not a negative handicap: a handicap helps the weaker player and never takes points away, so a
strong player's scratch points stay what they scored. A player without history gets 0.

A side's handicap is the sum of its players'. It applies as the league says
(`League.handicap_applies_to`):
  game_points   added to the side's game total: the handicapped totals are the game's points
                (total points, the winner, margins and victory points all follow from them).
  match_points  the game's winner, margins and victory points are decided with the handicapped
                totals; the total points stay as played.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from analytics.standings import compute
from analytics.standings.compute import GameResult, Row, SideResult

FORMULAS = ("none", "average", "rating")
APPLIES_TO = ("game_points", "match_points")
MINUS = "\u2212"


@dataclass(frozen=True)
class Formula:
    """A league's handicap settings, as frozen for one night."""

    kind: str
    base: int
    percent: int
    cap: int | None
    nights: int


@dataclass(frozen=True)
class History:
    """What a player's handicap is computed from: their average game points (or rating), or
    None without history; for an average, the nights and games it covers."""

    value: float | None
    nights: int = 0
    games: int = 0


@dataclass(frozen=True)
class Handicap:
    handicap: int
    explanation: str
    basis: int | None  # the rounded average or rating the handicap was computed from


def whole(value: Decimal | float) -> int:
    """Rounded to a whole number, halves away from zero (as by hand: 2.5 → 3)."""
    return int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def points(value: int) -> str:
    """A number as the pages write it: 5,000; −320 with a real minus sign."""
    return f"{MINUS}{-value:,}" if value < 0 else f"{value:,}"


def recent_average(games: Iterable[tuple[tuple[int, int], int]], *, nights: int) -> History:
    """A player's average game points over their last `nights` nights: `games` are
    (night's order, game total) pairs of every game they played, the order a sortable key
    (date, event id); every game of the chosen nights counts once."""
    games = list(games)
    last = set(sorted({night for night, _ in games}, reverse=True)[:nights])
    totals = [total for night, total in games if night in last]
    if not totals:
        return History(None)
    return History(sum(totals) / len(totals), nights=len(last), games=len(totals))


def _basis_words(formula: Formula, history: History, basis: int) -> str:
    if formula.kind == "rating":
        return f"Rating {points(basis)}"
    games = f"{history.games} game{'s' if history.games != 1 else ''}"
    nights = f"{history.nights} night{'s' if history.nights != 1 else ''}"
    return f"Average {points(basis)} game points ({games} of the last {nights})"


def handicap_compute(formula: Formula, history: History) -> Handicap:
    """The handicap and how it was computed, in words
    ("Average 4,350 game points (…): 80 % of (5,000 − 4,350) = 520, capped at 500.")."""
    if formula.kind not in ("average", "rating"):
        return Handicap(0, "No handicaps in this league.", None)
    if history.value is None:
        why = ("No rating yet (no rated game before this night)" if formula.kind == "rating"
               else "No confirmed game in the league's earlier nights")
        return Handicap(0, f"{why}: handicap 0.", None)
    basis = whole(history.value)
    raw = whole(Decimal(formula.percent) * (formula.base - basis) / 100)
    worked = (f"{_basis_words(formula, history, basis)}: {formula.percent} % of "
              f"({points(formula.base)} {MINUS} {points(basis)}) = {points(raw)}")
    if raw < 0:
        return Handicap(0, f"{worked}, below 0: handicap 0 (a handicap never takes points away).",
                        basis)
    if formula.cap is not None and raw > formula.cap:
        return Handicap(formula.cap, f"{worked}, capped at {points(formula.cap)}.", basis)
    return Handicap(raw, f"{worked}.", basis)


def side_handicap(players: Iterable[int], handicaps: Mapping[int, int]) -> int:
    """A side's (or partnership's) handicap: the sum of its players'."""
    return sum(handicaps.get(p, 0) for p in players)


def _handicapped_side(side: SideResult, handicap: int, applies_to: str) -> SideResult:
    if applies_to == "match_points":
        return replace(side, decides=side.total + handicap)
    return replace(side, total=side.total + handicap)


def handicapped_games(games: Iterable[GameResult], handicaps: Mapping[int, int], *,
                      applies_to: str) -> list[GameResult]:
    """The games as the handicapped standings count them (see the module docstring)."""
    return [
        replace(game, sides=tuple(
            _handicapped_side(side, side_handicap(side.players, handicaps), applies_to)
            for side in game.sides))
        for game in games
    ]


def with_handicaps(rows: Iterable[Row], handicaps: Mapping[int, int]) -> list[Row]:
    """Standings rows with each entrant's handicap (a side's: the sum of its players')."""
    return [{**row, "handicap": side_handicap(row["players"], handicaps)} for row in rows]


def season_handicapped(event_rows: Sequence[tuple[int, Sequence[Row]]], *, aggregate: str,
                       best_n: int | None, min_attendance: int) -> list[Row]:
    """The handicapped season table: the nights' handicapped rows added up as the scratch
    season adds up the scratch ones, with each entrant's handicap on their latest night."""
    rows = compute.season_from_event_rows(event_rows, aggregate=aggregate, best_n=best_n,
                                          min_attendance=min_attendance)
    latest: dict[str, int] = {}
    for _event_id, night in event_rows:
        for row in night:
            latest[row["key"]] = int(row.get("handicap", 0))
    return [{**row, "handicap": latest.get(row["key"], 0)} for row in rows]


def division_table(rows: Iterable[Row], players: Collection[int], *,
                   min_attendance: int) -> list[Row]:
    """A division's table: the season rows of the entrants all of whose players are placed in
    it (`players`), ranked again among themselves."""
    mine = [row for row in rows if row["players"] and all(p in players for p in row["players"])]
    return compute.season_rank(mine, min_attendance=min_attendance)

"""Event and season standings: pure functions over plain game results (no database).

Scoring methods
  total_points    ranked by the sum of the entrant's side game totals.
  match_points    win 2, tie 1, loss 0 per game, then total points.
  victory_points  20-point scale by margin (`victory_points_for_margin`); a table of three sides
                  gives each side the mean of its pairwise victory points.

An entrant is a player (rotating partners) or a side identified by its set of players (fixed
partnerships). A side wins a game when its total beats every other side's, ties when it equals
the best other total, and loses otherwise. Point difference is the side's total minus the mean of
the opposing totals. Opponents' strength (Buchholz) is the sum, over every game, of each
opposing entrant's final primary score. Head-to-head counts only the match points an entrant took
in games against the other entrants still tied with it.

Sit-outs (byes): a rotation of the event that an entrant did not play, although entered and not
withdrawn by then (sat out, or arrived late), counts as the event's `sit_out_scoring` says:
  none      nothing: only games played count (the default, and the old behaviour).
  fixed     each bye scores like a tied game worth `bye_points` total points: 1 match point,
            10 victory points, point difference 0.
  average   each bye scores the entrant's own average game of the night: their per-game total
            points (rounded), match points, victory points and point difference, once per bye.
  per_game  no bye figures; match, total and victory points and the point difference are divided
            by the games played, and the standings rank those averages (wins and held points stay
            counts).
The rows keep the games actually played (`games`) and the byes counted (`byes`).

Mixed tables: a night whose games do not all have the same shape (tables of four beside tables
of six: sides of three, or three sides of two) is made comparable as the event's `mixed_tables`
says (docs/analytics.md, "Mixed tables of four and six"); a night of one shape is left as it is.
  per_player_round  each side's figures (total, held, the total deciding the game) are scaled to
                    a side of two: points per player-round times a side of two's player-rounds
                    over the same rounds, i.e. total x 2 / the side's seats, rounded.
  rank              match points by the side's place at its table: 2 x (the other sides it beat,
                    a tie counting half) / (the number of other sides): 2/0 (a tie 1/1) with two
                    sides, 2/1/0 with three; wins, ties and losses keep their meaning.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from league.tie_breaks import TIE_BREAKS

# One standings row: entrant, name, the figures and its place, as the pages and the API show it.
Row = dict[str, Any]

# (lowest margin of the band, winner's VP); the loser gets 20 - VP.
VP_SCALE: tuple[tuple[int, int], ...] = (
    (12500, 20),
    (10000, 19),
    (8000, 18),
    (6500, 17),
    (5000, 16),
    (3500, 15),
    (2500, 14),
    (1500, 13),
    (750, 12),
    (250, 11),
    (0, 10),
)
VP_TOTAL = 20

PRIMARY_CRITERIA = {
    "total_points": ("total_points",),
    "match_points": ("match_points", "total_points"),
    "victory_points": ("victory_points",),
}


@dataclass(frozen=True)
class SideResult:
    players: tuple[int, ...]
    total: int
    held: int = 0
    # The total that decides the game (winner, margins) when it is not `total`: a handicap
    # applied to the match points only (analytics.handicaps).
    decides: int | None = None
    seats: int = 0  # the side's seats at its table (0: as many as its players)


@dataclass(frozen=True)
class GameResult:
    game_id: int
    sides: tuple[SideResult, ...]
    event_id: int = 0


@dataclass(slots=True)
class Appearance:
    game_id: int
    total: int
    held: int
    match_points: int
    victory_points: float
    difference: float
    opponents: tuple[str, ...]
    rank_points: float | None = None  # match points by rank at a mixed night's table

    @property
    def points(self) -> float:
        """The match points this game counts: by rank when the night ranks mixed tables so."""
        return self.match_points if self.rank_points is None else self.rank_points


@dataclass
class EntrantRecord:
    key: str
    players: tuple[int, ...]
    appearances: list[Appearance] = field(default_factory=list)



def victory_points_for_margin(margin: int) -> int:
    """The VP of a side that finished `margin` points ahead (negative: behind)."""
    for lowest, vp in VP_SCALE:
        if abs(margin) >= lowest:
            return vp if margin >= 0 else VP_TOTAL - vp
    raise AssertionError("the scale starts at 0")


def player_key(player_id: int) -> str:
    return f"p{player_id}"


def side_key(players: Iterable[int]) -> str:
    return "s" + "-".join(str(p) for p in sorted(players))


def _entrant_keys(side: SideResult, by_side: bool) -> tuple[str, ...]:
    if not side.players:
        return ()  # a side that counts for nobody: its opponents' results stay
    if by_side:
        return (side_key(side.players),)
    return tuple(player_key(p) for p in side.players)


def _game_points(total: int, others: Sequence[int]) -> tuple[int, float, float]:
    best_other = max(others)
    match_points = 2 if total > best_other else 1 if total == best_other else 0
    vp = sum(victory_points_for_margin(total - o) for o in others) / len(others)
    difference = total - sum(others) / len(others)
    return match_points, round(vp, 2), round(difference, 2)


def _rank_points(total: int, others: Sequence[int]) -> float:
    beaten = sum(1 for o in others if total > o) + sum(0.5 for o in others if total == o)
    return round(2 * beaten / len(others), 2)


def collect_records(games: Iterable[GameResult], *, by_side: bool,
                    by_rank: bool = False) -> dict[str, EntrantRecord]:
    """Each entrant's appearances, one per game played (games with one side are ignored);
    `by_rank`: match points by rank at the table (mixed tables, see the module docstring)."""
    records: dict[str, EntrantRecord] = {}
    for game in games:
        if len(game.sides) < 2:
            continue
        totals = [side.total if side.decides is None else side.decides for side in game.sides]
        keys = [_entrant_keys(side, by_side) for side in game.sides]
        for index, side in enumerate(game.sides):
            others = totals[:index] + totals[index + 1:]
            match_points, vp, difference = _game_points(totals[index], others)
            opponents = tuple(k for i, ks in enumerate(keys) if i != index for k in ks)
            for position, key in enumerate(keys[index]):
                record = records.get(key)
                if record is None:
                    players = tuple(sorted(side.players)) if by_side else (side.players[position],)
                    record = records[key] = EntrantRecord(key=key, players=players)
                record.appearances.append(
                    Appearance(game.game_id, side.total, side.held, match_points, vp,
                               difference, opponents,
                               _rank_points(totals[index], others) if by_rank else None)
                )
    return records


def _summary(record: EntrantRecord) -> Row:
    counts = [0, 0, 0]  # losses, ties, wins by match points 0, 1, 2
    total = held = 0
    victory_points = difference = 0.0
    points = 0.0
    for a in record.appearances:
        counts[a.match_points] += 1
        points += a.points
        total += a.total
        held += a.held
        victory_points += a.victory_points
        difference += a.difference
    return {
        "key": record.key,
        "players": list(record.players),
        "games": len(record.appearances),
        "wins": counts[2],
        "ties": counts[1],
        "losses": counts[0],
        "match_points": round(points, 2) if points != int(points) else int(points),
        "total_points": total,
        "point_difference": round(difference, 2),
        "victory_points": round(victory_points, 2),
        "held_points": held,
    }


def _criteria(scoring: str, tie_breaks: Sequence[str]) -> list[str]:
    chosen = list(PRIMARY_CRITERIA.get(scoring, PRIMARY_CRITERIA["match_points"]))
    for name in tie_breaks:
        if name in TIE_BREAKS and name not in chosen:
            chosen.append(name)
    return chosen


def _head_to_head(group: list[Row], records: dict[str, EntrantRecord]) -> Callable[[Row], float]:
    members = {row["key"] for row in group}

    def points(row: Row) -> float:
        return sum(
            a.points
            for a in records[row["key"]].appearances
            if members.intersection(a.opponents) - {row["key"]}
        )

    return points


def _sort_key(criterion: str, group: list[Row],
              records: dict[str, EntrantRecord]) -> Callable[[Row], float]:
    if criterion == "head_to_head":
        return _head_to_head(group, records)
    if criterion == "fewest_held_points":
        return lambda row: -row["held_points"]
    return lambda row: row[criterion]


def _split(group: list[Row], key: Callable[[Row], float]) -> list[list[Row]]:
    ordered = sorted(group, key=key, reverse=True)
    parts: list[list[Row]] = []
    for row in ordered:
        if parts and key(parts[-1][0]) == key(row):
            parts[-1].append(row)
        else:
            parts.append([row])
    return parts


def rank_rows(rows: list[Row], criteria: Sequence[str],
              records: dict[str, EntrantRecord] | None = None) -> list[Row]:
    """Order rows by the criteria, each refining the groups the previous left tied; rows still
    tied share a rank (1, 2, 2, 4) and keep a stable order by name."""
    groups = [rows] if rows else []
    for criterion in criteria:
        refined: list[list[Row]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            else:
                refined.extend(_split(group, _sort_key(criterion, group, records or {})))
        groups = refined
    ranked: list[Row] = []
    for group in groups:
        rank = len(ranked) + 1
        for row in sorted(group, key=lambda r: (r.get("name", ""), r["key"])):
            ranked.append({**row, "rank": rank})
    return ranked


PER_GAME_FIGURES = ("match_points", "total_points", "point_difference", "victory_points")
BYE_AS_TIE = {"match_points": 1, "victory_points": VP_TOTAL / 2, "point_difference": 0.0}


def apply_sit_outs(row: Row, *, byes: int, rule: str, bye_points: int = 0) -> Row:
    """One standings row with its byes counted as `rule` says (see the module docstring)."""
    row["byes"] = byes
    games = row["games"]
    if rule == "per_game":
        row["per_game"] = True
        for name in PER_GAME_FIGURES:
            row[name] = round(row[name] / games, 2) if games else 0.0
        return row
    if not byes or rule not in ("fixed", "average"):
        return row
    if rule == "fixed":
        row["total_points"] += byes * bye_points
        for name, value in BYE_AS_TIE.items():
            row[name] = round(row[name] + byes * value, 2)
        return row
    if games:
        row["total_points"] += round(byes * row["total_points"] / games)
        for name in ("match_points", "victory_points", "point_difference"):
            row[name] = round(row[name] + byes * row[name] / games, 2)
    return row


MIXED_TABLES = ("per_player_round", "rank")


def _shape(game: GameResult) -> tuple[int, ...]:
    return tuple(sorted(side.seats or len(side.players) for side in game.sides))


def is_mixed(games: Sequence[GameResult]) -> bool:
    """Whether the games have more than one shape (sides x seats), e.g. tables of 4 and 6."""
    return len({_shape(g) for g in games if len(g.sides) >= 2}) > 1


def per_player_round(game: GameResult) -> GameResult:
    """The game with each side's figures scaled to a side of two (total x 2 / its seats)."""
    def scaled(value: int, seats: int) -> int:
        return round(value * 2 / seats)

    sides = []
    for side in game.sides:
        seats = side.seats or len(side.players)
        if seats in (0, 2):
            sides.append(side)
            continue
        sides.append(replace(side, total=scaled(side.total, seats), held=scaled(side.held, seats),
                             decides=None if side.decides is None else scaled(side.decides, seats)))
    return replace(game, sides=tuple(sides))


def event_standings(games: Iterable[GameResult], *, scoring: str, tie_breaks: Sequence[str],
                    by_side: bool, names: Mapping[int, str] | None = None,
                    byes: Mapping[str, int] | None = None, sit_outs: str = "none",
                    bye_points: int = 0, mixed_tables: str = "per_player_round") -> list[Row]:
    """Ranked standings rows of one event; `names` maps player ids to display names, `byes`
    entrant keys to their rotations sat out, counted as `sit_outs` says; a night of mixed table
    shapes is normalised as `mixed_tables` says (see the module docstring)."""
    names = names or {}
    byes = byes or {}
    games = list(games)
    mixed = is_mixed(games)
    if mixed and mixed_tables == "per_player_round":
        games = [per_player_round(g) for g in games]
    records = collect_records(games, by_side=by_side, by_rank=mixed and mixed_tables == "rank")
    rows = {
        key: apply_sit_outs(_summary(record), byes=byes.get(key, 0), rule=sit_outs,
                            bye_points=bye_points)
        for key, record in records.items()
    }
    primary = PRIMARY_CRITERIA.get(scoring, PRIMARY_CRITERIA["match_points"])[0]
    for row in rows.values():
        row["score"] = row[primary]
        row["name"] = " & ".join(names.get(p, f"#{p}") for p in row["players"])
    for key, record in records.items():
        strength = sum(rows[o]["score"] for a in record.appearances for o in a.opponents)
        rows[key]["opponents_strength"] = round(strength, 2)
    return rank_rows(list(rows.values()), _criteria(scoring, tie_breaks), records)


@dataclass(frozen=True)
class Night:
    """One entrant's result on one night of a season (from the event's standings row)."""

    event_id: int
    key: str
    players: tuple[int, ...]
    score: float
    total_points: int


def season_standings(nights: Iterable[Night], *, aggregate: str, best_n: int | None,
                     min_attendance: int, names: Mapping[str, str] | None = None) -> list[Row]:
    """Season rows: the sum or average of each entrant's counted nights (their best N when set).
    Entrants with fewer nights than `min_attendance` are listed after the ranked ones, unranked."""
    return season_rank(season_rows(nights, aggregate=aggregate, best_n=best_n, names=names),
                       min_attendance=min_attendance)


def season_rows(nights: Iterable[Night], *, aggregate: str, best_n: int | None,
                names: Mapping[str, str] | None = None) -> list[Row]:
    """The unranked season row of each entrant of `nights`: it depends on that entrant's nights
    alone, so the rows of entrants whose nights did not change can be kept."""
    names = names or {}
    by_key: dict[str, list[Night]] = defaultdict(list)
    for night in nights:
        by_key[night.key].append(night)
    rows = []
    for key, entries in by_key.items():
        counted = sorted(entries, key=lambda n: (n.score, n.total_points), reverse=True)
        counted = counted[:best_n] if best_n else counted
        score = sum(n.score for n in counted)
        if aggregate == "average":
            score = score / len(counted)
        rows.append({
            "key": key,
            "players": list(entries[0].players),
            "name": names.get(key, key),
            "nights": len(entries),
            "counted_nights": len(counted),
            "score": round(score, 2),
            "total_points": sum(n.total_points for n in counted),
        })
    return rows


SEASON_CRITERIA = ("score", "total_points", "nights")


def season_rank(rows: Iterable[Row], *, min_attendance: int) -> list[Row]:
    """Rank season rows (whatever their order; a `rank` they carry is replaced): score, total
    points, nights; entrants below `min_attendance` nights follow, unranked, in the same order
    (score, total points, nights, then name), as the season page says."""
    rows = list(rows)
    eligible = [r for r in rows if r["nights"] >= min_attendance]
    below = [r for r in rows if r["nights"] < min_attendance]
    ranked = rank_rows(eligible, SEASON_CRITERIA)
    return ranked + [{**r, "rank": None} for r in rank_rows(below, SEASON_CRITERIA)]


def season_from_event_rows(event_rows: Iterable[tuple[int, Sequence[Row]]], *, aggregate: str,
                           best_n: int | None, min_attendance: int) -> list[Row]:
    """Season rows from each night's standings rows: (event id, rows) pairs."""
    nights: list[Night] = []
    names: dict[str, str] = {}
    for event_id, rows in event_rows:
        for row in rows:
            names[row["key"]] = row["name"] if "name" in row else row["key"]
            nights.append(Night(event_id, row["key"], tuple(row["players"]), row["score"],
                                row["total_points"]))
    return season_standings(nights, aggregate=aggregate, best_n=best_n,
                            min_attendance=min_attendance, names=names)

"""When the night will end: each unfinished table's finish and the room's last table, each as a
median with a 10th-90th percentile range.

The model. A round's length at a table is lognormal: log(minutes) = log(m) + f + e, where m is
the club's usual round (the median of its past tables of the same preset and table size, else of
all its tables, else 30 minutes), f the table's pace (between tables: N(0, tau^2)) and e the
round's own luck (N(0, sigma^2)); tau and sigma are measured on the club's past tables when there
are enough of them. Tonight's rounds are evidence: a table's pace is the empirical-Bayes mean of
its rounds' log ratios to m, shrunk toward the room's pace by sigma^2 / tau^2 rounds (two or three
rounds of evidence move it halfway), and the room's pace is tonight's rounds shrunk toward the
club's usual by sigma^2 / upsilon^2. The round being played is drawn conditional on the time it
has already taken (a draw from the lognormal above the time elapsed), the rounds left are drawn
whole. A table with no entry yet may be playing its whole game without entering rounds (a move
log or a result sent at the end): as often as the club's finished tables did so, its whole game
is drawn above the time since the start instead (the sum of its rounds as one lognormal). The rotations still to be seated start when the room's last table is done plus the
changeover tonight has shown (5 minutes before one is seen) and add a game for each table, each
table with a fresh pace around the room's (players change tables). Monte Carlo over `draws`
draws of a seeded random.Random: the same inputs give the same forecast. The work is bounded by
tonight's tables and rounds and the past tables given (the caller caps those at 20 nights).

Rounds entered in a burst (a table entering the whole game at its end) give rounds of a few
seconds: rounds shorter than SHORTEST_ROUND or longer than LONGEST_ROUND are left out of the
evidence; a game known only whole (a move log) counts as its mean round."""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from league.pace.rounds import TableRounds

DEFAULT_ROUND_MINUTES = 30.0
DEFAULT_SIGMA = 0.30  # a round's luck at one table (log scale)
DEFAULT_TAU = 0.20  # one table's pace against another's
SMALLEST_SPREAD = 0.02  # a club whose rounds all take the same time
UPSILON = 0.15  # one night's pace against the club's usual
DEFAULT_CHANGEOVER_MINUTES = 5.0
LONGEST_CHANGEOVER_MINUTES = 30.0
SHORTEST_ROUND = 3.0  # minutes
LONGEST_ROUND = 180.0
MIN_PAST_TABLES = 3
DEFAULT_BY_ROUND = 0.8  # of tables enter each round as it ends
DRAWS = 400
LOW, HIGH = 0.1, 0.9
_NORMAL = statistics.NormalDist()


@dataclass(frozen=True)
class Estimate:
    """A forecast moment: `about` the median, `earliest`-`latest` the 10th-90th percentiles."""

    about: datetime
    earliest: datetime
    latest: datetime


@dataclass(frozen=True)
class TableForecast:
    rotation_number: int
    table_number: int
    finished: bool
    finish: Estimate


@dataclass(frozen=True)
class NightForecast:
    tables: tuple[TableForecast, ...]
    room: Estimate
    rotations_left: int


@dataclass(frozen=True)
class ClubPace:
    """The club's usual round (minutes) and its spreads, on the log scale."""

    minutes: float = DEFAULT_ROUND_MINUTES
    sigma: float = DEFAULT_SIGMA
    tau: float = DEFAULT_TAU


def _minutes(delta: timedelta) -> float:
    return delta.total_seconds() / 60


def _plausible(minutes: float) -> bool:
    return SHORTEST_ROUND <= minutes <= LONGEST_ROUND


def round_minutes(table: TableRounds) -> list[float]:
    """The table's rounds as evidence (minutes): each round entered on its own, or a game known
    only whole (finished without its rounds' times) as its mean round, once per round."""
    rounds = [m for d in table.durations() if _plausible(m := _minutes(d))]
    if rounds or not table.finished or table.started_at is None or table.done_at is None:
        return rounds
    mean = _minutes(table.done_at - table.started_at) / table.rounds
    return [mean] * table.rounds if _plausible(mean) else []


def club_pace(past: Sequence[TableRounds], *, preset: str, players: int) -> ClubPace:
    """The club's pace from its past tables: of this preset and table size when it has played
    enough of them, else all of them, else the defaults."""
    observed = [(t, r) for t in past if (r := round_minutes(t))]
    same = [r for t, r in observed if t.preset == preset and t.players == players]
    rounds = same if len(same) >= MIN_PAST_TABLES else [r for _, r in observed]
    if len(rounds) < MIN_PAST_TABLES:
        return ClubPace()
    means = [statistics.fmean(math.log(m) for m in r) for r in rounds]
    residuals = [math.log(m) - mean for r, mean in zip(rounds, means, strict=True) if len(r) > 1
                 for m in r]
    freedom = len(residuals) - sum(1 for r in rounds if len(r) > 1)
    sigma = math.sqrt(sum(x * x for x in residuals) / freedom) if freedom >= 8 else DEFAULT_SIGMA
    per_table = statistics.fmean(len(r) for r in rounds)
    spread = statistics.pvariance(means) - sigma * sigma / per_table
    return ClubPace(minutes=math.exp(statistics.median(means)),
                    sigma=min(max(sigma, SMALLEST_SPREAD), 1.0),
                    tau=min(max(math.sqrt(max(spread, 0.0)), SMALLEST_SPREAD), 1.0))


@dataclass(frozen=True)
class _Pace:
    """A table's pace for the draws: mean and standard deviation of f."""

    mean: float
    sd: float


def _room_pace(tonight: Sequence[TableRounds],
               club: dict[tuple[str, int], ClubPace]) -> tuple[_Pace, dict[int, _Pace]]:
    """The room's pace tonight and each table's (empirical Bayes, see the module's words)."""
    logs = {t.table_id: [math.log(m / _usual(club, t).minutes) for m in round_minutes(t)]
            for t in tonight}
    var = statistics.fmean(p.sigma for p in club.values()) ** 2
    tau = statistics.fmean(p.tau for p in club.values())
    every = [x for xs in logs.values() for x in xs]
    room_precision = len(every) / var + 1 / UPSILON ** 2
    room = _Pace(sum(every) / var / room_precision, math.sqrt(1 / room_precision))
    tables = {}
    for table_id, xs in logs.items():
        precision = len(xs) / var + 1 / tau ** 2
        mean = room.mean + sum(x - room.mean for x in xs) / var / precision
        tables[table_id] = _Pace(mean, math.sqrt(1 / precision + room.sd ** 2))
    return room, tables


def _usual(club: dict[tuple[str, int], ClubPace], table: TableRounds) -> ClubPace:
    return club[(table.preset, table.players)]


def changeover_minutes(tonight: Sequence[TableRounds]) -> float:
    """The mean time between a rotation's last table done and the next rotation's start."""
    starts: dict[int, datetime] = {}
    done: dict[int, list[datetime | None]] = {}
    for t in tonight:
        if t.started_at is not None:
            starts.setdefault(t.rotation_number, t.started_at)
        done.setdefault(t.rotation_number, []).append(t.done_at)
    gaps = []
    for number, start in starts.items():
        before = done.get(number - 1)
        if before and all(before):
            gaps.append(_minutes(start - max(d for d in before if d is not None)))
    seen = [min(max(g, 0.0), LONGEST_CHANGEOVER_MINUTES) for g in gaps]
    return statistics.fmean(seen) if seen else DEFAULT_CHANGEOVER_MINUTES


def _summed(usual: ClubPace, factor: float, count: int) -> tuple[float, float]:
    """(mu, sigma) of `count` rounds' sum as one lognormal with its first two moments
    (Fenton-Wilkinson; one round: exact)."""
    sigma2 = math.log(1 + math.expm1(usual.sigma ** 2) / count)
    mu = math.log(count * usual.minutes) + factor + (usual.sigma ** 2 - sigma2) / 2
    return mu, math.sqrt(sigma2)


class _Draws:
    """Rounds (minutes) drawn from a seeded random.Random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def factor(self, pace: _Pace) -> float:
        return self.rng.gauss(pace.mean, pace.sd)

    def rounds(self, usual: ClubPace, factor: float, count: int) -> float:
        mu = math.log(usual.minutes) + factor
        return sum(math.exp(self.rng.gauss(mu, usual.sigma)) for _ in range(count))

    def round_left(self, usual: ClubPace, factor: float, elapsed: float, count: int = 1) -> float:
        """The rest of `count` rounds already `elapsed` minutes long, drawn above `elapsed`."""
        mu, sigma = _summed(usual, factor, count)
        floor = _NORMAL.cdf((math.log(elapsed) - mu) / sigma) if elapsed > 0 else 0.0
        u = min(floor + (1 - floor) * self.rng.random(), 1 - 1e-9)
        return max(math.exp(mu + sigma * _NORMAL.inv_cdf(max(u, 1e-12))) - elapsed, 0.0)


def entered_by_round(tables: Sequence[TableRounds]) -> float:
    """The share of finished tables that entered their game round by round (the others sent
    it whole at the end, a move log or a result): a table without an entry yet may be one."""
    finished = [t for t in tables if t.finished]
    if len(finished) < MIN_PAST_TABLES:
        return DEFAULT_BY_ROUND
    return sum(1 for t in finished if t.ends) / len(finished)


def _still_playing(usual: ClubPace, factor: float, elapsed: float, count: int) -> float:
    """How likely `count` rounds last longer than `elapsed` minutes."""
    mu, sigma = _summed(usual, factor, count)
    return 1 - _NORMAL.cdf((math.log(elapsed) - mu) / sigma) if elapsed > 0 else 1.0


def _by_round_odds(usual: ClubPace, table: TableRounds, pace: _Pace, now: datetime,
                   by_round: float) -> float:
    """How likely this table enters its rounds one by one: a table that has entered one does;
    one without an entry yet as often as the club's tables do, weighed by how likely its first
    round, against its whole game, would still be going after this long (Bayes)."""
    if table.rounds_done > 0 or table.started_at is None:
        return 1.0
    elapsed = max(_minutes(now - table.started_at), 0.0)
    one = by_round * _still_playing(usual, pace.mean, elapsed, 1)
    whole = (1 - by_round) * _still_playing(usual, pace.mean, elapsed, table.rounds)
    return one / (one + whole) if one + whole > 0 else by_round


def _table_left(draw: _Draws, usual: ClubPace, table: TableRounds, pace: _Pace,
                now: datetime, by_round: float) -> float:
    """Minutes from `now` until this unfinished table is done, in one draw: its round drawn
    above the time it has taken, then the rounds left; or, for a table that may send its game
    whole at the end (`by_round` the odds it does not), its whole game above the time since the
    start."""
    factor = draw.factor(pace)
    current = table.current_round or table.rounds
    began = table.round_began(current) or table.started_at or now
    elapsed = max(_minutes(now - began), 0.0)
    if draw.rng.random() >= by_round:
        return draw.round_left(usual, factor, elapsed, table.rounds)
    return draw.round_left(usual, factor, elapsed) + draw.rounds(usual, factor, table.rounds - current)


def _rotations_left(draw: _Draws, club: dict[tuple[str, int], ClubPace], room: _Pace,
                    seated: list[TableRounds], rotations: int, end: float,
                    changeover: float) -> float:
    """The night's end (minutes from now) after `rotations` more rotations seated like the
    last one, starting when the room is done plus the changeover (or now, if later)."""
    night = draw.factor(room)
    for _rotation in range(rotations):
        games = []
        for table in seated:
            usual = _usual(club, table)
            games.append(draw.rounds(usual, night + draw.rng.gauss(0, usual.tau), table.rounds))
        end = max(end + changeover, 0.0) + max(games)
    return end


def _percentiles(now: datetime, minutes: list[float]) -> Estimate:
    ordered = sorted(minutes)

    def at(q: float) -> datetime:
        return now + timedelta(minutes=ordered[round(q * (len(ordered) - 1))])

    return Estimate(about=at(0.5), earliest=at(LOW), latest=at(HIGH))


def _exact(moment: datetime) -> Estimate:
    return Estimate(about=moment, earliest=moment, latest=moment)


def night_forecast(*, tonight: Sequence[TableRounds], past: Sequence[TableRounds],
                   rotations_left: int, now: datetime, seed: int = 0,
                   draws: int = DRAWS) -> NightForecast | None:
    """The forecast of tonight's tables (every started rotation's) and the room's end, with
    `rotations_left` rotations still to seat after them. None before any rotation has started
    or once every table is done and no rotation is left."""
    started = [t for t in tonight if t.started_at is not None]
    playing = [t for t in started if not t.finished]
    if not started or (not playing and rotations_left <= 0):
        return None
    club = {(preset, players): club_pace(past, preset=preset, players=players)
            for preset, players in {(t.preset, t.players) for t in started}}
    room, paces = _room_pace(started, club)
    draw = _Draws(random.Random(seed))
    latest = max(t.rotation_number for t in started)
    seated = [t for t in started if t.rotation_number == latest]
    changeover = changeover_minutes(started)
    by_round = entered_by_round([*past, *started])
    done_so_far = max((t.done_at for t in started if t.done_at is not None), default=now)
    lefts: dict[int, list[float]] = {t.table_id: [] for t in playing}
    odds = {t.table_id: _by_round_odds(_usual(club, t), t, paces[t.table_id], now, by_round)
            for t in playing}
    ends: list[float] = []
    for _ in range(draws):
        end = _minutes(done_so_far - now)
        for table in playing:
            left = _table_left(draw, _usual(club, table), table, paces[table.table_id], now,
                               odds[table.table_id])
            lefts[table.table_id].append(left)
            end = max(end, left)
        ends.append(_rotations_left(draw, club, room, seated, rotations_left, end, changeover))
    tables = tuple(
        TableForecast(t.rotation_number, t.table_number, t.finished,
                      _exact(t.done_at) if t.done_at is not None else _percentiles(now, lefts[t.table_id]))
        for t in sorted(started, key=lambda t: (t.rotation_number, t.table_number)))
    return NightForecast(tables=tables, room=_percentiles(now, ends), rotations_left=rotations_left)


def known_at(table: TableRounds, moment: datetime) -> TableRounds | None:
    """The table as it was known at `moment`: only the entries that had arrived (None when its
    rotation had not started yet). For measuring a forecast on a past night."""
    if table.started_at is None or table.started_at > moment:
        return None
    ends = tuple(itertools.takewhile(lambda end: end <= moment, table.ends))
    done = table.done_at if table.done_at is not None and table.done_at <= moment else None
    return replace(table, ends=ends, done_at=done)

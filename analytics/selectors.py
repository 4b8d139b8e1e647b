"""Reads of the analytics for pages and the API: the stored snapshots (standings, ratings,
statistics) and the few figures read live (a player's games, a head-to-head, an event's rounds).

The jobs' reads are in their topics: `analytics.standings.selectors`,
`analytics.ratings.selectors`, `analytics.statistics.selectors`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from analytics.models import (
    PartnershipStats,
    PlayerRating,
    PlayerStats,
    RatingHistory,
    StandingsSnapshot,
)
from analytics.statistics import compute as statistics
from analytics.statistics import selectors as statistics_selectors
from core.compiled_query import CompiledQuery
from games.models import RoundResult
from handfoot.rules import PartKind, ScoringPart, parts_paid, rules_from_spec
from league.models import Event, Game, Player, Season, Seat, shown_name
from league.names import played_by
from league.permissions import visible_events

# Who is looking: results of events they may not see (`visible_events`) never reach them.
Viewer = User | AnonymousUser | None


def _signed_in(viewer: Viewer) -> bool:
    return viewer is not None and viewer.is_authenticated


def _first[Q_: QuerySet[Any, Any]](queryset: Q_) -> Q_:
    """What `QuerySet.first()` runs (ordered by pk unless ordered already), as a final
    queryset a compiled query takes."""
    return (queryset if queryset.ordered else queryset.order_by("pk"))[:1]


# The player page's reads, their SQL built once per process (`core.compiled_query`). Those that
# depend on who looks (`visible_events`) are compiled for a viewer not signed in only.
_PLAYER_BY_PK = CompiledQuery(
    lambda club, pk: Player.objects.select_related("club", "stats", "rating")
    .filter(club__slug=club, pk=pk).order_by()[:1], club=str, pk=int)


def player_by_pk(*, club: str, pk: int) -> Player | None:
    """The club's player of this number (a player page's address), with their club and, read
    along, their stored statistics and rating (`player_stats` and `player_rating` read them
    from it, no other query)."""
    return next(iter(_PLAYER_BY_PK.run(club=club, pk=pk)), None)


def player_by_id(*, pk: int) -> Player | None:
    """The player of this number, whatever their club (the API's address of a player), with
    their club and, read along, their stored statistics and rating."""
    return (Player.objects.select_related("club", "stats", "rating").filter(pk=pk)
            .order_by().first())


def player_by_old_slug(*, club: str, slug: str) -> Player | None:
    """The player an old address (by slug, i.e. by name) still leads to: only one whose name is
    public in full. For a player who shows an initial or no name the slug leads nowhere, as if
    there were no such player (the address would confirm the name)."""
    return (Player.objects.select_related("club")
            .filter(club__slug=club, slug=slug, name_shown=Player.NameShown.FULL).first())


_PLAYER_STATS = CompiledQuery(
    lambda player_id: _first(PlayerStats.objects.filter(player_id=player_id)
                             .values_list("data", flat=True)), player_id=int)
_PLAYER_RATING = CompiledQuery(
    lambda player_id: _first(PlayerRating.objects.filter(player_id=player_id)), player_id=int)
_RATING_HISTORY = CompiledQuery(
    lambda player_id: RatingHistory.objects.filter(player_id=player_id).order_by("position")
    .values_list("games", "ordinal", "mu"), player_id=int)


def event_standings(*, event: Event) -> StandingsSnapshot | None:
    """The event's stored standings (None before the first recompute)."""
    return StandingsSnapshot.objects.filter(event=event).first()


def event_standings_computed_at(*, event: Event) -> datetime | None:
    """When the event's stored standings were computed (None before the first recompute),
    without reading their rows."""
    return StandingsSnapshot.objects.filter(event=event).values_list("computed_at", flat=True).first()


def season_standings(*, season: Season) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(season=season).first()


def leaderboard_min_games() -> int:
    """Fewest rated games to appear on the leaderboard (setting ANALYTICS_LEADERBOARD_MIN_GAMES)."""
    return getattr(settings, "ANALYTICS_LEADERBOARD_MIN_GAMES", 3)


def leaderboard(*, club_id: int | None, min_games: int) -> list[PlayerRating]:
    ratings = PlayerRating.objects.filter(games__gte=min_games).select_related("player__club")
    if club_id is not None:
        ratings = ratings.filter(club_id=club_id)
    return list(ratings.order_by("-ordinal", "player__name"))


def player_stats(*, player: Player) -> dict:
    if Player.stats.is_cached(player):  # read along (`player_by_pk`)
        stats = getattr(player, "stats", None)  # None: no statistics stored yet
        return (stats.data if stats is not None else None) or {}
    return next(iter(_PLAYER_STATS.run(player_id=player.pk)), None) or {}


@dataclass(frozen=True)
class ScoreOnlyRecord:
    """A player's games whose results carry their scores only (a past brought in from a
    spreadsheet, a night on paper): what their totals show, since the statistics that need each
    round's detail leave them out."""

    games: int
    wins: int
    ties: int
    losses: int

    @property
    def win_rate(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


def score_only_record(*, player: Player, viewer: Viewer) -> ScoreOnlyRecord | None:
    """Wins, ties and losses of the player's score-only games the viewer may see, from the
    sides' totals (two queries); None when the player has none."""
    seats = dict(Seat.objects.filter(
        player=player, table__game__round_results__detail=False,
        table__rotation__event__in=visible_events(viewer),
    ).values_list("table__game", "side").distinct())
    if not seats:
        return None
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for game_id, side, total in (RoundResult.objects.filter(game_id__in=seats, detail=False)
                                 .values("game_id", "side").annotate(total=Sum("score"))
                                 .values_list("game_id", "side", "total")):
        totals[game_id][side] = total
    wins = ties = losses = 0
    for game_id, side in seats.items():
        own = totals[game_id].get(side)
        others = [t for s, t in totals[game_id].items() if s != side]
        if own is None or not others:
            continue
        wins += own > max(others)
        ties += own == max(others)
        losses += own < max(others)
    games = wins + ties + losses
    return ScoreOnlyRecord(games, wins, ties, losses) if games else None


STAT_LABELS = {
    "games": "Games", "wins": "Wins", "ties": "Ties", "losses": "Losses", "win_rate": "Win rate",
    "rounds": "Rounds", "total_points": "Total points", "average_game_total": "Average game total",
    "average_score_round_1": "Average side score, round 1",
    "average_score_round_2": "Average side score, round 2",
    "average_score_round_3": "Average side score, round 3",
    "average_score_round_4": "Average side score, round 4",
    "went_out_rate": "Went out (share of rounds)",
    "clean_books_per_round": "Clean books per round", "dirty_books_per_round": "Dirty books per round",
    "wild_books_per_round": "Wild books per round", "average_held_points": "Average held points",
    "red_threes_per_round": "Red 3s per round", "logged_rounds": "Rounds with a move log",
    "turns_to_foot": "Turns to reach the foot", "pickups_per_round": "Pile pickups per round",
    "wilds_in_dirty_per_round": "Wild cards on dirty melds per round",
    "black_three_blocks_per_round": "Black 3 blocks per round",
    "first_laydown_turn": "Turn of the first lay-down",
    "result_rate": "Result rate (win 1, tie ½)", "expected_rate": "Expected (from ratings)",
    "synergy": "Synergy (result − expected)",
}


# Shares of games or rounds (0..1): pages show them as percentages, CSV keeps the fraction.
RATE_STATS = {"win_rate", "went_out_rate", "result_rate", "expected_rate"}


def stat_rows(*, stats: dict) -> list[tuple[str, object, bool]]:
    """(label, value, is_rate) in a fixed order, for tables and CSV."""
    return [(label, stats[key], key in RATE_STATS)
            for key, label in STAT_LABELS.items() if key in stats]


def player_rating(*, player: Player) -> PlayerRating | None:
    if Player.rating.is_cached(player):  # read along (`player_by_pk`)
        return getattr(player, "rating", None)
    return next(iter(_PLAYER_RATING.run(player_id=player.pk)), None)


def rating_history(*, player: Player) -> list[tuple[int, float, float]]:
    """(games played, display value, mean) after each of the player's games, in order."""
    return _RATING_HISTORY.run(player_id=player.pk)


@dataclass(frozen=True, slots=True)
class Partner:
    """A partner as the player page lists them (read without building Player rows)."""

    pk: int
    name: str  # as the partner chose to show it in public
    slug: str

    @property
    def shown_name(self) -> str:
        return self.name


_PARTNER_ROWS = CompiledQuery(
    lambda player_id: (PartnershipStats.objects.filter(Q(player_a_id=player_id) | Q(player_b_id=player_id))
            .order_by()
            .values_list("player_a_id", "player_a__name", "player_a__name_shown", "player_a__slug",
                         "player_b_id", "player_b__name", "player_b__name_shown", "player_b__slug",
                         "data")), player_id=int)


def player_partners(*, player: Player) -> list[tuple[Partner, dict]]:
    """Each partner of the player with the pair's figures, most frequent first."""
    rows: Any = _PARTNER_ROWS.run(player_id=player.pk)
    partners = []
    for row in rows:
        pk, name, shown, slug = row[4:8] if row[0] == player.pk else row[0:4]
        partners.append((Partner(pk, shown_name(pk, name, shown), slug), row[8]))
    return sorted(partners, key=lambda item: (-(item[1].get("games") or 0), item[0].name))


def partnership_stats(*, a: Player, b: Player) -> dict:
    low, high = sorted([a.pk, b.pk])
    data = PartnershipStats.objects.filter(player_a_id=low, player_b_id=high).values_list(
        "data", flat=True).first()
    return data or {}


def _game_totals(player_id: int, viewer: Viewer) -> QuerySet[RoundResult, int]:
    return (
        RoundResult.objects.filter(game__table__rotation__event__in=visible_events(viewer),
                                   game__table__seats__player_id=player_id,
                                   game__table__seats__side=F("side"))
        .values("game_id").annotate(total=Sum("score")).order_by()
        .values_list("total", flat=True)
    )


_PUBLIC_GAME_TOTALS = CompiledQuery(lambda player_id: _game_totals(player_id, None), player_id=int)


def player_game_totals(*, player: Player, viewer: Viewer) -> list[int]:
    """The player's side's total in each confirmed game the viewer may see."""
    if not _signed_in(viewer):
        return _PUBLIC_GAME_TOTALS.run(player_id=player.pk)
    return list(_game_totals(player.pk, viewer))


def _detail_parts(event: Event) -> tuple[ScoringPart, ...]:
    """A round's detail in the export of an event's games, as the engine declares the parts (a
    detail such as a concealed going out where the event's rules pay it): how the side went out
    (the yes/no parts), what it laid down (the counts) and what it was left holding (the points
    taken away from its score). A totals-only result (RoundResult.detail False) knows none of
    these: blank, never zero."""
    paid = parts_paid(rules_from_spec(event.rules_spec))
    return (
        *(part for part in paid if part.kind == PartKind.YES_NO),
        *(part for part in paid if part.kind == PartKind.COUNT),
        *(part for part in paid if part.adds < 0),
    )


def game_round_columns(*, event: Event) -> list[str]:
    """The columns of `event_game_rounds`."""
    return ["rotation", "table", "round", "side", "players", "score",
            *(part.name for part in _detail_parts(event)), "game_total"]


def event_game_rounds(*, event: Event) -> list[dict]:
    """Every confirmed round of the event's games, one row per side: rotation, table, round and
    side (from 1), the side's players by name, the round's figures and the side's game total."""
    results = list(
        RoundResult.objects.filter(game__table__rotation__event=event)
        .select_related("game__table__rotation")
        .order_by("game__table__rotation__number", "game__table__number", "round_number", "side")
    )
    game_ids = {r.game_id for r in results}
    names: dict[tuple[int, int], list[str]] = defaultdict(list)
    seats = (Seat.objects.filter(table__game__in=game_ids).order_by("seat_number")
             .values_list("table__game", "side", "player_id", "player__name", "player__name_shown"))
    for game_id, side, player_id, name, shown in seats:
        names[(game_id, side)].append(shown_name(player_id, name, shown))
    totals: dict[tuple[int, int], int] = defaultdict(int)
    for r in results:
        totals[(r.game_id, r.side)] += r.score
    detail = _detail_parts(event)
    return [
        {"rotation": r.game.table.rotation.number, "table": r.game.table.number,
         "round": r.round_number or "game total", "side": r.side + 1,
         "players": " & ".join(names[(r.game_id, r.side)]), "score": r.score,
         **(_round_detail(r, detail) if r.detail else dict.fromkeys((p.name for p in detail), "")),
         "game_total": totals[(r.game_id, r.side)]}
        for r in results
    ]


def _round_detail(r: RoundResult, detail: tuple[ScoringPart, ...]) -> dict:
    return {part.name: _detail_cell(part, getattr(r, part.name)) for part in detail}


def _detail_cell(part: ScoringPart, value: int) -> int | str:
    if part.kind == PartKind.YES_NO:
        return "yes" if value else "no"
    return value


def head_to_head_games(*, game_ids: list[int], a: set[int]) -> list[dict]:
    """The games of a head-to-head, newest first: event, date, rotation, table, side A's total,
    side B's (the best other side) and A's result."""
    games = (Game.objects.filter(pk__in=game_ids).select_related("table__rotation__event")
             .order_by("-table__rotation__event__date", "-table__rotation__number", "-pk"))
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for game_id, side, total in (
        RoundResult.objects.filter(game_id__in=game_ids).values_list("game_id", "side")
        .annotate(total=Sum("score")).order_by()
    ):
        totals[game_id][side] = total
    sides: dict[int, int] = {}
    for game_id, side in Seat.objects.filter(table__game__in=game_ids, player_id__in=a).values_list(
            "table__game", "side"):
        sides[game_id] = side
    rows = []
    for game in games:
        side = sides.get(game.pk)
        mine = totals[game.pk].get(side, 0) if side is not None else 0
        theirs = max((t for s, t in totals[game.pk].items() if s != side), default=0)
        rows.append({"event": game.table.rotation.event, "rotation": game.table.rotation.number,
                     "table": game.table.number, "a": mine, "b": theirs,
                     "result": "win" if mine > theirs else "tie" if mine == theirs else "loss"})
    return rows


def _recent_game(seat: Seat, own: int, best: int) -> dict:
    return {"event": seat.rotation.event, "rotation": seat.rotation.number,
            "table": seat.table.number, "own": own, "best_other": best,
            "result": "win" if own > best else "tie" if own == best else "loss",
            "note": played_by(seat.player.shown_name, seat.substitute_for.shown_name)
            if seat.substitute_for is not None else ""}


def _recent_seats(player_id: int, limit: int, viewer: Viewer) -> QuerySet[Seat]:
    """`recent_games`'s seats of events the viewer may see, each with its side's game total and
    the best other side's (0 when none has a result), in one query."""
    results = RoundResult.objects.filter(game__table_id=OuterRef("table_id")).order_by()
    own = results.filter(side=OuterRef("side")).values("game_id").annotate(
        total=Sum("score")).values("total")
    best = (results.filter(~Q(side=OuterRef("side"))).values("side").annotate(total=Sum("score"))
            .order_by("-total").values("total")[:1])
    return (
        Seat.objects.filter(Exists(results), Q(player_id=player_id) | Q(substitute_for_id=player_id),
                            rotation__event__in=visible_events(viewer))
        .annotate(own_total=Coalesce(Subquery(own), Value(0), output_field=IntegerField()),
                  best_other=Coalesce(Subquery(best), Value(0), output_field=IntegerField()))
        .select_related("rotation__event", "table", "player", "substitute_for")
        .order_by("-rotation__event__date", "-rotation__number")[:limit]
    )


# By limit (a slice bound is no value of a compiled query); the page asks for one.
_PUBLIC_RECENT_SEATS: dict[int, CompiledQuery[Seat]] = {}


def recent_games(*, player: Player, limit: int, viewer: Viewer) -> list[dict]:
    """The player's latest confirmed games of events the viewer may see: event, rotation, own
    side total and best other."""
    if _signed_in(viewer):
        seats = list(_recent_seats(player.pk, limit, viewer))
    else:
        compiled = _PUBLIC_RECENT_SEATS.get(limit)
        if compiled is None:
            compiled = _PUBLIC_RECENT_SEATS.setdefault(limit, CompiledQuery(
                lambda player_id: _recent_seats(player_id, limit, None), player_id=int))
        seats = compiled.run(player_id=player.pk)
    return [_recent_game(seat, seat.own_total, seat.best_other)  # type: ignore[attr-defined]  # annotated
            for seat in seats]


def head_to_head(*, club_id: int, a: set[int], b: set[int], viewer: Viewer) -> dict:
    """Record of the players `a` (one side) against `b` (another side) in the club's games that
    the viewer may see."""
    games = Game.objects.filter(table__rotation__event__in=visible_events(viewer),
                                table__rotation__event__club_id=club_id)
    for player_id in a | b:  # sat there, or a substitute played for them (it may count as theirs)
        games = games.filter(Q(table__seats__player_id=player_id)
                             | Q(table__seats__substitute_for_id=player_id))
    game_ids = list(games.values_list("pk", flat=True).distinct())
    return statistics.head_to_head(
        statistics_selectors.rounds_frame(round_filter=Q(game_id__in=game_ids)),
        statistics_selectors.seats_frame(seat_filter=Q(table__game__in=game_ids)), a, b)


def player_rated_nights(*, player: Player) -> int:
    """The nights (events) in which the player has a rated game."""
    return (RatingHistory.objects.filter(player=player)
            .values("game__table__rotation__event_id").distinct().count())


def inseparable_partner(*, player: Player, rating: PlayerRating | None,
                        partners: list[tuple[Partner, dict]]) -> tuple[Partner, PlayerRating] | None:
    """The partner the player has played every rated game with, when that partner has never
    played without them either: the ratings can only rate the two as a pair."""
    if rating is None or not partners:
        return None
    partner, data = partners[0]
    # Read whether or not there is one partner only: a page's queries do not vary with its data.
    theirs = PlayerRating.objects.filter(player_id=partner.pk).first()
    together = data.get("games") or 0
    if len(partners) != 1 or theirs is None or not together == rating.games == theirs.games:
        return None
    return partner, theirs

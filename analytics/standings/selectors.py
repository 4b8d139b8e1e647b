"""Reads of the standings job: the confirmed games shaped for `analytics.standings.compute`,
the byes, the nights' lines of a season, and the events the stale snapshot sweep re-queues.

Loading functions use `.values_list()` and a fixed number of queries whatever the data size.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum

from analytics.models import NightResult, StandingsSnapshot
from analytics.standings import compute
from analytics.standings.compute import GameResult, SideResult
from analytics.substitutes import seat_credits, substitute_notes, substituted_rotations
from games.models import ResultVersion, RoundResult
from league.models import Event, Game, Player, Season, Seat, shown_name

FEW_GAMES = 10_000


def few_or_all(games: QuerySet[Game]) -> QuerySet[Game] | list[int]:
    """A night's or a few players' games as a list of ids (PostgreSQL then reads their rows by
    index; as a subquery it may scan whole tables), a club's whole history as the subquery."""
    ids = list(games.values_list("pk", flat=True)[:FEW_GAMES + 1])
    return ids if len(ids) <= FEW_GAMES else games


def game_results(*, game_filter: Q) -> dict[int, GameResult]:
    """Each game's sides (players and game totals), for the games matched by `game_filter`
    (a Q on Game) that have a confirmed result. A substitute's seat is under the player it
    counts for (`analytics.substitutes`)."""
    games = few_or_all(Game.objects.filter(game_filter))
    totals = (
        RoundResult.objects.filter(game__in=games)
        .values_list("game_id", "side", "game__table__rotation__event_id")
        .annotate(total=Sum("score"), held=Sum("held_points"))
        .order_by()
    )
    seat_rows = list(Seat.objects.filter(table__game__in=games).order_by().values_list(
        "table__game__id", "side", "player_id"))
    seated = Counter((game_id, side) for game_id, side, _ in seat_rows)  # tables of 4 and 6
    seats = seat_credits(games=games).seats(seat_rows)
    players: dict[tuple[int, int], list[int]] = defaultdict(list)
    for game_id, side, player_id in seats:
        players[(game_id, side)].append(player_id)
    sides: dict[int, list[tuple[int, SideResult]]] = defaultdict(list)
    events: dict[int, int] = {}
    # Streamed: a club's whole history is read here once per full rebuild.
    for game_id, side, event_id, total, held in totals.iterator(chunk_size=20_000):
        member_ids = tuple(sorted(players.get((game_id, side), ())))
        sides[game_id].append((side, SideResult(member_ids, int(total), int(held),
                                                seats=seated[(game_id, side)])))
        events[game_id] = event_id
    return {
        game_id: GameResult(game_id, tuple(s for _, s in sorted(entries, key=lambda e: e[0])),
                            events[game_id])
        for game_id, entries in sides.items()
    }


def event_byes(*, event: Event, games: Iterable[GameResult]) -> dict[str, int]:
    """Entrant key → rotations of the event with confirmed games that the entrant did not play,
    although entered and not yet withdrawn (sat out, or arrived late)."""
    rotation_of = dict(
        Game.objects.filter(pk__in=[g.game_id for g in games]).order_by()
        .values_list("pk", "table__rotation__number")
    )
    counted = set(rotation_of.values())
    played: dict[str, set[int]] = defaultdict(set)
    for game in games:
        for side in game.sides:
            keys = ([compute.side_key(side.players)] if event.is_fixed_partnerships
                    else [compute.player_key(p) for p in side.players])
            for key in keys:
                played[key].add(rotation_of[game.game_id])
    substituted = substituted_rotations(event_id=event.pk) if event.is_fixed_partnerships else {}
    byes = {}
    for reg in event.registrations.select_related("partnership"):
        if reg.player_id:
            key = compute.player_key(reg.player_id)
        elif reg.partnership is not None:
            pair = (reg.partnership.player_a_id, reg.partnership.player_b_id)
            key = compute.side_key(pair)
            played[key] |= {r for p in pair for r in substituted.get(p, ())}
        else:
            continue  # neither a player nor a pair: the model's constraint forbids it
        last = reg.withdrawn_after_rotation
        due = {r for r in counted if last is None or r <= last}
        byes[key] = len(due - played[key])
    return byes


def event_standings_rows(*, event: Event, games: Iterable[GameResult],
                         names: Mapping[int, str]) -> list[dict]:
    """The event's ranked standings rows from these game results under the event's settings:
    scoring, tie-breaks, partnerships and how sit-outs count (byes). The one place the event's
    standings rules are applied: the stored snapshot and the what-if both use it."""
    games = sorted(games, key=lambda g: g.game_id)
    byes = (event_byes(event=event, games=games)
            if event.sit_out_scoring != Event.SitOutScoring.NONE else {})
    rows = compute.event_standings(
        games,
        scoring=event.scoring,
        tie_breaks=event.tie_breaks or [],
        by_side=event.is_fixed_partnerships,
        names=names,
        byes=byes,
        sit_outs=event.sit_out_scoring,
        bye_points=event.bye_points,
        mixed_tables=event.mixed_tables,
    )
    return substitute_notes(rows, event_id=event.pk)


def player_names(*, player_ids: Iterable[int]) -> dict[int, str]:
    """The players' names as each chose to show them in public (standings are public)."""
    rows = Player.objects.filter(pk__in=list(player_ids)).values_list("pk", "name", "name_shown")
    return {pk: shown_name(pk, name, shown) for pk, name, shown in rows}


def night_results(*, season: Season, keys: Iterable[str] | None = None
                  ) -> tuple[list[compute.Night], dict[str, str]]:
    """The season's nights of every entrant, or of the entrants `keys` only (by index), in
    event order, and each entrant's name on their latest night."""
    rows = NightResult.objects.filter(event__season=season)
    if keys is not None:
        rows = rows.filter(key__in=list(keys))
    nights, names = [], {}
    for event_id, key, players, name, score, total in rows.order_by("event_id", "key").values_list(
            "event_id", "key", "players", "name", "score", "total_points"):
        nights.append(compute.Night(event_id, key, tuple(players), score, total))
        names[key] = name
    return nights, names


def club_event_games(*, club_ids: Iterable[int]) -> dict[int, list[tuple[int, int]]]:
    """Each club's events in order as (event id, games played), every club of `club_ids`
    present: two queries."""
    events: dict[int, list[tuple[int, int]]] = {club_id: [] for club_id in club_ids}
    played = dict(Game.objects.filter(table__rotation__event__club_id__in=list(events))
                  .order_by().values_list("table__rotation__event_id")
                  .annotate(games=Count("pk")).values_list("table__rotation__event_id", "games"))
    for club_id, event_id in (Event.objects.filter(club_id__in=list(events)).order_by("pk")
                              .values_list("club_id", "pk")):
        events[club_id].append((event_id, played.get(event_id, 0)))
    return events


def season_games(*, season: Season) -> int:
    """The confirmed games of the season's nights, as their standings counted them."""
    return StandingsSnapshot.objects.filter(event__season=season).aggregate(
        games=Sum("games"))["games"] or 0


def latest_confirmation(**owner: object) -> Subquery:
    """When the latest result of `owner` (a filter on ResultVersion) was confirmed."""
    return Subquery(
        ResultVersion.objects.filter(status=ResultVersion.Status.CONFIRMED, **owner)
        .order_by("-confirmed_at").values("confirmed_at")[:1]
    )


def stale_event_ids(*, confirmed_before: datetime) -> list[int]:
    """Events whose standings snapshot is missing or older than their latest confirmed result
    (confirmed before `confirmed_before`: newer ones are still in their normal job's hands)."""
    latest = latest_confirmation(game__table__rotation__event=OuterRef("pk"))
    computed = Subquery(
        StandingsSnapshot.objects.filter(event=OuterRef("pk")).values("computed_at")[:1]
    )
    events = (
        Event.objects.annotate(latest=latest, computed=computed)
        .filter(latest__lt=confirmed_before)
        .filter(Q(computed__isnull=True) | Q(computed__lt=F("latest")))
    )
    return list(events.order_by("pk").values_list("pk", flat=True))

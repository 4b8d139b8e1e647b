"""Writes of the handicaps: freezing a night's handicaps when it starts, and the stored
handicapped and division tables beside the scratch ones (replaced by the standings job after
the scratch snapshots, each in one transaction; recomputed from the database, so running one
twice is harmless)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from analytics.handicaps import compute, selectors
from analytics.handicaps.compute import Formula
from analytics.models import HandicapFreeze, NightHandicap, StandingsSnapshot, StandingsTable
from analytics.standings import selectors as standings_selectors
from analytics.standings.services import players_of
from league.models import DivisionPlace, Event, Season


def _handicaps_store(event: Event, formula: Formula, player_ids: Iterable[int]) -> None:
    """Compute and store the handicaps of these players (none of whom has one yet)."""
    player_ids = sorted(set(player_ids))
    if not player_ids:
        return
    if formula.kind == "rating":
        rated = selectors.ratings(player_ids=player_ids)
        history = {p: compute.History(rated.get(p)) for p in player_ids}
    else:
        games = selectors.league_games(event=event, player_ids=player_ids)
        history = {p: compute.recent_average(games.get(p, []), nights=formula.nights)
                   for p in player_ids}
    rows = []
    for player_id in player_ids:
        handicap = compute.handicap_compute(formula, history[player_id])
        rows.append(NightHandicap(event=event, player_id=player_id, handicap=handicap.handicap,
                                  explanation=handicap.explanation[:300], basis=handicap.basis))
    NightHandicap.objects.bulk_create(rows)


@transaction.atomic
def night_handicaps_freeze(*, event_id: int, player_ids: Iterable[int] | None = None
                           ) -> HandicapFreeze | None:
    """Freeze the night's handicaps as its league's settings and its players' history stand
    now (at its start): one row per player entered or seated. Once frozen, a handicap never
    changes; a player who comes later (a late arrival) gets theirs under the same frozen
    settings, from the same earlier nights. A league without handicaps freezes nothing."""
    # Race: the start's job and a standings job freezing the same night at once.
    event = (Event.objects.select_for_update(of=("self",), no_key=True)
             .select_related("season__league").filter(pk=event_id).first())
    if event is None:
        return None
    freeze = selectors.freeze_of(event=event)
    if freeze is None:
        formula = selectors.league_formula(event=event)
        if formula is None or event.season is None:
            return None
        league = event.season.league
        freeze = HandicapFreeze.objects.create(
            event=event, frozen_at=timezone.now(), formula=formula.kind, base=formula.base,
            percent=formula.percent, cap=formula.cap, nights=formula.nights,
            applies_to=league.handicap_applies_to)
    wanted = selectors.night_players(event=event) | set(player_ids or ())
    have = set(NightHandicap.objects.filter(event=event).values_list("player_id", flat=True))
    _handicaps_store(event, selectors.frozen_formula(freeze), wanted - have)
    return freeze


def _explanation(players: list[int], frozen: dict[int, NightHandicap],
                 names: dict[int, str]) -> str:
    """How an entrant's handicap was computed: a player's words, or each partner's."""
    words = [(names.get(p, ""), frozen[p].explanation) for p in players if p in frozen]
    if len(words) == 1:
        return words[0][1]
    return "; ".join(f"{name}: {text}" for name, text in words)


def _table_replace(*, handicapped: bool, rows: list[dict], **owner: object) -> None:
    StandingsTable.objects.filter(handicapped=handicapped, **owner).delete()
    StandingsTable.objects.create(handicapped=handicapped, rows=rows,
                                  computed_at=timezone.now(), **owner)


def event_handicapped_refresh(*, event: Event) -> list[dict] | None:
    """The night's handicapped table from its confirmed games and frozen handicaps (None and
    no table: the night has no frozen handicaps)."""
    freeze = selectors.freeze_of(event=event)
    if freeze is None:
        StandingsTable.objects.filter(event=event).delete()
        return None
    games = list(standings_selectors.game_results(
        game_filter=Q(table__rotation__event=event)).values())
    night_handicaps_freeze(event_id=event.pk, player_ids=players_of(games))
    frozen = selectors.frozen_handicaps(event=event)
    handicaps = {p: h.handicap for p, h in frozen.items()}
    counted = compute.handicapped_games(games, handicaps, applies_to=freeze.applies_to)
    names = standings_selectors.player_names(player_ids=players_of(games))
    rows = standings_selectors.event_standings_rows(event=event, games=counted, names=names)
    rows = [{**row, "handicap_applies_to": freeze.applies_to,
             "handicap_explanation": _explanation(row["players"], frozen, names)}
            for row in compute.with_handicaps(rows, handicaps)]
    _table_replace(event=event, handicapped=True, rows=rows)
    return rows


def _season_handicapped_rows(season: Season) -> list[dict] | None:
    """The season's handicapped table: its nights' handicapped rows (a night without
    handicaps counts as played, with handicap 0); None when no night has handicaps."""
    events = list(Event.objects.filter(season=season).order_by("date", "pk").values_list("pk", flat=True))
    handicapped = dict(StandingsTable.objects.filter(event_id__in=events, handicapped=True)
                       .values_list("event_id", "rows"))
    if not handicapped:
        return None
    scratch = dict(StandingsSnapshot.objects.filter(event_id__in=events).values_list("event_id", "rows"))
    nights = [(pk, handicapped.get(pk, scratch.get(pk, []))) for pk in events]
    return compute.season_handicapped(nights, aggregate=season.aggregate,
                                      best_n=season.best_n_nights,
                                      min_attendance=season.min_attendance)


@transaction.atomic
def season_tables_refresh(*, season: Season) -> None:
    """The season's handicapped table and each division's tables (scratch, and with handicaps
    when the season has them), from the stored nights' and season's tables."""
    # Race: two nights' jobs redrawing the season's tables at once would both insert them.
    Season.objects.select_for_update(no_key=True).filter(pk=season.pk).first()
    handicapped = _season_handicapped_rows(season)
    StandingsTable.objects.filter(season=season).delete()
    if handicapped is not None:
        _table_replace(season=season, handicapped=True, rows=handicapped)
    divisions = list(season.divisions.all())
    if not divisions:
        return  # the season's rows are read only when divisions need them
    scratch = (StandingsSnapshot.objects.filter(season=season).values_list("rows", flat=True)
               .first()) or []
    placed: dict[int, set[int]] = {}
    for division_id, player_id in DivisionPlace.objects.filter(season=season).values_list(
            "division_id", "player_id"):
        placed.setdefault(division_id, set()).add(player_id)
    for division in divisions:
        players = placed.get(division.pk, set())
        _table_replace(season=season, division=division, handicapped=False,
                       rows=compute.division_table(scratch, players,
                                                   min_attendance=season.min_attendance))
        if handicapped is not None:
            _table_replace(season=season, division=division, handicapped=True,
                           rows=compute.division_table(handicapped, players,
                                                       min_attendance=season.min_attendance))


def event_tables_refresh(*, event_id: int) -> None:
    """After the event's scratch standings (and its season's) were stored: its handicapped
    table, and its season's handicapped and division tables."""
    event = Event.objects.select_related("season").filter(pk=event_id).first()
    if event is None:
        return
    with transaction.atomic():
        event_handicapped_refresh(event=event)
    if event.season is not None:
        season_tables_refresh(season=event.season)


def club_tables_refresh(*, club_id: int) -> None:
    """Every event's and season's tables of the club (after a full rebuild)."""
    for event in Event.objects.filter(club_id=club_id):
        with transaction.atomic():
            event_handicapped_refresh(event=event)
    for season in Season.objects.filter(league__club_id=club_id):
        season_tables_refresh(season=season)

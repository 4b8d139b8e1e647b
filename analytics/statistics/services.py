"""Writes of the statistics job: each player's and each partnership's figures, replaced in one
transaction under the club's row lock (a job killed half-way leaves the previous ones)."""

from __future__ import annotations

from collections.abc import Collection

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from analytics import bulk
from analytics.models import PartnershipStats, PlayerStats
from analytics.statistics import compute, selectors
from league.models import Club
from league.permissions import visible_events


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
    per_player = compute.player_statistics(rounds, seats, facts)
    per_pair = compute.partnership_statistics(rounds, seats, history)
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
    facts = selectors.facts_frame(facts_filter=Q(game_id__in=their_games))
    history = selectors.history_frame(club_id=club_id,
                                      history_filter=Q(game_id__in=their_games))
    chosen = set(ids)
    # Only their own seats and the sides they sat on count for their figures and their
    # partnerships: the other players of those games are left out of the frames.
    own = seats[seats["player"].isin(chosen)]
    sides = seats.merge(own[["game", "side"]].drop_duplicates(), on=["game", "side"])
    per_player = {p: data for p, data in compute.player_statistics(rounds, own, facts).items()
                  if p in chosen}
    per_pair = {pair: data for pair, data in
                compute.partnership_statistics(rounds, sides, history).items()
                if chosen & set(pair)}
    _statistics_store(club_id, per_player, per_pair,
                      PlayerStats.objects.filter(club_id=club_id, player_id__in=ids),
                      PartnershipStats.objects.filter(Q(player_a_id__in=ids)
                                                      | Q(player_b_id__in=ids), club_id=club_id))


def _statistics_store(club_id: int, per_player: dict[int, dict],
                      per_pair: dict[tuple[int, int], dict], old_players: QuerySet[PlayerStats],
                      old_pairs: QuerySet[PartnershipStats]) -> None:
    """Replace `old_players` and `old_pairs` by the new figures in one transaction."""
    now = timezone.now()
    with transaction.atomic():
        # Race: a club-wide recompute and a players' refresh writing the same rows at once
        # (FOR NO KEY UPDATE: results entered meanwhile commit, analytics.ratings.services).
        Club.objects.select_for_update(no_key=True).filter(pk=club_id).first()
        old_players.delete()
        bulk.rows_insert(PlayerStats, ["club_id", "player_id", "computed_at", "data"],
                         ((club_id, p, now, data) for p, data in per_player.items()))
        old_pairs.delete()
        bulk.rows_insert(PartnershipStats,
                         ["club_id", "player_a_id", "player_b_id", "computed_at", "data"],
                         ((club_id, a, b, now, data) for (a, b), data in per_pair.items()))

"""Writes of the ladder: the stored ladder replaced whole by a computation, and a club's players
taken off it when the club stops sharing."""

from __future__ import annotations

from django.db import transaction

from analytics.models import LadderRating
from analytics.ratings.compute import PlayerState, shown_rating
from league.models import Club, Player


def ladder_replace(*, states: dict[int, PlayerState]) -> int:
    """Store the ladder computed (`states`: each player's rating) in place of the last one, in
    one transaction. Only players of clubs that share now are kept: a club that stopped
    sharing while the ladder was computed stays off it (its row is locked, so the choice and
    this write never cross). Returns the players stored."""
    with transaction.atomic():
        shared = set(Club.objects.select_for_update(no_key=True).filter(ladder_shared=True)
                     .order_by("pk").values_list("pk", flat=True))
        clubs = dict(Player.objects.filter(pk__in=list(states), club_id__in=shared)
                     .values_list("pk", "club_id"))
        LadderRating.objects.all().delete()
        LadderRating.objects.bulk_create(
            LadderRating(player_id=player_id, club_id=clubs[player_id], mu=s.mu, sigma=s.sigma,
                         ordinal=s.ordinal, games=s.games, rating=shown_rating(s.mu))
            for player_id, s in states.items() if player_id in clubs)
    return len(clubs)


def ladder_club_remove(*, club_id: int) -> int:
    """Take the club's players off the ladder (inside the transaction of the club's choice)."""
    deleted, _ = LadderRating.objects.filter(club_id=club_id).delete()
    return deleted

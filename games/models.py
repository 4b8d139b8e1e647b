"""Results of games.

`RoundResult` and `SeatRoundFacts` are the *current, confirmed* figures of each game, one row per
round and side (or seat). They are written only by `games.services` whenever a game's confirmed
result changes, and they are what the analytics read. The intake models (entries, versions,
confirmations) live beside them.
"""

from django.db import models


class RoundResult(models.Model):
    """One side's figures in one round of a game's current confirmed result."""

    class EndedBy(models.TextChoices):
        WENT_OUT = "went_out", "Went out"
        STOCK_OUT = "stock_out", "Stock ran out"

    game = models.ForeignKey("league.Game", on_delete=models.CASCADE, related_name="round_results")
    round_number = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    clean_books = models.PositiveSmallIntegerField(default=0)
    dirty_books = models.PositiveSmallIntegerField(default=0)
    wild_books = models.PositiveSmallIntegerField(default=0)
    red_threes = models.PositiveSmallIntegerField(default=0)
    table_points = models.IntegerField(default=0)
    held_points = models.IntegerField(default=0)
    went_out = models.BooleanField(default=False)
    ended_by = models.CharField(max_length=16, choices=EndedBy.choices)

    class Meta:
        ordering = ["game", "round_number", "side"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "round_number", "side"], name="roundresult_unique_side"
            )
        ]


class SeatRoundFacts(models.Model):
    """Per-seat facts of one round, known only for games entered as move logs."""

    game = models.ForeignKey("league.Game", on_delete=models.CASCADE, related_name="seat_facts")
    round_number = models.PositiveSmallIntegerField()
    seat_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="+")
    side = models.PositiveSmallIntegerField()
    turns = models.PositiveIntegerField(default=0)
    foot_turn = models.PositiveIntegerField(null=True, blank=True)
    pickups = models.PositiveIntegerField(default=0)
    cards_picked_up = models.PositiveIntegerField(default=0)
    melds_started = models.PositiveIntegerField(default=0)
    cards_laid = models.PositiveIntegerField(default=0)
    wilds_in_dirty = models.PositiveIntegerField(default=0)
    black_threes_discarded = models.PositiveIntegerField(default=0)
    cards_held = models.PositiveIntegerField(default=0)
    held_points = models.IntegerField(default=0)
    first_laydown_turn = models.PositiveIntegerField(null=True, blank=True)
    red_threes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "round_number", "seat_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "round_number", "seat_number"], name="seatfacts_unique_seat"
            )
        ]

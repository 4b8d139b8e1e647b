"""Snapshots computed by the analytics jobs; pages read these, never recompute on request.

Every snapshot is replaced inside one transaction, so a job killed half-way leaves the previous
snapshot in place.
"""

from django.db import models
from django.db.models import Q


class StandingsSnapshot(models.Model):
    """The ranked rows of one event or one season, as the last recompute left them."""

    event = models.OneToOneField(
        "league.Event", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    season = models.OneToOneField(
        "league.Season", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    computed_at = models.DateTimeField()
    games = models.PositiveIntegerField(default=0, help_text="Confirmed games counted.")
    rows = models.JSONField(default=list)
    basis = models.CharField(
        max_length=64, blank=True, default="",
        help_text="A season's: the settings its rows were added up under (aggregate, best N). "
                  "Only rows of the same basis are kept when one night changes.")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(event__isnull=False, season__isnull=True)
                | Q(event__isnull=True, season__isnull=False),
                name="standings_event_xor_season",
            )
        ]

    def __str__(self) -> str:
        return f"Standings of {self.event or self.season} at {self.computed_at:%Y-%m-%d %H:%M}"


class NightResult(models.Model):
    """One entrant's line of an event's standings, as the season standings add it up: the
    event's snapshot rows in narrow columns, so a season reads only the entrants it needs
    (a night's new game changes only its own entrants' season rows)."""

    event = models.ForeignKey("league.Event", on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200, help_text="The entrant: a player or a side.")
    players = models.JSONField(default=list)
    name = models.TextField()
    # As the standings row has them: whole numbers, or averages under per-game scoring (JSON
    # keeps which, so the season rows come out exactly as added up from the rows).
    score = models.JSONField()
    total_points = models.JSONField()

    class Meta:
        indexes = [models.Index(fields=["key", "event"])]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="nightresult_unique_entrant")
        ]

    def __str__(self) -> str:
        return f"{self.name} in event {self.event_id}: {self.score}"


class RatingHistory(models.Model):
    """A player's rating after one game. `position` is the game's place in the club's order."""

    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("league.Game", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="Display value: mu - 3 sigma.")
    games = models.PositiveIntegerField(help_text="Rated games of the player so far.")
    expected = models.FloatField(help_text="Win probability of the player's side before the game.")

    class Meta:
        ordering = ["player", "position"]
        indexes = [
            models.Index(fields=["player", "position"]),
            models.Index(fields=["club", "position"]),
        ]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="ratinghistory_unique_game"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="ratinghistory_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} after game {self.game_id}: {self.ordinal:.2f}"


class PlayerRating(models.Model):
    """A player's current rating (the last row of their history), for the leaderboard."""

    player = models.OneToOneField("league.Player", on_delete=models.CASCADE, related_name="rating")
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["-ordinal"]
        indexes = [models.Index(fields=["club", "-ordinal"])]
        constraints = [
            models.CheckConstraint(condition=Q(sigma__gt=0), name="playerrating_sigma_positive")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.2f} over {self.games} games"


class PlayerStats(models.Model):
    """One player's statistics (a flat dict of figures) and chart data."""

    player = models.OneToOneField("league.Player", on_delete=models.CASCADE, related_name="stats")
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="+")
    computed_at = models.DateTimeField()
    data = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"Statistics of {self.player}"


class PartnershipStats(models.Model):
    """Two players' record together as partners (any format), with their synergy."""

    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="+")
    player_a = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="+")
    computed_at = models.DateTimeField()
    data = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player_a", "player_b"], name="pairstats_unique_pair"),
            models.CheckConstraint(
                condition=Q(player_a__lt=models.F("player_b")), name="pairstats_ordered_pair"
            ),
        ]

    def __str__(self) -> str:
        return f"Statistics of {self.player_a} & {self.player_b}"


class RatedGame(models.Model):
    """A game the ratings have taken in, with what they saw of it. The next recompute starts at
    the first game whose place or fingerprint differs, so corrections, late entries and moved
    events are all caught without trusting the message that triggered it."""

    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="+")
    game = models.OneToOneField("league.Game", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    fingerprint = models.CharField(max_length=32)
    results_version = models.BigIntegerField(
        null=True, blank=True,
        help_text="The game's last result row id when rated: every change of its result "
                  "writes new rows, so a change the fingerprint does not show (books, facts) "
                  "is still seen.")

    class Meta:
        ordering = ["club", "position"]
        constraints = [
            models.UniqueConstraint(fields=["club", "position"], name="ratedgame_unique_position")
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} rated at {self.position}"


class HandicapFreeze(models.Model):
    """A night's handicap settings, frozen when the night started (`NightHandicap` holds each
    player's handicap). A night started before the league switched handicaps on has none."""

    event = models.OneToOneField("league.Event", on_delete=models.CASCADE, related_name="+")
    frozen_at = models.DateTimeField()
    formula = models.CharField(max_length=12)
    base = models.IntegerField()
    percent = models.PositiveSmallIntegerField()
    cap = models.PositiveIntegerField(null=True, blank=True)
    nights = models.PositiveSmallIntegerField()
    applies_to = models.CharField(max_length=12)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(formula__in=["average", "rating"]),
                                   name="handicapfreeze_formula_known"),
            models.CheckConstraint(condition=Q(applies_to__in=["game_points", "match_points"]),
                                   name="handicapfreeze_applies_to_known"),
            models.CheckConstraint(condition=Q(percent__lte=100), name="handicapfreeze_percent_range"),
        ]

    def __str__(self) -> str:
        return f"Handicaps of event {self.event_id} ({self.formula})"


class NightHandicap(models.Model):
    """One player's handicap for one night, frozen at its start with how it was computed."""

    event = models.ForeignKey("league.Event", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="+")
    handicap = models.PositiveIntegerField()
    explanation = models.CharField(max_length=300)
    basis = models.IntegerField(null=True, blank=True,
                                help_text="The average or rating it was computed from.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="nighthandicap_once_per_night"),
            models.CheckConstraint(condition=Q(handicap__lte=100000), name="nighthandicap_range"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in event {self.event_id}: {self.handicap}"


class StandingsTable(models.Model):
    """A stored table beside the scratch snapshots: an event's handicapped table, a season's
    handicapped table, and a division's tables (scratch and handicapped)."""

    event = models.ForeignKey("league.Event", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="+")
    season = models.ForeignKey("league.Season", on_delete=models.CASCADE, null=True, blank=True,
                               related_name="+")
    division = models.ForeignKey("league.Division", on_delete=models.CASCADE, null=True,
                                 blank=True, related_name="+")
    handicapped = models.BooleanField()
    computed_at = models.DateTimeField()
    rows = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(event__isnull=False, season__isnull=True, division__isnull=True)
                | Q(event__isnull=True, season__isnull=False),
                name="standingstable_event_xor_season"),
            models.UniqueConstraint(fields=["event", "handicapped"], condition=Q(event__isnull=False),
                                    name="standingstable_unique_event"),
            models.UniqueConstraint(fields=["season", "handicapped"],
                                    condition=Q(season__isnull=False, division__isnull=True),
                                    name="standingstable_unique_season"),
            models.UniqueConstraint(fields=["division", "handicapped"],
                                    condition=Q(division__isnull=False),
                                    name="standingstable_unique_division"),
        ]

    def __str__(self) -> str:
        kind = "handicapped" if self.handicapped else "scratch"
        return f"{kind} table of {self.event_id or self.season_id}/{self.division_id or ''}"


class LadderRating(models.Model):
    """A player's rating on the cross-club ladder: one rating pool over the games of every club
    that shares its ratings, in the order played across clubs. Replaced whole by each
    computation (`analytics.ladder.services`)."""

    player = models.OneToOneField("league.Player", on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="The ladder's order: mu - 3 sigma.")
    games = models.PositiveIntegerField()
    rating = models.IntegerField(help_text="The rating as shown (1500 a typical player).")

    class Meta:
        ordering = ["-ordinal"]
        indexes = [models.Index(fields=["-ordinal"], name="ladderrating_order"),
                   models.Index(fields=["club"], name="ladderrating_club")]
        constraints = [
            models.CheckConstraint(condition=Q(sigma__gt=0), name="ladderrating_sigma_positive")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on the ladder: {self.rating} over {self.games} games"

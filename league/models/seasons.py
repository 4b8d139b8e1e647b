"""A club's leagues, their seasons, and a season's divisions."""


from django.db import models
from django.db.models import Q

from league.models.clubs import Club
from league.models.players import Player


class League(models.Model):
    class SubstituteCountsFor(models.TextChoices):
        MEMBER = "member", "The absent member (the substitute plays for them)"
        SUBSTITUTE = "substitute", "The substitute"
        NEITHER = "neither", "Neither: a substituted game counts for nobody"

    class HandicapFormula(models.TextChoices):
        NONE = "none", "No handicaps (scratch standings only)"
        AVERAGE = "average", "A percentage of the difference between a base and the player's recent average"
        RATING = "rating", "A percentage of the difference between a base and the player's rating"

    class HandicapAppliesTo(models.TextChoices):
        GAME_POINTS = "game_points", "Added to the game points"
        MATCH_POINTS = "match_points", "Decides the match points (games won with the handicap)"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80)
    description = models.TextField(blank=True)
    substitute_counts_for = models.CharField(
        max_length=12, choices=SubstituteCountsFor.choices, default=SubstituteCountsFor.MEMBER,
        help_text="Whom a substitute's result counts for, chosen once for the league.")
    substitute_cap = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="Substituted nights counted per member in a season (empty: no cap).")
    handicap_formula = models.CharField(
        max_length=12, choices=HandicapFormula.choices, default=HandicapFormula.NONE)
    handicap_base = models.IntegerField(
        default=0, help_text="The base the player's average (or rating) is compared with.")
    handicap_percent = models.PositiveSmallIntegerField(
        default=80, help_text="The share of the difference given as handicap, in per cent.")
    handicap_cap = models.PositiveIntegerField(
        null=True, blank=True, help_text="The largest handicap (empty: no cap).")
    handicap_nights = models.PositiveSmallIntegerField(
        default=6, help_text="How many of the player's recent nights make the average.")
    handicap_applies_to = models.CharField(
        max_length=12, choices=HandicapAppliesTo.choices, default=HandicapAppliesTo.GAME_POINTS)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="league_unique_slug_per_club"),
            models.CheckConstraint(
                condition=Q(substitute_counts_for__in=["member", "substitute", "neither"]),
                name="league_substitute_counts_for_known"),
            models.CheckConstraint(
                condition=Q(substitute_cap__isnull=True) | Q(substitute_cap__lte=100),
                name="league_substitute_cap_range"),
            models.CheckConstraint(
                condition=Q(handicap_formula__in=["none", "average", "rating"]),
                name="league_handicap_formula_known"),
            models.CheckConstraint(
                condition=Q(handicap_base__gte=-100000, handicap_base__lte=100000),
                name="league_handicap_base_range"),
            models.CheckConstraint(condition=Q(handicap_percent__lte=100), name="league_handicap_percent_range"),
            models.CheckConstraint(
                condition=Q(handicap_cap__isnull=True) | Q(handicap_cap__lte=100000),
                name="league_handicap_cap_range"),
            models.CheckConstraint(
                condition=Q(handicap_nights__gte=1, handicap_nights__lte=52),
                name="league_handicap_nights_range"),
            models.CheckConstraint(
                condition=Q(handicap_applies_to__in=["game_points", "match_points"]),
                name="league_handicap_applies_to_known"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    class Aggregate(models.TextChoices):
        SUM = "sum", "Sum over nights"
        AVERAGE = "average", "Average over nights"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    aggregate = models.CharField(max_length=16, choices=Aggregate.choices, default=Aggregate.SUM)
    best_n_nights = models.PositiveIntegerField(
        null=True, blank=True, help_text="Count only each player's best N nights (empty: all)."
    )
    min_attendance = models.PositiveIntegerField(
        default=0, help_text="Nights a player must attend to be ranked."
    )
    season_aware_seating = models.BooleanField(
        default=True,
        help_text="Seat each night's rotating partners against the season's earlier nights "
        "(recent partners and opponents count more), so partners mix over the season.",
    )
    promotion_places = models.PositiveSmallIntegerField(
        default=1, help_text="How many go up and how many go down between neighbouring "
        "divisions at the season's end (proposed; a director confirms).")

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="season_unique_slug_per_league")
        ]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"

    @property
    def score_label(self) -> str:
        """The season table's score column named as its nights' standings name it."""
        scorings = set(self.events.values_list("scoring", flat=True))
        return {frozenset({"match_points"}): "Match points",
                frozenset({"victory_points"}): "Victory points",
                frozenset({"total_points"}): "Total points (season)"}.get(
                    frozenset(scorings), "Season score")


class Division(models.Model):
    """A flight of a season with its own standings; number 1 is the top division."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=80)
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="division_unique_number"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=50), name="division_number_range"),
        ]

    def __str__(self) -> str:
        return self.name


class DivisionPlace(models.Model):
    """A player's division in a season. `season` repeats the division's so the database can
    refuse a player in two divisions of one season."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="division_places")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="places")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="division_places")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="division_place_once_per_season"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.division}"

"""An event (a league night or a tournament), who said they are coming, seating wishes, the
seatings prepared for it, and its entrants."""

from typing import Any

from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from league.models.clubs import Club
from league.models.players import Partnership, Player
from league.models.seasons import Season
from league.tie_breaks import TIE_BREAKS


class Event(models.Model):
    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", "Tournament"
        LEAGUE_NIGHT = "league_night", "League night"

    class Format(models.TextChoices):
        ROTATING = "rotating", "Rotating partners"
        SWISS = "swiss", "Swiss (fixed partnerships)"
        ROUND_ROBIN = "round_robin", "Round robin (fixed partnerships)"
        PROGRESSIVE = "progressive", "Progressive (fixed partnerships)"

    class OddHandling(models.TextChoices):
        SIT_OUT = "sit_out", "Sit-outs"
        TABLE_OF_SIX = "table_of_six", "Tables of six"

    class SitOutRule(models.TextChoices):
        FEWEST = "fewest", "Fewest sit-outs so far sit out first"
        LATECOMERS = "latecomers", "Latecomers sit out first"
        SEAT_ORDER = "seat_order", "In turn, in the order players were entered"

    # What each rule means, for the settings form and the draft's explanation.
    SIT_OUT_RULE_HELP = {
        "fewest": "Whoever has sat out least sits out next. Arriving late is not a sit-out, and "
        "among equals the latest arrival sits out first: nobody who came on time sits out to "
        "make room for a latecomer before everyone has sat out once.",
        "latecomers": "Players who arrived late sit out before anyone who was there from the "
        "start (among them, whoever has sat out least).",
        "seat_order": "Players sit out in turn, in the order they were entered: the first "
        "entered first, and nobody twice before everyone has once.",
    }

    class Scoring(models.TextChoices):
        TOTAL_POINTS = "total_points", "Total points"
        MATCH_POINTS = "match_points", "Match points (2/1/0), then total points"
        VICTORY_POINTS = "victory_points", "Victory points by margin"

    class SitOutScoring(models.TextChoices):
        NONE = "none", "Sit-outs score nothing (only games played count)"
        FIXED = "fixed", "A sit-out scores fixed bye points"
        AVERAGE = "average", "A sit-out scores the player's own average game"
        PER_GAME = "per_game", "Rank by the average per game played"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    TIE_BREAKS = TIE_BREAKS

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )
    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=100, unique=True)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.TOURNAMENT)
    date = models.DateField()
    starts_at = models.TimeField(null=True, blank=True, help_text="When play starts (local time).")
    place = models.CharField(max_length=200, blank=True, help_text="Where the night is played.")
    cancelled_at = models.DateTimeField(
        null=True, blank=True, help_text="When the night was called off (calendars show it so).")
    rules_preset = models.CharField(max_length=16, default="classic")
    rules_overrides = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.ROTATING)
    table_sizes = models.JSONField(default=list, blank=True, help_text="Allowed sizes, e.g. [4, 6].")
    odd_handling = models.CharField(
        max_length=16, choices=OddHandling.choices, default=OddHandling.SIT_OUT
    )
    planned_rotations = models.PositiveIntegerField(default=3)
    sit_out_rule = models.CharField(
        max_length=16, choices=SitOutRule.choices, default=SitOutRule.FEWEST,
        help_text="Who sits out when the players do not fill the tables (rotating partners).",
    )
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.MATCH_POINTS)
    tie_breaks = models.JSONField(default=list, blank=True)
    sit_out_scoring = models.CharField(
        max_length=16, choices=SitOutScoring.choices, default=SitOutScoring.NONE,
        help_text="How a rotation sat out (or missed by a late arrival) counts in the standings.",
    )
    bye_points = models.PositiveIntegerField(
        default=0, help_text="Total points a sit-out scores when sit-outs score fixed bye points."
    )
    class MixedTables(models.TextChoices):
        PER_PLAYER_ROUND = "per_player_round", "Points per player and round"
        RANK = "rank", "Match points by rank at the table"

    mixed_tables = models.CharField(
        max_length=16, choices=MixedTables.choices, default=MixedTables.PER_PLAYER_ROUND,
        help_text="How results of tables of four and of six are made comparable in one night's "
        "standings.")
    division = models.ForeignKey(
        "Division", on_delete=models.SET_NULL, null=True, blank=True, related_name="events",
        help_text="The division that plays this night (empty: the whole season).")
    round_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="Minutes a table has for each round (the table's clock); empty: no clock.")
    wall_chime = models.BooleanField(
        default=False, help_text="A gentle chime on the wall when a table's round time is up.")
    is_public = models.BooleanField(default=True)
    seed = models.BigIntegerField(default=0, help_text="Seeds the seating generator.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, null=True)

    class Meta:
        ordering = ["-date", "name"]
        indexes = [models.Index(fields=["club", "date"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(round_minutes__isnull=True) | Q(round_minutes__gte=5, round_minutes__lte=240),
                name="event_round_minutes_in_range"),
            models.CheckConstraint(
                condition=Q(planned_rotations__gte=1), name="event_plans_a_rotation"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "registration", "running", "finished"]),
                name="event_status_known",
            ),
            models.CheckConstraint(
                condition=Q(format__in=["rotating", "swiss", "round_robin", "progressive"]),
                name="event_format_known",
            ),
            models.CheckConstraint(
                condition=Q(sit_out_scoring__in=["none", "fixed", "average", "per_game"]),
                name="event_sit_out_scoring_known",
            ),
            models.CheckConstraint(condition=Q(bye_points__lte=100000), name="event_bye_points_range"),
            models.CheckConstraint(
                condition=Q(mixed_tables__in=["per_player_round", "rank"]), name="event_mixed_tables_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Every change moves `updated_at` (calendars number their versions from it), also a
        # save of a few fields.
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "updated_at"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("event-detail", kwargs={"slug": self.slug})

    @property
    def rules_spec(self) -> str | dict:
        """The event's rule set in the move-log `rules` shape (preset name or preset + overrides)."""
        if self.rules_overrides:
            return {"preset": self.rules_preset, "overrides": self.rules_overrides}
        return self.rules_preset

    @property
    def is_fixed_partnerships(self) -> bool:
        return self.format != self.Format.ROTATING


class Attendance(models.Model):
    """A player's answer for an upcoming night: coming, not coming, or maybe (RSVP)."""

    class Answer(models.TextChoices):
        YES = "yes", "Coming"
        NO = "no", "Not coming"
        MAYBE = "maybe", "Maybe"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="attendances")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="attendances")
    answer = models.CharField(max_length=5, choices=Answer.choices)
    answered_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="attendance_once_per_night"),
        ]

    def __str__(self) -> str:
        return f"{self.player} for {self.event}: {self.answer}"


class SeatingWish(models.Model):
    """Something the seating keeps for a night (`event`) or for a whole season (`season`): two
    players who must not be partners or must not meet, a pair who should partner once in the
    season, a player who must not sit out or keeps one seat all night (mobility)."""

    class Kind(models.TextChoices):
        NOT_PARTNERS = "not_partners", "Must not be partners"
        NOT_MEET = "not_meet", "Must not meet at a table"
        PARTNER_ONCE = "partner_once", "Should partner once this season"
        NO_SIT_OUT = "no_sit_out", "Must not sit out"
        FIXED_SEAT = "fixed_seat", "Keeps one seat all night"

    PAIR_KINDS = ("not_partners", "not_meet", "partner_once")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="seating_wishes")
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="seating_wishes")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
        help_text="The second player of a pair wish.")
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(event__isnull=False, season__isnull=True)
                | Q(event__isnull=True, season__isnull=False),
                name="seating_wish_for_a_night_or_a_season"),
            models.CheckConstraint(
                condition=Q(kind__in=["not_partners", "not_meet", "partner_once", "no_sit_out", "fixed_seat"]),
                name="seating_wish_kind_known"),
            models.CheckConstraint(
                condition=(Q(kind__in=["not_partners", "not_meet", "partner_once"]) & Q(other__isnull=False)
                           & ~Q(other=F("player")))
                | (~Q(kind__in=["not_partners", "not_meet", "partner_once"]) & Q(other__isnull=True)),
                name="seating_wish_pair_has_two_players"),
            models.CheckConstraint(
                condition=Q(table_number__isnull=True) | Q(table_number__gte=1, table_number__lte=500),
                name="seating_wish_table_range"),
            models.CheckConstraint(
                condition=Q(seat_number__isnull=True) | Q(seat_number__gte=1, seat_number__lte=6),
                name="seating_wish_seat_range"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player}" + (f" and {self.other}" if self.other else "")


class PreparedPlan(models.Model):
    """A seating prepared for a night before it starts, for one expected count (the players who
    said yes, give or take two: `offset`), by `league.services.seating_plans`. The director
    uses one at the door: its players are entered and its first rotation becomes the draft."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="prepared_plans")
    offset = models.SmallIntegerField(help_text="Players more (+) or fewer (-) than expected.")
    # [{"player": id or null (a guest), "name": ...}] in the order the plan counts them
    entrants = models.JSONField(default=list)
    # the night's rotations as the seating generator planned them (guests by negative numbers)
    rotations = models.JSONField(default=list)
    notes = models.JSONField(default=list, help_text="Who is in, left out and sits out, in words.")
    wishes = models.JSONField(default=list, help_text="Each wish: kept or not, in words.")
    # the seating as `manage.py check_seating` reads it (players numbered 1..n)
    check_file = models.JSONField(default=dict)
    verdict = models.TextField(blank=True, help_text="The independent checker's verdict in words.")
    sound = models.BooleanField(default=False)
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "offset"]
        constraints = [
            models.UniqueConstraint(fields=["event", "offset"], name="prepared_plan_once_per_count"),
            models.CheckConstraint(condition=Q(offset__gte=-2, offset__lte=2),
                                   name="prepared_plan_offset_range"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {len(self.entrants)} players"


class Registration(models.Model):
    """A player (rotating partners) or a partnership (fixed formats) entered in an event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="registrations"
    )
    partnership = models.ForeignKey(
        Partnership, on_delete=models.CASCADE, null=True, blank=True, related_name="registrations"
    )
    checked_in = models.BooleanField(default=False)
    joins_at_rotation = models.PositiveIntegerField(
        default=1, help_text="First rotation the entrant plays (greater than 1 for late arrivals)."
    )
    withdrawn_after_rotation = models.PositiveIntegerField(
        null=True, blank=True, help_text="Last rotation played before withdrawing."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(player__isnull=False, partnership__isnull=True))
                | (Q(player__isnull=True, partnership__isnull=False)),
                name="registration_player_xor_partnership",
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(player__isnull=False),
                name="registration_unique_player",
            ),
            models.UniqueConstraint(
                fields=["event", "partnership"],
                condition=Q(partnership__isnull=False),
                name="registration_unique_partnership",
            ),
            models.CheckConstraint(
                condition=Q(joins_at_rotation__gte=1), name="registration_joins_a_rotation"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player or self.partnership} in {self.event}"

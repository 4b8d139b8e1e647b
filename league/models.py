"""The league domain: clubs, people, events and their seating.

Models stay thin: rules about who may sit where live in `league.services` and the seating
generator (`league.seating`); the constraints here are the database's last line of defence.
"""

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from league.tie_breaks import TIE_BREAKS
from league.time_zones import default_time_zone, validate_time_zone, zone_words


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    time_zone = models.CharField(
        max_length=64, default=default_time_zone, validators=[validate_time_zone],
        help_text="The club's time zone: its nights, reminders, calendars and mail are in it.",
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def time_zone_words(self) -> str:
        """The club's zone as said beside a time: "New York time"."""
        return zone_words(self.time_zone)


class Membership(models.Model):
    class Role(models.TextChoices):
        DIRECTOR = "director", "Director"
        SCORER = "scorer", "Scorer"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="membership_unique_role")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role} of {self.club})"


class Invitation(models.Model):
    """A director's invitation to become a director or scorer of a club: the account becomes a
    member only when it accepts. Kept by the username typed: the account (`user`) is set only if
    one had that username then, and the director's page shows every invitation alike, so it
    never tells which usernames exist. A declined invitation stays "sent" for the director and
    is no longer shown to the account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    role = models.CharField(max_length=16, choices=Membership.Role.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                             blank=True, related_name="club_invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "username", "role"],
                                    name="invitation_unique_per_club_username_role")
        ]

    def __str__(self) -> str:
        return f"{self.username} invited as {self.role} of {self.club}"


def shown_name(pk: int, name: str, name_shown: str) -> str:
    """A player's name as they chose to show it in public: full, "First L.", or "Player 7"."""
    if name_shown == "hidden":
        return f"Player {pk}"
    if name_shown == "initial":
        first, *rest = name.split() or [name]
        return f"{first} {rest[-1][0]}." if rest else first
    return name


class Player(models.Model):
    """A person. One player across every event of the club; a login is optional."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(
        null=True, blank=True, help_text="Retired players keep their history but are no longer offered."
    )

    class NameShown(models.TextChoices):
        FULL = "full", "My full name"
        INITIAL = "initial", "My first name and the initial of my last name"
        HIDDEN = "hidden", "No name: a number (\"Player 7\")"

    name_shown = models.CharField(
        max_length=8, choices=NameShown.choices, default=NameShown.FULL,
        help_text="How the player's name shows on public pages, charts, exports, the API and feeds.")
    stats_public = models.BooleanField(
        default=True, help_text="Whether the player's statistics page is public.")
    calendar_token = models.CharField(
        max_length=43, unique=True, null=True, blank=True,
        help_text="The secret of the player's own calendar address (made on first use).")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="player_unique_slug_per_club")
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The player's page by their number, which is public ("Player 7"): an address never
        holds the name (the slug), whatever the player chose to show."""
        return reverse("player-detail", kwargs={"club": self.club.slug, "pk": self.pk})

    @property
    def shown_name(self) -> str:
        """The name as the player chose to show it on public pages (`name_shown`)."""
        return shown_name(self.pk, self.name, self.name_shown)


class Partnership(models.Model):
    """Two players who enter fixed-partnership events together."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="partnerships")
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=160, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player_a", "player_b"], name="partnership_unique_pair"),
            # Stored in a canonical order so one pair is one row.
            models.CheckConstraint(
                condition=Q(player_a__lt=F("player_b")), name="partnership_ordered_pair"
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.player_a} & {self.player_b}"


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


class PlayerClaim(models.Model):
    """A one-time link for a person to take their player profile (linking it to their account):
    made by a director (sent by mail, or handed over as a link or QR code), or asked for by the
    person from the player's page and approved by a director. Works once, expires."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    email = models.EmailField(max_length=254, blank=True)
    nonce = models.CharField(max_length=43, unique=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
        related_name="+", help_text="The account that asked to be linked (awaits a director).")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    approved_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"claim of {self.player}"


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


class Rotation(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft (editable)"
        STARTED = "started", "Started"
        CLOSED = "closed", "Closed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rotations")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="rotation_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="rotation_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "started", "closed"]), name="rotation_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} rotation {self.number}"


class Table(models.Model):
    rotation = models.ForeignKey(Rotation, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField()

    class Meta:
        ordering = ["rotation", "number"]
        constraints = [
            models.UniqueConstraint(fields=["rotation", "number"], name="table_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.rotation})"


class Seat(models.Model):
    """A player at a table. `rotation` repeats the table's so the database can refuse a player
    seated twice in one rotation."""

    rotation = models.ForeignKey(Rotation, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    seat_number = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField()
    substitute_for = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="substituted_seats",
        help_text="The absent member this seat's player plays for (a substitute).")

    class Meta:
        ordering = ["table", "seat_number"]
        constraints = [
            models.UniqueConstraint(fields=["rotation", "player"], name="seat_player_once_per_rotation"),
            models.UniqueConstraint(fields=["table", "seat_number"], name="seat_unique_number"),
            models.UniqueConstraint(
                fields=["rotation", "substitute_for"], condition=Q(substitute_for__isnull=False),
                name="seat_member_substituted_once_per_rotation"),
            models.CheckConstraint(
                condition=Q(substitute_for__isnull=True) | ~Q(substitute_for=F("player")),
                name="seat_substitute_is_someone_else"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table} seat {self.seat_number}"


class SitOut(models.Model):
    rotation = models.ForeignKey(Rotation, on_delete=models.CASCADE, related_name="sit_outs")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="sit_outs")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rotation", "player"], name="sitout_unique_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} sits out {self.rotation}"


class Substitution(models.Model):
    """A substitute playing for an absent member for the rest of a night, from `from_rotation`
    (`league.services.substitutes`): in force while `removed_at` is empty. A removed one is kept
    (the history of the night); the seats played carry `Seat.substitute_for`."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="substitutions")
    member = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="substitutions_for")
    substitute = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="substitutions_as")
    from_rotation = models.PositiveSmallIntegerField(
        help_text="The first rotation the substitute plays for the member.")
    registration = models.ForeignKey(
        Registration, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text="The substitute's entry made for it (rotating partners; given back on removal).")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "member"], condition=Q(removed_at__isnull=True),
                                    name="substitution_one_per_member"),
            models.UniqueConstraint(fields=["event", "substitute"], condition=Q(removed_at__isnull=True),
                                    name="substitution_one_per_substitute"),
            models.CheckConstraint(condition=~Q(member=F("substitute")),
                                   name="substitution_substitute_is_someone_else"),
            models.CheckConstraint(condition=Q(from_rotation__gte=1, from_rotation__lte=200),
                                   name="substitution_from_rotation_range"),
        ]

    def __str__(self) -> str:
        return f"{self.substitute} plays for {self.member} in {self.event}"


def _new_entry_token() -> str:
    return secrets.token_urlsafe(24)


# Short, unambiguous, typed at the table: no 0/O or 1/I/L.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def _new_entry_code() -> str:
    """The default of a field the migrations still create (league 0001) and then remove."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def _new_side_code() -> str:
    # 7 characters of 31: about 2.7e10 codes, so guessing one of a night's few hundred live
    # codes takes ~1e8 tries (and code lookups are throttled).
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(7))


class Game(models.Model):
    """What one table plays in one rotation."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for results"
        ENTERED = "entered", "Entered, waiting for confirmation"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    first_dealer = models.PositiveSmallIntegerField(help_text="Seat number that deals round 1.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "entered", "confirmed", "disputed"]),
                name="game_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"Game at {self.table}"


class SideCredential(models.Model):
    """One side's own entry link and short code for one game, printed on the table card.

    Whoever holds it enters (and confirms the other side's figures) for that side only.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="side_credentials")
    side = models.PositiveSmallIntegerField(help_text="The engine's side number (0 holds seat 0).")
    token = models.CharField(max_length=64, unique=True, default=_new_entry_token)
    code = models.CharField(max_length=8, unique=True, default=_new_side_code)

    class Meta:
        ordering = ["game", "side"]
        constraints = [
            models.UniqueConstraint(fields=["game", "side"], name="sidecredential_one_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.game} side {self.side + 1} link"

    @property
    def entry_url(self) -> str:
        return reverse("play-game", kwargs={"token": self.token})


class AuditEntry(models.Model):
    """One change a director made to a club's people or an event's running order: who, when,
    what (in words for the page) and what is needed to undo it (`data`)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries")
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=40)
    summary = models.CharField(max_length=300)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["club", "-created_at"]), models.Index(fields=["event", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.user}: {self.summary}"

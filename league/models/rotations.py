"""A rotation of an event: its tables, seats, sit-outs and substitutes."""


from django.conf import settings
from django.db import models
from django.db.models import F, Q

from league.models.events import Event, Registration
from league.models.players import Player


class Rotation(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft (editable)"
        STARTED = "started", "Started"
        CLOSED = "closed", "Closed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rotations")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the rotation was started (its tables' first round began).")

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


class TableExtraTime(models.Model):
    """Minutes a director granted one table for one round of its game, beyond the event's round
    time (`Event.round_minutes`); a table's rows for a round add up."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="extra_times")
    round_number = models.PositiveSmallIntegerField()
    minutes = models.PositiveSmallIntegerField()
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "round_number", "granted_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(round_number__gte=1), name="extra_time_round_positive"),
            models.CheckConstraint(condition=Q(minutes__gte=1, minutes__lte=60),
                                   name="extra_time_minutes_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.minutes} more minutes for {self.table}, round {self.round_number}"


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

"""The game one table plays in one rotation, and each side's credential (link and code) for
entering its result."""

import secrets

from django.db import models
from django.db.models import Q
from django.urls import reverse

from league.models.rotations import Table


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

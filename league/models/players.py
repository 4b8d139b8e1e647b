"""A club's players (with how each shows their name in public), fixed partnerships, and the
claims by which a person takes their player profile."""


from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from league.models.clubs import Club


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

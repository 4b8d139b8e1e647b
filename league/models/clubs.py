"""A club, its directors and scorers, and the invitations to become one."""


from django.conf import settings
from django.db import models

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
    # (db_default too: rows written by code that predates the field, such as an older
    # migration's step, get it.)
    ladder_shared = models.BooleanField(
        default=False, db_default=False,
        help_text="Whether the club shares its players' ratings on the cross-club ladder "
                  "(a director's choice).")

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

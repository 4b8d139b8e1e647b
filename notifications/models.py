"""Players' contact details and the mail sent to them.

Contact details live here, not on the public `Player` row: a player deleting their account
removes this row and the club's results stay as they were.
"""

from django.db import models


class Contact(models.Model):
    class Reason(models.TextChoices):
        INVITATION = "invitation", "Invitations"
        REMINDER = "reminder", "Reminders before league nights"
        RESULT = "result", "My confirmed results"
        NIGHT = "night", "The night's results and standings"
        SEAT = "seat", "My seat when a rotation starts"

    # What a player may turn off (an invitation is asked for by a director, once).
    OPTIONAL = (Reason.REMINDER, Reason.RESULT, Reason.NIGHT, Reason.SEAT)
    # The choice that turns each optional kind of mail on or off.
    CHOICE_OF_REASON = {"reminder": "reminders", "result": "results", "night": "nights",
                        "seat": "seat_calls"}

    player = models.OneToOneField("league.Player", on_delete=models.CASCADE, related_name="contact")
    email = models.EmailField(max_length=254)
    reminders = models.BooleanField(default=True)
    results = models.BooleanField(default=True)
    nights = models.BooleanField(default=True)
    seat_calls = models.BooleanField(
        default=False, help_text="Mail the player their seat when a rotation starts (asked for).")
    undeliverable_at = models.DateTimeField(
        null=True, blank=True, help_text="When the mail server refused or bounced the address"
    )
    undeliverable_reason = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"{self.player} <{self.email}>"

    def wants(self, reason: str) -> bool:
        if self.undeliverable_at is not None:
            return False
        field = self.CHOICE_OF_REASON.get(reason)
        return bool(getattr(self, field)) if field else True


class SentMail(models.Model):
    """One mail for one reason to one address: recorded before it is handed to the mail server,
    so a retried job never sends it twice."""

    class Status(models.TextChoices):
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        REFUSED = "refused", "Refused by the mail server"

    reason = models.CharField(max_length=20, choices=Contact.Reason.choices)
    key = models.CharField(max_length=80, help_text="What it is about: 'game:12', 'event:3'...")
    email = models.EmailField(max_length=254)
    contact = models.ForeignKey(
        Contact, on_delete=models.SET_NULL, null=True, blank=True, related_name="sent_mail"
    )
    subject = models.CharField(max_length=200)
    body = models.TextField(blank=True, help_text="The plain-text part, for the club's directors")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SENDING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["reason", "key", "email"], name="mail_once_per_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.reason} {self.key} to {self.email} ({self.status})"


class ClubMail(models.Model):
    """A club's choices for its mail: when reminders go out before a league night."""

    club = models.OneToOneField("league.Club", on_delete=models.CASCADE, related_name="mail")
    reminder_hours = models.PositiveSmallIntegerField(
        default=24, help_text="Hours before a night starts that its reminder goes out (0: none)."
    )

    def __str__(self) -> str:
        return f"mail of {self.club}"


class MailOutage(models.Model):
    """The mail server not taking mail (one row while it lasts): since when and why, in words,
    for the directors' pages. Recorded by the first mail that meets the fault, cleared by the
    first mail that goes out again."""

    ROW = 1  # the one row

    since = models.DateTimeField()
    reason = models.CharField(max_length=200, help_text="What the mail server did, in words")
    last_tried_at = models.DateTimeField()
    attempts = models.PositiveIntegerField(default=1)

    def __str__(self) -> str:
        return f"mail not going out since {self.since}: {self.reason}"

"""The History: every change a director or a table makes, with who and when."""


from django.conf import settings
from django.db import models

from league.models.clubs import Club
from league.models.events import Event
from league.models.players import Player


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

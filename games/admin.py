"""Results in the admin: read-only. Every change goes through `games.services` so versions,
confirmations and the projection stay consistent; the admin shows the evidence."""

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from games.models import ResultVersion, RoundResult, SeatRoundFacts, Submission


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Submission)
class SubmissionAdmin(ReadOnlyAdmin):
    list_display = ["id", "game", "kind", "round_number", "entrant", "via", "created_at", "withdrawn_at"]
    list_filter = ["kind", "via"]
    search_fields = ["entrant", "idempotency_key"]


@admin.register(ResultVersion)
class ResultVersionAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "status", "entered_by", "confirmed_by", "created_at"]
    list_filter = ["status"]
    search_fields = ["entered_by", "confirmed_by", "reason"]


@admin.register(RoundResult)
class RoundResultAdmin(ReadOnlyAdmin):
    list_display = ["game", "round_number", "side", "score", "ended_by"]


@admin.register(SeatRoundFacts)
class SeatRoundFactsAdmin(ReadOnlyAdmin):
    list_display = ["game", "round_number", "seat_number", "player", "turns"]

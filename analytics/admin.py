from django.contrib import admin

from analytics import models


@admin.register(models.StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "season", "games", "computed_at"]
    readonly_fields = ["computed_at"]


@admin.register(models.PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "ordinal", "mu", "sigma", "games"]
    list_select_related = ["player", "club"]
    list_filter = ["club"]


@admin.register(models.RatingHistory)
class RatingHistoryAdmin(admin.ModelAdmin):
    list_display = ["player", "game", "position", "ordinal", "games", "expected"]
    list_select_related = ["player"]
    raw_id_fields = ["player", "game", "club"]


@admin.register(models.PlayerStats)
class PlayerStatsAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "computed_at"]
    list_select_related = ["player", "club"]


@admin.register(models.PartnershipStats)
class PartnershipStatsAdmin(admin.ModelAdmin):
    list_display = ["player_a", "player_b", "club", "computed_at"]
    list_select_related = ["player_a", "player_b", "club"]

"""Admin pages for every league model: the admin's view of everything, with seating inlines."""

from django.contrib import admin

from league.models import (
    Club,
    Event,
    Game,
    League,
    Membership,
    Partnership,
    Player,
    Registration,
    Rotation,
    Season,
    Seat,
    SitOut,
    Table,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "slug", "user"]
    list_filter = ["club"]
    search_fields = ["name", "slug", "user__username"]
    autocomplete_fields = ["club", "user"]


@admin.register(Partnership)
class PartnershipAdmin(admin.ModelAdmin):
    list_display = ["__str__", "club", "player_a", "player_b"]
    list_filter = ["club"]
    search_fields = ["name", "player_a__name", "player_b__name"]
    autocomplete_fields = ["club", "player_a", "player_b"]


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ["name", "slug", "starts_on", "ends_on", "aggregate", "best_n_nights", "min_attendance"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "slug"]
    list_filter = ["club"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [SeasonInline]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on", "aggregate", "best_n_nights"]
    list_filter = ["aggregate", "league__club"]
    search_fields = ["name", "league__name"]
    date_hierarchy = "starts_on"


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["player", "partnership", "checked_in", "joins_at_rotation", "withdrawn_after_rotation"]
    autocomplete_fields = ["player", "partnership"]


class RotationInline(admin.TabularInline):
    model = Rotation
    extra = 0
    fields = ["number", "status"]
    show_change_link = True


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "date", "kind", "format", "status", "is_public"]
    list_filter = ["status", "format", "kind", "is_public", "club"]
    search_fields = ["name", "slug", "club__name"]
    date_hierarchy = "date"
    autocomplete_fields = ["club", "season"]
    inlines = [RegistrationInline, RotationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "checked_in", "joins_at_rotation", "withdrawn_after_rotation"]
    list_filter = ["checked_in", "event__club"]
    search_fields = ["player__name", "partnership__name", "event__name"]
    autocomplete_fields = ["event", "player", "partnership"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


class SitOutInline(admin.TabularInline):
    model = SitOut
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Rotation)
class RotationAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "number", "status"]
    list_filter = ["status", "event__club"]
    search_fields = ["event__name"]
    inlines = [TableInline, SitOutInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["seat_number", "player", "side", "rotation"]
    autocomplete_fields = ["player"]


class GameInline(admin.StackedInline):
    model = Game
    extra = 0
    fields = ["first_dealer", "status", "entry_code", "played_at"]
    readonly_fields = ["entry_code"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "rotation", "number"]
    list_filter = ["rotation__event__club"]
    search_fields = ["rotation__event__name"]
    inlines = [SeatInline, GameInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["player", "table", "seat_number", "side"]
    search_fields = ["player__name", "table__rotation__event__name"]
    autocomplete_fields = ["player"]


@admin.register(SitOut)
class SitOutAdmin(admin.ModelAdmin):
    list_display = ["player", "rotation"]
    search_fields = ["player__name", "rotation__event__name"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "first_dealer", "entry_code", "played_at"]
    list_filter = ["status", "table__rotation__event__club"]
    search_fields = ["entry_code", "table__rotation__event__name"]
    readonly_fields = ["entry_token", "entry_code"]

"""Admin pages for every league model: the admin's view of everything, with seating inlines."""

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.http import HttpRequest

from core.errors import DomainError
from league import services
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
    Substitution,
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


class _DryRun(Exception):
    """Rolls back a service call made only to check a form."""


def _event_write(event: Event | None, data: dict[str, Any]) -> Event:
    """The admin's event edits, through the same services (checks and locks) as the director
    pages: a new event with `event_create`, a change with `event_update` (which refuses rule,
    format and seating changes once rotations are seated, hence once results exist)."""
    fields = {name: data[name] for name in services.EVENT_FIELDS if name in data}
    if event is None:
        return services.event_create(club=data["club"], **fields)
    changes = {name: value for name, value in fields.items() if getattr(event, name) != value}
    return services.event_update(event=event, **changes) if changes else event


class EventAdminForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = ["club", *services.EVENT_FIELDS]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data  # Django's clean() returns cleaned_data
        if self.errors:
            return cleaned
        original = Event.objects.get(pk=self.instance.pk) if self.instance.pk else None
        try:
            with transaction.atomic():
                _event_write(original, cleaned)
                raise _DryRun
        except _DryRun:
            pass
        except DomainError as err:
            if err.field in self.fields:
                raise ValidationError({err.field: err.message}) from err
            raise ValidationError(err.message) from err
        return cleaned


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Edits go through `league.services`; the status moves on the director's pages."""

    form = EventAdminForm
    list_display = ["name", "club", "date", "kind", "format", "status", "is_public"]
    list_filter = ["status", "format", "kind", "is_public", "club"]
    search_fields = ["name", "slug", "club__name"]
    date_hierarchy = "date"
    autocomplete_fields = ["club", "season"]
    inlines = [RegistrationInline, RotationInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Event | None = None) -> list[str]:
        return ["status", "slug", *(["club", "seed"] if obj else ["seed"])]

    def save_model(self, request: HttpRequest, obj: Event, form: forms.ModelForm,
                   change: bool) -> None:
        original = Event.objects.get(pk=obj.pk) if change else None
        data = {**form.cleaned_data, "club": form.cleaned_data.get("club") or obj.club}
        saved = _event_write(original, data)
        for field in Event._meta.concrete_fields:  # the inlines attach to `obj`
            setattr(obj, field.attname, getattr(saved, field.attname))


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
    fields = ["first_dealer", "status", "played_at"]
    # The status and time follow the results (games.services); never set by hand.
    readonly_fields = ["status", "played_at"]


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


@admin.register(Substitution)
class SubstitutionAdmin(admin.ModelAdmin):
    """Shown, never added or changed here: seating a substitute moves seats and entries too
    (`services.substitute_seat`, `substitute_remove` on the event's page). Deletion stays
    allowed so that deleting an event here takes its substitutions along."""

    list_display = ["__str__", "event", "from_rotation", "created_at", "removed_at"]
    list_filter = ["event__club"]
    search_fields = ["member__name", "substitute__name", "event__name"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: models.Model | None = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "first_dealer", "played_at"]
    list_filter = ["status", "table__rotation__event__club"]
    search_fields = ["side_credentials__code", "table__rotation__event__name"]

    def get_readonly_fields(self, request: HttpRequest, obj: models.Model | None = None
                            ) -> list[str]:
        """The status follows the results; the first dealer is fixed once results came in."""
        locked = ["status", "played_at"]
        if isinstance(obj, Game) and obj.submissions.exists():
            locked.append("first_dealer")
        return locked

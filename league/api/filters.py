"""django-filter filtersets of the league API."""

import django_filters as filters
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet

from league.models import Event, Game, Player, Registration, Rotation, Season
from league.permissions import directed_clubs


class EventFilter(filters.FilterSet):
    date_from = filters.DateFilter(field_name="date", lookup_expr="gte")
    date_to = filters.DateFilter(field_name="date", lookup_expr="lte")
    club_slug = filters.CharFilter(field_name="club__slug")

    class Meta:
        model = Event
        fields = ["club", "club_slug", "slug", "status", "date", "season", "format", "kind"]


class PlayerFilter(filters.FilterSet):
    name = filters.CharFilter(
        method="name_contains",
        help_text="Part of the name: among players who show their full name (and, for a "
                  "club's directors, all the club's players).")

    class Meta:
        model = Player
        fields = ["club", "name"]

    def name_contains(self, queryset: QuerySet[Player], _: str, value: str) -> QuerySet[Player]:
        """A search never finds a player by the name they hide: the real name is searched only
        where it shows in full, or for the directors of the player's club (who see it)."""
        user = getattr(self.request, "user", None) or AnonymousUser()
        seen = Q(name_shown=Player.NameShown.FULL) | Q(club__in=directed_clubs(user))
        return queryset.filter(seen, name__icontains=value)


class SeasonFilter(filters.FilterSet):
    class Meta:
        model = Season
        fields = ["league", "league__club"]


class RegistrationFilter(filters.FilterSet):
    class Meta:
        model = Registration
        fields = ["event", "player", "partnership", "checked_in"]


class RotationFilter(filters.FilterSet):
    class Meta:
        model = Rotation
        fields = ["event", "number", "status"]


class GameFilter(filters.FilterSet):
    event = filters.ModelChoiceFilter(field_name="table__rotation__event", queryset=Event.objects.all())
    # Bounded: an out-of-range number must be a 400, not a database overflow.
    rotation = filters.NumberFilter(field_name="table__rotation__number", min_value=1, max_value=2**31 - 1)

    class Meta:
        model = Game
        fields = ["event", "rotation", "status"]

"""Serializers of the league API. Writes are validated here for shape only; the rules live in
`league.services`, which the views call with `validated_data`."""

from collections.abc import Iterable, Mapping
from typing import Any, cast

from django.contrib.auth.models import User
from django.db.models import Manager
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.models import (
    Club,
    Event,
    Game,
    Invitation,
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
from league.permissions import is_director
from league.services.credentials import game_side_credentials, side_credentials_ensure


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "description", "time_zone", "created_at"]
        read_only_fields = ["slug", "created_at"]


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.SlugRelatedField(source="user", slug_field="username", queryset=User.objects.all())

    class Meta:
        model = Membership
        fields = ["id", "username", "role"]


class InviteInput(serializers.Serializer):
    """Whom to invite: any username (an account that has it becomes a member only once it
    accepts; the answer never says whether it exists)."""

    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class InvitationSentSerializer(serializers.Serializer):
    invitation = serializers.CharField(help_text='Always "sent".')
    username = serializers.CharField()
    role = serializers.CharField()
    message = serializers.CharField()


class ClubInvitationSerializer(serializers.ModelSerializer):
    """An invitation as its club's directors see it (the same for every username)."""

    class Meta:
        model = Invitation
        fields = ["id", "username", "role", "created_at"]


class MyInvitationSerializer(serializers.ModelSerializer):
    """An invitation as the invited account sees it."""

    club_name = serializers.CharField(source="club.name", read_only=True)
    invited_by: "serializers.SlugRelatedField[User]" = serializers.SlugRelatedField(
        slug_field="username", read_only=True)

    class Meta:
        model = Invitation
        fields = ["id", "club", "club_name", "role", "invited_by", "created_at"]


class PlayerSerializer(serializers.ModelSerializer):
    """A player, identified by their number (`id`) in every address and payload of the API."""

    url = serializers.CharField(source="get_absolute_url", read_only=True)
    slug = serializers.CharField(
        read_only=True, allow_null=True,
        help_text="The slug made from the name: null unless the player shows their full name "
                  "(the club's directors always get it). Players are addressed by `id`.")

    class Meta:
        model = Player
        fields = ["id", "club", "name", "slug", "url"]

    def to_representation(self, instance: Player) -> dict[str, Any]:
        """The name as the player chose to show it, except to the club's directors; the slug
        (made from the real name) only with the full name."""
        data = super().to_representation(instance)
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if user is None or not is_director(user, instance.club_id):
            data["name"] = instance.shown_name
            if instance.name_shown != Player.NameShown.FULL:
                data["slug"] = None
        return data


class PartnershipSerializer(serializers.ModelSerializer):
    class Meta:
        model = Partnership
        fields = ["id", "club", "player_a", "player_b", "name"]


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "club", "name", "slug", "description"]
        read_only_fields = ["slug"]


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = [
            "id", "league", "name", "slug", "starts_on", "ends_on", "aggregate",
            "best_n_nights", "min_attendance", "season_aware_seating",
        ]
        read_only_fields = ["slug"]


# The event's JSON settings, as the schema shows them; the services check the values (with
# messages naming what is allowed), so the fields themselves take any JSON.


@extend_schema_field({"type": "object", "additionalProperties": True,
                      "description": "House-rule overrides of the preset (rules.md)."})
class RulesOverridesField(serializers.JSONField):
    pass


@extend_schema_field({"type": "array", "items": {"type": "integer"},
                      "description": "Allowed table sizes, e.g. [4, 6]."})
class TableSizesField(serializers.JSONField):
    pass


@extend_schema_field({"type": "array", "items": {"type": "string"},
                      "description": "Tie-break criteria in order, e.g. [\"total_points\", \"wins\"]."})
class TieBreaksField(serializers.JSONField):
    pass


class EventSerializer(serializers.ModelSerializer):
    url = serializers.CharField(source="get_absolute_url", read_only=True)
    rules_overrides = RulesOverridesField(required=False)
    table_sizes = TableSizesField(required=False)
    tie_breaks = TieBreaksField(required=False)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)
    # Choices are checked by the services, with messages naming the allowed values.
    kind = serializers.CharField(required=False, max_length=16)
    format = serializers.CharField(required=False, max_length=16)
    odd_handling = serializers.CharField(required=False, max_length=16)
    scoring = serializers.CharField(required=False, max_length=16)

    class Meta:
        model = Event
        fields = [
            "id", "club", "season", "name", "slug", "url", "kind", "date", "rules_preset",
            "rules_overrides", "format", "table_sizes", "odd_handling", "planned_rotations",
            "scoring", "tie_breaks", "is_public", "seed", "status",
        ]
        read_only_fields = ["slug", "status"]


class EventStatusSerializer(serializers.Serializer):
    status = serializers.CharField()


class RegistrationSerializer(serializers.ModelSerializer):
    name = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = [
            "id", "event", "player", "partnership", "name", "checked_in", "joins_at_rotation",
            "withdrawn_after_rotation", "created_at",
        ]
        read_only_fields = ["checked_in", "joins_at_rotation", "withdrawn_after_rotation", "created_at"]

    def get_name(self, registration: Registration) -> str:
        return str(registration.player or registration.partnership)


class CheckInSerializer(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True)


class SeatSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Seat
        # substitute_for: the absent member (player id) this seat's player plays for, or null.
        fields = ["seat_number", "side", "player", "player_name", "substitute_for"]
        read_only_fields = ["substitute_for"]


SIDE_CREDENTIALS = "_side_credentials"  # context key: game id -> its side credentials


def _shared(context: Mapping[str, Any]) -> dict[str, Any]:
    """DRF's context is the dict the view gave the serializers: per-request caches live in it."""
    return cast(dict[str, Any], context)


def _can_see_entry_codes(context: Mapping[str, Any], club_id: int) -> bool:
    """Directors of the game's club see each side's entry code and link; cached per request."""
    cache = _shared(context).setdefault("_directs", {})
    if club_id not in cache:
        request = context.get("request")
        cache[club_id] = bool(request and is_director(request.user, club_id))
    return cache[club_id]


class EntryLinkSerializer(serializers.Serializer):
    """One side's credential: its code (typed on /play/) and its link (the QR code). The link's
    token, sent as `X-Entry-Token`, enters and confirms results for that side only."""

    side = serializers.IntegerField(help_text="0-based.")
    code = serializers.CharField(help_text="7 characters.")
    url = serializers.CharField(help_text="The side's table link: /play/<token>/.")


class GameSerializer(serializers.ModelSerializer):
    event = serializers.IntegerField(source="table.rotation.event_id", read_only=True)
    rotation = serializers.IntegerField(source="table.rotation.number", read_only=True)
    table = serializers.IntegerField(source="table.number", read_only=True)
    seats = SeatSerializer(source="table.seats", many=True, read_only=True)
    # The game's old per-game code and link (before each side had its own) are no credential
    # any more and are not shown: each side's own are in entry_links.
    entry_links = serializers.SerializerMethodField(
        help_text="Each side's own entry code and link (as on the table card); directors only."
    )

    class Meta:
        model = Game
        fields = [
            "id", "event", "rotation", "table", "seats", "first_dealer", "status", "played_at",
            "entry_links",
        ]

    @extend_schema_field(EntryLinkSerializer(many=True, allow_null=True))
    def get_entry_links(self, game: Game) -> list[dict] | None:
        if not _can_see_entry_codes(self.context, game.table.rotation.event.club_id):
            return None
        batched = self.context.get(SIDE_CREDENTIALS, {})
        credentials = batched[game.pk] if game.pk in batched else game_side_credentials(game=game)
        return [{"side": c.side, "code": c.code, "url": c.entry_url} for c in credentials]


class TableGameSerializer(GameSerializer):
    class Meta(GameSerializer.Meta):
        fields = ["id", "first_dealer", "status", "entry_links"]


class TableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    game = TableGameSerializer(read_only=True)

    class Meta:
        model = Table
        fields = ["number", "seats", "game"]


class SitOutSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = SitOut
        fields = ["player", "player_name"]


def _batch_side_credentials(context: Mapping[str, Any], rotations: Iterable[Rotation]) -> None:
    """Every shown game's side credentials in a constant number of queries (not two per table),
    kept in the context for GameSerializer.entry_links."""
    games = [table.game for rotation in rotations
             if _can_see_entry_codes(context, rotation.event.club_id)
             for table in rotation.tables.all() if getattr(table, "game", None) is not None]
    missing = [g for g in games if g.pk not in context.get(SIDE_CREDENTIALS, {})]
    if missing:
        _shared(context).setdefault(SIDE_CREDENTIALS, {}).update(side_credentials_ensure(games=missing))


class RotationListSerializer(serializers.ListSerializer):
    def to_representation(self, data: Manager[Any] | Iterable[Any]) -> list:
        rotations = list(data.all() if hasattr(data, "all") else data)
        _batch_side_credentials(self.context, rotations)
        return super().to_representation(rotations)


class RotationSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)
    sit_outs = SitOutSerializer(many=True, read_only=True)

    class Meta:
        model = Rotation
        fields = ["id", "event", "number", "status", "tables", "sit_outs", "created_at"]
        read_only_fields = fields
        list_serializer_class = RotationListSerializer

    def to_representation(self, instance: Rotation) -> dict:
        _batch_side_credentials(self.context, [instance])
        return super().to_representation(instance)


class GenerateRotationSerializer(serializers.Serializer):
    event = serializers.PrimaryKeyRelatedField(queryset=Event.objects.all())


class SwapSerializer(serializers.Serializer):
    player_a = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_b = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class TablePlanSerializer(serializers.Serializer):
    seats = serializers.ListField(child=serializers.IntegerField(), min_length=1)
    sides = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    first_dealer = serializers.IntegerField()


class SeatingPlanSerializer(serializers.Serializer):
    """A whole rotation's seating: tables of player ids clockwise, each side's ids, first dealer."""

    tables = TablePlanSerializer(many=True)
    sit_out = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)


class SeatingQualitySerializer(serializers.Serializer):
    rotations = serializers.IntegerField()
    partner_repeats = serializers.IntegerField()
    opponent_min = serializers.IntegerField()
    opponent_max = serializers.IntegerField()
    sit_outs_min = serializers.IntegerField()
    sit_outs_max = serializers.IntegerField()
    deals_min = serializers.IntegerField()
    deals_max = serializers.IntegerField()

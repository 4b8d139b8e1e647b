"""Shapes of the results API: inputs are checked here, the figures by the engine in services."""

from typing import Any

from rest_framework import serializers

from games import selectors
from games.models import ResultVersion, Submission
from games.services import result_revision
from league.models import Game


class SubmissionInput(serializers.Serializer):
    document = serializers.JSONField(help_text="A score sheet or a move log (formats.md).")
    side = serializers.IntegerField(
        required=False, min_value=0, max_value=64, help_text="Optional: the side entering (0-based); must be the table link's own side."
    )
    idempotency_key = serializers.CharField(
        required=False, max_length=128, help_text="Or the Idempotency-Key header."
    )


class ConfirmationInput(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    side = serializers.IntegerField(
        required=False, min_value=0, max_value=64, help_text="Optional; must be the link's side."
    )


class CorrectionInput(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)
    sheets = serializers.ListField(child=serializers.JSONField(), required=False, max_length=20)
    log = serializers.JSONField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("sheets") and attrs.get("log") is None:
            raise serializers.ValidationError("Send `sheets` (any rounds) or a `log`.")
        return attrs

    @property
    def documents(self) -> list[Any]:
        data = self.validated_data
        return ([data["log"]] if data.get("log") is not None else []) + list(data.get("sheets", []))


class ResultVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = ResultVersion
        fields = [
            "number",
            "status",
            "rounds",
            "totals",
            "entered_by",
            "confirmed_by",
            "confirmed_at",
            "reason",
            "based_on",
            "created_at",
        ]


class SubmissionSerializer(serializers.ModelSerializer):
    totals = serializers.SerializerMethodField()

    class Meta:
        model = Submission
        fields = [
            "id",
            "kind",
            "round_number",
            "entrant",
            "via",
            "created_at",
            "totals",
            "differences",
            "withdrawn_at",
        ]

    def get_totals(self, submission: Submission) -> list[int]:
        return submission.report.get("totals", [])


class ResultSerializer(serializers.ModelSerializer):
    """A game's result: its state and the current (confirmed) figures."""

    game = serializers.IntegerField(source="pk", read_only=True)
    event = serializers.CharField(source="table.rotation.event.slug", read_only=True)
    rotation = serializers.IntegerField(source="table.rotation.number", read_only=True)
    table = serializers.IntegerField(source="table.number", read_only=True)
    sides = serializers.SerializerMethodField()
    current = serializers.SerializerMethodField()
    revision = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "game",
            "event",
            "rotation",
            "table",
            "status",
            "played_at",
            "sides",
            "revision",
            "current",
        ]

    def get_sides(self, game: Game) -> list[dict[str, Any]]:
        return [{"side": s.side, "players": s.names} for s in selectors.game_sides(game=game)]

    def get_current(self, game: Game) -> dict[str, Any] | None:
        version = selectors.game_current_version(game=game)
        return ResultVersionSerializer(version).data if version else None

    def get_revision(self, game: Game) -> int:
        return result_revision(game=game)


class ResultDetailSerializer(ResultSerializer):
    versions = serializers.SerializerMethodField()
    submissions = serializers.SerializerMethodField()

    class Meta(ResultSerializer.Meta):
        fields = [*ResultSerializer.Meta.fields, "versions", "submissions"]

    def get_versions(self, game: Game) -> list[dict[str, Any]]:
        return ResultVersionSerializer(selectors.game_versions(game=game), many=True).data

    def get_submissions(self, game: Game) -> list[dict[str, Any]]:
        return SubmissionSerializer(selectors.game_submissions(game=game), many=True).data

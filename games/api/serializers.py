"""Shapes of the results API: inputs are checked here, the figures by the engine in services."""

from typing import Any, cast

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import selectors
from games.models import ResultVersion, Submission
from games.services import result_revision
from handfoot.rules import SIDE_PARTS, PartKind, ScoringPart
from league.models import Game
from league.permissions import is_director

# --- the engine's report (handfoot.report), as stored and shown ------------------------------


class BookCountSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    bonus = serializers.IntegerField()


class BooksSerializer(serializers.Serializer):
    clean = BookCountSerializer()
    dirty = BookCountSerializer()
    wild = BookCountSerializer()


def _part_field(part: ScoringPart) -> serializers.Field:
    if part.kind == PartKind.YES_NO:
        return serializers.BooleanField(help_text=part.words)
    return serializers.IntegerField(help_text=part.words)


# One side's score in one round, with what it is made of: the score, its books, then every part
# as declared once (handfoot.rules.SIDE_PARTS).
SideScoreSerializer = type(
    "SideScoreSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "One side's score in one round, with what it is made of.",
        "__module__": __name__,
        "score": serializers.IntegerField(),
        "books": BooksSerializer(),
        **{part.name: _part_field(part) for part in SIDE_PARTS},
    },
)


class SeatFactsSerializer(serializers.Serializer):
    """What one seat did in a round (from a move log only)."""

    seat = serializers.IntegerField()
    player = serializers.IntegerField(
        allow_null=True, help_text="The seat's player by number (id), whatever name they show; "
        "null for a seat the table no longer has.")
    side = serializers.IntegerField()
    turns = serializers.IntegerField()
    foot_turn = serializers.IntegerField(allow_null=True)
    pickups = serializers.IntegerField()
    cards_picked_up = serializers.IntegerField()
    melds_started = serializers.IntegerField()
    cards_laid = serializers.IntegerField()
    wilds_in_dirty = serializers.IntegerField()
    black_threes_discarded = serializers.IntegerField()
    cards_held = serializers.IntegerField()
    held_points = serializers.IntegerField()
    first_laydown_turn = serializers.IntegerField(allow_null=True)
    red_threes = serializers.IntegerField()


class RoundSourceSerializer(serializers.Serializer):
    submission = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Submission.Kind.choices)


class RoundReportSerializer(serializers.Serializer):
    """One round's figures as the engine found them."""

    round = serializers.IntegerField()
    ended_by = serializers.ChoiceField(choices=["went_out", "stock_out"])
    went_out_seat = serializers.IntegerField(allow_null=True)
    sides = SideScoreSerializer(many=True)
    seats = SeatFactsSerializer(many=True, help_text="Per seat, from a move log; else empty.")
    # The API's key "source"; DRF's metaclass moves declared fields out of the class, so it
    # shadows nothing of Field at run time (the stubs see Field.source, a str).
    source = RoundSourceSerializer(  # type: ignore[assignment]  # a declared field, see above
        required=False, help_text="The submission these figures came from (in a result)."
    )


class CheckedSeatFactsSerializer(SeatFactsSerializer):
    """What one seat did in a checked move log: the player as the log names them."""

    player = serializers.CharField(help_text="As the log's `seats` name them.")  # type: ignore[assignment]  # the check's own identifier, not a number


class CheckedRoundSerializer(RoundReportSerializer):
    """One round of a checked document (nothing stored)."""

    seats = CheckedSeatFactsSerializer(many=True, help_text="Per seat, from a move log; else empty.")


class EngineErrorSerializer(serializers.Serializer):
    """The engine's first objection to a document."""

    code = serializers.CharField()
    message = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    event = serializers.IntegerField(allow_null=True, help_text="The move log event's index.")


class CheckReportSerializer(serializers.Serializer):
    """What checking a score sheet or replaying a move log found (nothing is stored)."""

    kind = serializers.ChoiceField(choices=Submission.Kind.choices)
    valid = serializers.BooleanField()
    error = EngineErrorSerializer(allow_null=True)
    rounds = CheckedRoundSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField())


class DifferenceSerializer(serializers.Serializer):
    side = serializers.IntegerField(allow_null=True)
    field = serializers.CharField()
    this = serializers.JSONField(help_text="This entry's value (a number or `ended_by`).")
    other = serializers.JSONField(help_text="The other entry's value.")


class RoundDifferencesSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    other_submission = serializers.IntegerField()
    # The API's key "fields"; DRF's metaclass moves declared fields out of the class, so it
    # shadows nothing of Serializer at run time (the stubs see Serializer.fields).
    fields = DifferenceSerializer(many=True)  # type: ignore[assignment]  # a declared field


@extend_schema_field(RoundReportSerializer(many=True))
class RoundsField(serializers.JSONField):
    """A stored list of round reports."""


@extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
class TotalsField(serializers.JSONField):
    """A stored list of totals, one per side."""


@extend_schema_field(RoundDifferencesSerializer(many=True))
class DifferencesField(serializers.JSONField):
    """A stored list of differences between a sheet and a log of the same rounds."""


DOCUMENT_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": "A score sheet (`hand-and-foot-sheet/1`) or a move log "
    "(`hand-and-foot-log/1`): their JSON Schemas are at /api/schemas/score-sheet/ and "
    "/api/schemas/move-log/.",
}


@extend_schema_field(DOCUMENT_SCHEMA)
class DocumentField(serializers.JSONField):
    """A score sheet or a move log."""


# --- inputs --------------------------------------------------------------------------------------


class SubmissionInput(serializers.Serializer):
    document = DocumentField(help_text="A score sheet or a move log (formats.md).")
    side = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=64,
        help_text="Optional: the side entering (0-based); must be the table link's own side.",
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
    sheets = serializers.ListField(child=DocumentField(), required=False, max_length=20)
    log = DocumentField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("sheets") and attrs.get("log") is None:
            raise serializers.ValidationError("Send `sheets` (any rounds) or a `log`.")
        return attrs

    @property
    def documents(self) -> list[Any]:
        data = self.validated_data
        return ([data["log"]] if data.get("log") is not None else []) + list(data.get("sheets", []))


SEAT_PLAYERS = "_seat_players"  # context key: game id -> its players' numbers in seat order


class ResultVersionSerializer(serializers.ModelSerializer):
    rounds = RoundsField(read_only=True)
    totals = TotalsField(read_only=True)

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

    def to_representation(self, instance: ResultVersion) -> dict[str, Any]:
        """A move log's seats name their players as the log did (by slug, made from the
        name): the API names them by number (id), whatever name they show."""
        data = super().to_representation(instance)
        rounds = data.get("rounds") or []
        if any(r.get("seats") for r in rounds):
            numbers = self.context.get(SEAT_PLAYERS, {}).get(instance.game_id)
            if numbers is None:  # not read along with the result's sides
                numbers = selectors.game_seat_players(game_id=instance.game_id)
            data["rounds"] = [{**r, "seats": [
                {**seat, "player": numbers[seat["seat"]] if 0 <= seat["seat"] < len(numbers)
                 else None} for seat in r.get("seats") or []]} for r in rounds]
        return data


class SubmissionSerializer(serializers.ModelSerializer):
    totals = serializers.SerializerMethodField()
    differences = DifferencesField(read_only=True)

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


class ResultSideSerializer(serializers.Serializer):
    side = serializers.IntegerField(help_text="0-based.")
    players = serializers.ListField(child=serializers.CharField())


class ResultSerializer(serializers.ModelSerializer):
    """A game's result: its state and the current (confirmed) figures. In the context, a
    `record` (`selectors.game_record`) and the `revision` read from it spare the queries."""

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

    @extend_schema_field(ResultSideSerializer(many=True))
    def get_sides(self, game: Game) -> list[dict[str, Any]]:
        """The players as each chose to show their name, except to the club's directors (as
        `PlayerSerializer`)."""
        request = self.context.get("request")
        user = getattr(request, "user", None)
        club_id = selectors.game_event(game=game).club_id
        # One look-up per club in a list (a list's rows share its one child serializer).
        directed: dict[int, bool] = self.__dict__.setdefault("_director_of", {})
        if club_id not in directed:
            directed[club_id] = user is not None and is_director(user, club_id)
        seats = selectors.game_seats(game=game)
        # Read once for the versions too, which name a move log's seats by number.
        cast(dict[str, Any], self.context).setdefault(SEAT_PLAYERS, {})[game.pk] = [
            s.player_id for s in seats]
        sides = selectors.seats_sides(seats, shown=not directed[club_id])
        return [{"side": s.side, "players": s.names} for s in sides]

    @extend_schema_field(ResultVersionSerializer(allow_null=True))
    def get_current(self, game: Game) -> dict[str, Any] | None:
        version = selectors.game_current_version(game=game, record=self.context.get("record"))
        return ResultVersionSerializer(version, context=self.context).data if version else None

    def get_revision(self, game: Game) -> int:
        if "revision" in self.context:
            return int(self.context["revision"])
        record = self.context.get("record")
        return result_revision(game=game, versions=record.versions if record else None)


class ResultDetailSerializer(ResultSerializer):
    versions = serializers.SerializerMethodField()
    submissions = serializers.SerializerMethodField()

    class Meta(ResultSerializer.Meta):
        fields = [*ResultSerializer.Meta.fields, "versions", "submissions"]

    @extend_schema_field(ResultVersionSerializer(many=True))
    def get_versions(self, game: Game) -> list[dict[str, Any]]:
        # many=True makes a ListSerializer, whose data is a list (the stubs type the child's).
        record = self.context.get("record")
        versions = record.versions if record else selectors.game_versions(game=game)
        return cast(list[dict[str, Any]],
                    ResultVersionSerializer(versions, many=True, context=self.context).data)

    @extend_schema_field(SubmissionSerializer(many=True))
    def get_submissions(self, game: Game) -> list[dict[str, Any]]:
        # many=True makes a ListSerializer, whose data is a list (the stubs type the child's).
        record = self.context.get("record")
        # The documents themselves (a move log is tens of KB) are not part of the answer.
        submissions = (
            record.submissions
            if record
            else selectors.game_submissions(game=game).defer("document")
        )
        return cast(list[dict[str, Any]], SubmissionSerializer(submissions, many=True).data)


class SubmissionCreatedSerializer(serializers.Serializer):
    """A stored submission, the game's result after it, and whether it was a replayed retry."""

    submission = SubmissionSerializer()
    result = ResultSerializer()
    replayed = serializers.BooleanField(
        help_text="True when this Idempotency-Key was seen before: nothing new was stored."
    )

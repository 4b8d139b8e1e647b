"""The results API: thin callers of `games.services` and `games.selectors`.

Writers: a signed-in scorer or director of the event's club (session or token), a signed-in
player of the game (for their own side, while the event runs), or one side's table link, sent
as the `X-Entry-Token` header: it enters and confirms for its own side only (a `side` in the
body must agree), only for its game and only while the event is running. Who may do what is
decided in one place, `games.services.entrant_for`. Corrections are for directors and need
`If-Match: "<revision>"`.
"""

import re
from typing import Any

import django_filters
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, generics, status
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import Forbidden, Invalid
from games import selectors, services
from games.api.serializers import (
    DOCUMENT_SCHEMA,
    CheckReportSerializer,
    ConfirmationInput,
    CorrectionInput,
    ResultDetailSerializer,
    ResultSerializer,
    ResultVersionSerializer,
    SubmissionCreatedSerializer,
    SubmissionInput,
    SubmissionSerializer,
)
from games.errors import Code, refusal
from games.models import Submission
from games.services import Entrant
from handfoot.checking import check_document, document_kind
from handfoot.schemas import load_schema
from league.models import Game
from league.permissions import check_can_view_event, is_director, signed_in
from web.errors import Code as EdgeCode
from web.errors import edge_error
from web.parsers import BodyTooLarge, body_limit, max_log_bytes, max_sheet_bytes
from web.throttling import CheckThrottle, api_lookup_failed

# An ETag is a revision number: ASCII digits only (not "²"), and no more than fit a column.
IF_MATCH_VALUE = re.compile(r"[0-9]{1,9}")

ENTRY_TOKEN = OpenApiParameter(
    "X-Entry-Token",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="One side's table link token: enters for that side of this game, no account "
    "needed.",
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Unique per submission; a retry with the same key returns the first result.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description='The result\'s ETag (its revision, e.g. "3"); a stale one is refused with 412.',
)


class PreconditionRequired(exceptions.APIException):
    """A correction sent without If-Match (HTTP's 428: not a refusal of the services)."""

    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_code = "PRECONDITION_REQUIRED"


class TableCredentialOrSignedIn(BasePermission):
    """Entry endpoints: a signed-in user, or anyone sending a table link's token (the view
    checks it against the game and counts wrong ones as guesses)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(request.user and request.user.is_authenticated) or bool(
            request.headers.get("X-Entry-Token")
        )


class ResultsAPIView(APIView):
    """A size limit on the body; refusals from the services become the API's JSON error shape
    in `config.api_errors`."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        try:
            length = int(request.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        if length > body_limit(self):
            raise BodyTooLarge(body_limit(self), getattr(self, "body_limit_hint", ""))
        super().initial(request, *args, **kwargs)

    # The table link of this request's token, when it is this game's (`game_for_writer`).
    link: selectors.TableLink | None = None

    def game_for_writer(self, request: Request, game_id: int) -> Game:
        token = request.headers.get("X-Entry-Token")
        if token:
            # A link of this game brings the game along (one read for both); any other token
            # is refused below as before (`entrant`), after the game is looked up.
            link = selectors.table_link_by_token(token=token)
            if link is not None and link.game.pk == game_id:
                self.link = link
                return link.game
        game = get_object_or_404(Game.objects.select_related("table__rotation__event"), pk=game_id)
        if not token:
            _readable_or_404(request, game)
        return game

    def entrant(self, request: Request, game: Game, side: Any) -> Entrant:
        """Who enters: `services.entrant_for` decides, from the table link (its side) or the
        signed-in user; a body `side` that disagrees with the link's side is refused."""
        token = request.headers.get("X-Entry-Token")
        link = None
        if token:
            link = (
                self.link
                if self.link is not None and self.link.game.pk == game.pk
                else selectors.table_link_by_token(token=token)
            )
            if link is None or link.game.pk != game.pk:
                api_lookup_failed(request)
                raise refusal(Forbidden, Code.WRONG_TABLE_LINK)
        entrant = services.entrant_for(game=game, user=request.user, link=link, claimed_side=side)
        if entrant is None:
            raise refusal(Forbidden, Code.NOT_AN_ENTRANT)
        return entrant


def _readable_or_404(request: Request, game: Game) -> None:
    check_can_view_event(request.user, selectors.game_event(game=game))


class ResultFilter(django_filters.FilterSet):
    event = django_filters.CharFilter(field_name="table__rotation__event__slug")
    game = django_filters.NumberFilter(field_name="pk")
    status = django_filters.ChoiceFilter(choices=Game.Status.choices)

    class Meta:
        model = Game
        fields = ["event", "game", "status"]


class ResultList(generics.ListAPIView):
    """Results of the games of events you may read."""

    serializer_class = ResultSerializer
    filterset_class = ResultFilter

    def get_queryset(self) -> QuerySet[Game]:
        return selectors.games_with_results(user=self.request.user)


class ResultDetail(ResultsAPIView):
    @extend_schema(
        summary="Get a game's result with its versions and submissions",
        responses=ResultDetailSerializer,
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_with_results(user=request.user, game_id=game_id)
        if game is None:
            raise Http404("No Game matches the given query.")  # as get_object_or_404 says
        # The versions and submissions read once, the revision (the ETag) worked out from them.
        record = selectors.game_record(game=game)
        revision = services.result_revision(game=game, versions=record.versions)
        context = {"record": record, "revision": revision, "request": request}
        return _with_etag(Response(ResultDetailSerializer(game, context=context).data), game,
                          revision=revision)


def _with_etag(response: Response, game: Game, *, revision: int | None = None) -> Response:
    """The result's revision as the response's ETag (`revision`: when the request has it)."""
    revision = services.result_revision(game=game) if revision is None else revision
    response["ETag"] = f'"{revision}"'
    return response


class SubmissionCreate(ResultsAPIView):
    permission_classes = [TableCredentialOrSignedIn]
    max_body_bytes = staticmethod(max_log_bytes)  # a sheet or a whole game's move log

    @extend_schema(
        summary="Enter a score sheet or a move log for a game",
        request=SubmissionInput,
        responses={
            201: SubmissionCreatedSerializer,
            200: OpenApiResponse(
                SubmissionCreatedSerializer,
                description="A retry with a known Idempotency-Key: the first "
                "submission, nothing new stored (`replayed` is true).",
            ),
        },
        parameters=[ENTRY_TOKEN, IDEMPOTENCY_KEY],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = self.game_for_writer(request, game_id)
        data = _valid(SubmissionInput, request)
        entrant = self.entrant(request, game, data.get("side"))
        key = request.headers.get("Idempotency-Key") or data.get("idempotency_key")
        if not key:
            raise refusal(Invalid, Code.IDEMPOTENCY_KEY_REQUIRED)
        submission, created = services.submission_create(
            game=game, document=data["document"], entrant=entrant, idempotency_key=key
        )
        _entered_state(game, submission, created)
        # The versions read once: the current one and the revision (the ETag) come from them.
        record = selectors.game_versions_record(game=game)
        revision = services.result_revision(game=game, versions=record.versions)
        context = {"record": record, "revision": revision, "request": request}
        body = {
            "submission": SubmissionSerializer(submission).data,
            "result": ResultSerializer(game, context=context).data,
            "replayed": not created,
        }
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return _with_etag(Response(body, status=code), game, revision=revision)


def _entered_state(game: Game, submission: Submission, created: bool) -> None:
    """Only what the entry changed on `game` (its table, rotation and event stay loaded): a new
    entry's transaction left them on the game row it locked and wrote (`submission.game`); a
    replayed one reads them."""
    if created:
        game.status, game.played_at = submission.game.status, submission.game.played_at
    else:
        game.refresh_from_db(fields=["status", "played_at"])


class ConfirmationCreate(ResultsAPIView):
    permission_classes = [TableCredentialOrSignedIn]

    @extend_schema(
        summary="Confirm the other side's version of a game's result",
        request=ConfirmationInput,
        responses=ResultVersionSerializer,
        parameters=[ENTRY_TOKEN],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = self.game_for_writer(request, game_id)
        data = _valid(ConfirmationInput, request)
        entrant = self.entrant(request, game, data.get("side"))
        version = services.result_confirm(
            game=game, version_number=data["version"], entrant=entrant
        )
        return _with_etag(Response(ResultVersionSerializer(version).data), game)


class CorrectionCreate(ResultsAPIView):
    @extend_schema(
        summary="Correct a game's result (directors)",
        request=CorrectionInput,
        responses={201: ResultVersionSerializer},
        parameters=[IF_MATCH],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = get_object_or_404(Game.objects.select_related("table__rotation__event"), pk=game_id)
        _readable_or_404(request, game)
        if not is_director(request.user, selectors.game_event(game=game).club_id):
            raise exceptions.PermissionDenied("Only the club's directors may correct results.")
        expected = _if_match(request)
        serializer = CorrectionInput(data=_body(request))
        serializer.is_valid(raise_exception=True)
        version = services.result_correct(
            game=game,
            user=signed_in(request.user),  # a director (checked above) is signed in
            reason=serializer.validated_data["reason"],
            expected_revision=expected,
            documents=serializer.documents,
        )
        return _with_etag(Response(ResultVersionSerializer(version).data, status=201), game)


class SubmissionWithdrawal(ResultsAPIView):
    """A director withdraws one entry (a sheet or log) before the result is confirmed, or
    restores it (`restore = True`); 409 when that does not apply now."""

    restore = False

    @extend_schema(
        summary="Withdraw (or restore) one entry of an unconfirmed result (directors)",
        request=None,
        responses=SubmissionSerializer,
    )
    def post(self, request: Request, game_id: int, submission_id: int) -> Response:
        game = get_object_or_404(Game.objects.select_related("table__rotation__event"), pk=game_id)
        _readable_or_404(request, game)
        if not is_director(request.user, selectors.game_event(game=game).club_id):
            raise exceptions.PermissionDenied("Only the club's directors may withdraw entries.")
        submission = get_object_or_404(Submission, pk=submission_id, game=game)
        service = services.submission_restore if self.restore else services.submission_withdraw
        submission = service(submission=submission, by=signed_in(request.user))  # a director
        game.refresh_from_db()
        return _with_etag(Response(SubmissionSerializer(submission).data), game)


def _if_match(request: Request) -> int:
    raw = (request.headers.get("If-Match") or "").strip()
    if not raw:
        raise PreconditionRequired(edge_error(EdgeCode.PRECONDITION_REQUIRED))
    value = raw.removeprefix("W/").strip('"')
    if not IF_MATCH_VALUE.fullmatch(value):
        raise refusal(Invalid, Code.BAD_IF_MATCH, got=repr(raw[:20]))
    return int(value)


def _body(request: Request) -> Any:
    data = request.data
    if not isinstance(data, dict):
        raise refusal(Invalid, Code.BAD_FORMAT)
    return data


def _valid(serializer_class: type, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=_body(request))
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class DocumentCheck(ResultsAPIView):
    """Runs the engine on a document and returns its report; stores nothing."""

    kind = "sheet"
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [CheckThrottle]

    @extend_schema(request={"application/json": DOCUMENT_SCHEMA}, responses=CheckReportSerializer)
    def post(self, request: Request) -> Response:
        document = _body(request)
        if "format" in document and document_kind(document) != self.kind:
            other = "logs" if self.kind == "sheet" else "sheets"
            raise refusal(Invalid, Code.WRONG_KIND, checked=self.kind, other=other)
        return Response(check_document(document).to_dict())


@extend_schema_view(post=extend_schema(summary="Check a score sheet and score it (stores nothing)"))
class SheetCheck(DocumentCheck):
    kind = "sheet"
    max_body_bytes = staticmethod(max_sheet_bytes)
    body_limit_hint = "A score sheet is far smaller; a move log goes to /api/logs/check/."


@extend_schema_view(post=extend_schema(summary="Replay a move log and score it (stores nothing)"))
class LogCheck(DocumentCheck):
    kind = "log"
    max_body_bytes = staticmethod(max_log_bytes)


class SchemaView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    schema_name = ""

    @extend_schema(
        summary="The JSON Schema of a document format",
        responses=OpenApiResponse(
            OpenApiTypes.OBJECT, description="A JSON Schema (draft 2020-12) document."
        ),
    )
    def get(self, request: Request) -> Response:
        return Response(load_schema(self.schema_name), content_type="application/schema+json")

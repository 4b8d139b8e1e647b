"""League API: thin viewsets over `league.selectors` (reads) and `league.services` (writes); a
service's refusal becomes the API's JSON error in `config.api_errors`.

Anyone reads public events; club members also read their club's private ones (others get 404).
Only the club's directors write (others get 403).
"""

from typing import Any

from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from league import selectors, services
from league.api import filters
from league.api import serializers as s
from league.api.permissions import DirectorWrites
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
)
from league.permissions import can_view_event, is_director, signed_in, visible_events
from league.seating import RotationPlan, TablePlan
from web.error_shape import ErrorSerializer
from web.errors import Code as EdgeCode
from web.errors import edge_error

WRITE_METHODS = ["get", "post", "patch", "head", "options"]
# Error responses the schema cannot derive from the operation (config.api_autoschema adds the rest).
FORBIDDEN = OpenApiResponse(ErrorSerializer, description="Only the club's directors may.")
NOT_SIGNED_IN = OpenApiResponse(ErrorSerializer, description="No credentials, or a bad token.")
NO_SUCH_EVENT = OpenApiResponse(ErrorSerializer,
                                description="The event is not visible to this caller.")


def require_director(request: Request, club_id: int) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated()  # 401 with WWW-Authenticate, as for every guarded write
    if not is_director(request.user, club_id):
        raise PermissionDenied(edge_error(EdgeCode.FORBIDDEN))


def require_event_director(request: Request, event: Event) -> None:
    if not can_view_event(request.user, event):
        raise NotFound(edge_error(EdgeCode.NOT_FOUND, what="event"))
    require_director(request, event.club_id)


def _existing(serializer: BaseSerializer[Any]) -> Any:
    """The object an update's serializer was made for (DRF's update always gives one)."""
    if serializer.instance is None:
        raise NotFound()
    return serializer.instance


class DirectorWritableViewSet(viewsets.ModelViewSet):
    permission_classes = [DirectorWrites]
    http_method_names = WRITE_METHODS


class ClubViewSet(DirectorWritableViewSet):
    """Clubs. Any signed-in user may found a club and becomes its director."""

    queryset = Club.objects.all()
    serializer_class = s.ClubSerializer
    filterset_fields = ["slug"]

    def perform_create(self, serializer: BaseSerializer[Any]) -> None:
        serializer.instance = services.club_create(director=signed_in(self.request.user), **serializer.validated_data)

    def perform_update(self, serializer: BaseSerializer[Any]) -> None:
        serializer.instance = services.club_update(club=_existing(serializer), **serializer.validated_data)

    @extend_schema(methods=["GET"], summary="List a club's directors and scorers",
                   responses={200: s.MembershipSerializer(many=True), 401: NOT_SIGNED_IN,
                              403: FORBIDDEN})
    @extend_schema(methods=["POST"], summary="Invite an account to be a director or scorer",
                   description="The account becomes a member only when it accepts "
                   "(`POST /api/invitations/{id}/accept/`). The answer is the same whether or "
                   "not an account has the username.",
                   request=s.InviteInput, responses={202: s.InvitationSentSerializer,
                                                     401: NOT_SIGNED_IN, 403: FORBIDDEN})
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def members(self, request: Request, pk: str | None = None) -> Response:
        """The club's directors and scorers (directors only); POST invites one by username."""
        club = self.get_object()
        require_director(request, club.pk)
        if request.method == "POST":
            body = s.InviteInput(data=request.data)
            body.is_valid(raise_exception=True)
            username, role = body.validated_data["username"].strip(), body.validated_data["role"]
            services.membership_invite(club=club, username=username, role=role, by=signed_in(request.user))
            return Response({
                "invitation": "sent", "username": username, "role": role,
                "message": f"Invitation sent to {username}: once they accept it, they are a "
                           f"{Membership.Role(role).label.lower()} of {club.name}.",
            }, status=status.HTTP_202_ACCEPTED)
        memberships = club.memberships.select_related("user").order_by("role", "user__username")
        return Response(s.MembershipSerializer(memberships, many=True).data)

    @extend_schema(summary="List the invitations a club has sent that are not accepted yet",
                   responses={200: s.ClubInvitationSerializer(many=True), 401: NOT_SIGNED_IN,
                              403: FORBIDDEN})
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def invitations(self, request: Request, pk: str | None = None) -> Response:
        club = self.get_object()
        require_director(request, club.pk)
        return Response(s.ClubInvitationSerializer(selectors.club_invitations(club=club),
                                                   many=True).data)


class InvitationViewSet(viewsets.GenericViewSet):
    """The signed-in account's invitations to help run a club: list, accept, decline."""

    serializer_class = s.MyInvitationSerializer
    pagination_class = None
    filter_backends: list = []

    def get_queryset(self) -> QuerySet:
        return selectors.invitations_for(user=self.request.user)

    def _signed_in(self, request: Request) -> None:
        if not request.user.is_authenticated:
            raise NotAuthenticated()

    @extend_schema(summary="List the invitations waiting for your answer",
                   responses={200: s.MyInvitationSerializer(many=True), 401: NOT_SIGNED_IN})
    def list(self, request: Request) -> Response:
        self._signed_in(request)
        return Response(s.MyInvitationSerializer(self.get_queryset(), many=True).data)

    @extend_schema(summary="Accept an invitation: you become a director or scorer of the club",
                   request=None, responses={200: s.MembershipSerializer, 401: NOT_SIGNED_IN})
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: str | None = None) -> Response:
        self._signed_in(request)
        membership = services.invitation_accept(invitation_id=_invitation_id(pk), user=signed_in(request.user))
        return Response(s.MembershipSerializer(membership).data)

    @extend_schema(summary="Decline an invitation: nothing changes for the club",
                   request=None, responses={204: None, 401: NOT_SIGNED_IN})
    @action(detail=True, methods=["post"])
    def decline(self, request: Request, pk: str | None = None) -> Response:
        self._signed_in(request)
        services.invitation_decline(invitation_id=_invitation_id(pk), user=signed_in(request.user))
        return Response(status=status.HTTP_204_NO_CONTENT)


def _invitation_id(pk: str | None) -> int:
    if not (pk or "").isascii() or not (pk or "").isdigit() or len(pk or "") > 12:
        raise NotFound(edge_error(EdgeCode.NOT_FOUND, what="invitation"))
    return int(pk or 0)


class PlayerViewSet(DirectorWritableViewSet):
    # By number: the model's order (by real name) would place a hidden "Player 7" among
    # the names and so tell their first letters.
    queryset = Player.objects.select_related("club").order_by("pk")
    serializer_class = s.PlayerSerializer
    filterset_class = filters.PlayerFilter

    def perform_create(self, serializer: BaseSerializer[Any]) -> None:
        data = serializer.validated_data
        require_director(self.request, data["club"].pk)
        serializer.instance = services.player_create(club=data["club"], name=data["name"])

    def perform_update(self, serializer: BaseSerializer[Any]) -> None:
        data = {k: v for k, v in serializer.validated_data.items() if k != "club"}
        serializer.instance = services.player_update(player=_existing(serializer), **data)


class PartnershipViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Partnership.objects.select_related("player_a", "player_b").order_by("pk")
    serializer_class = s.PartnershipSerializer
    permission_classes = [DirectorWrites]
    filterset_fields = ["club", "player_a", "player_b"]

    def perform_create(self, serializer: BaseSerializer[Any]) -> None:
        data = serializer.validated_data
        require_director(self.request, data["club"].pk)
        serializer.instance = services.partnership_create(**data)


class LeagueViewSet(DirectorWritableViewSet):
    queryset = League.objects.all()
    serializer_class = s.LeagueSerializer
    filterset_fields = ["club", "slug"]

    def perform_create(self, serializer: BaseSerializer[Any]) -> None:
        require_director(self.request, serializer.validated_data["club"].pk)
        serializer.instance = services.league_create(**serializer.validated_data)

    def perform_update(self, serializer: BaseSerializer[Any]) -> None:
        data = {k: v for k, v in serializer.validated_data.items() if k != "club"}
        serializer.instance = services.league_update(league=_existing(serializer), **data)


class SeasonViewSet(DirectorWritableViewSet):
    queryset = Season.objects.select_related("league")
    serializer_class = s.SeasonSerializer
    filterset_class = filters.SeasonFilter

    def perform_create(self, serializer: BaseSerializer[Any]) -> None:
        require_director(self.request, serializer.validated_data["league"].club_id)
        serializer.instance = services.season_create(**serializer.validated_data)

    def perform_update(self, serializer: BaseSerializer[Any]) -> None:
        data = {k: v for k, v in serializer.validated_data.items() if k != "league"}
        serializer.instance = services.season_update(season=_existing(serializer), **data)


class EventViewSet(DirectorWritableViewSet):
    """Events: filter by club, status, date (date_from/date_to), season, format, kind."""

    serializer_class = s.EventSerializer
    filterset_class = filters.EventFilter

    def get_queryset(self) -> QuerySet[Event]:
        return visible_events(self.request.user).select_related("club", "season").order_by("-date", "name")

    def perform_create(self, serializer: BaseSerializer[Any]) -> None:
        data = serializer.validated_data
        require_director(self.request, data["club"].pk)
        serializer.instance = services.event_create(**data, by=signed_in(self.request.user))

    def perform_update(self, serializer: BaseSerializer[Any]) -> None:
        serializer.instance = services.event_update(event=_existing(serializer), by=signed_in(self.request.user),
                                                    **serializer.validated_data)

    @extend_schema(request=s.EventStatusSerializer, responses=s.EventSerializer)
    @action(detail=True, methods=["post"])
    def status(self, request: Request, pk: str | None = None) -> Response:
        """Move the event one step: draft → registration → running → finished."""
        event = self.get_object()
        body = s.EventStatusSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        event = services.event_set_status(event=event, status=body.validated_data["status"],
                                          by=signed_in(request.user))
        return Response(s.EventSerializer(event, context=self.get_serializer_context()).data)


    @extend_schema(request=None, responses=s.SeatingQualitySerializer)
    @action(detail=True, methods=["get"], url_path="seating-quality")
    def seating_quality(self, request: Request, pk: str | None = None) -> Response:
        """Fairness of the seating so far: partner repeats, opponent spread, sit-outs, deals."""
        return Response(selectors.seating_quality(event=self.get_object()))


def _visible_event_ids(request: Request) -> QuerySet:
    return visible_events(request.user).values("pk")


@extend_schema_view(create=extend_schema(responses={201: s.RegistrationSerializer,
                                                   404: NO_SUCH_EVENT}))
class RegistrationViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = s.RegistrationSerializer
    permission_classes = [DirectorWrites]
    filterset_class = filters.RegistrationFilter

    def get_queryset(self) -> QuerySet[Registration]:
        return (
            Registration.objects.filter(event__in=_visible_event_ids(self.request))
            .select_related("event", "player", "partnership__player_a", "partnership__player_b")
            .order_by("event", "created_at", "pk")
        )

    def perform_create(self, serializer: BaseSerializer[Any]) -> None:
        data = serializer.validated_data
        require_event_director(self.request, data["event"])
        serializer.instance = services.registration_add(
            event=data["event"], player=data.get("player"), partnership=data.get("partnership"),
            by=signed_in(self.request.user),
        )

    @extend_schema(request=s.CheckInSerializer, responses=s.RegistrationSerializer)
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, pk: str | None = None) -> Response:
        """Check a registered player or partnership in (or out, with `checked_in` false)."""
        registration = self.get_object()
        body = s.CheckInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        registration = services.registration_check_in(
            registration=registration, checked_in=body.validated_data["checked_in"], by=signed_in(request.user)
        )
        return Response(self.get_serializer(registration).data)

    @extend_schema(request=None, responses=s.RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Withdraw a registration after the current rotation."""
        registration = services.registration_withdraw(registration=self.get_object(), by=signed_in(request.user))
        return Response(self.get_serializer(registration).data)

    @extend_schema(request=None, responses=s.RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def reinstate(self, request: Request, pk: str | None = None) -> Response:
        """Undo a withdrawal."""
        registration = services.registration_reinstate(registration=self.get_object(), by=signed_in(request.user))
        return Response(self.get_serializer(registration).data)


class RotationViewSet(mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet):
    """Rotations with their tables, seats, games and sit-outs. Directors generate the next one,
    edit a draft (swap two players or replace the seating), start it and close it."""

    serializer_class = s.RotationSerializer
    permission_classes = [DirectorWrites]
    filterset_class = filters.RotationFilter

    def get_queryset(self) -> QuerySet[Rotation]:
        return (
            selectors.rotations_with_seating()
            .filter(event__in=_visible_event_ids(self.request))
            .select_related("event")
            .order_by("event", "number")
        )

    def perform_destroy(self, instance: Rotation) -> None:
        services.rotation_delete(rotation=instance, by=signed_in(self.request.user))

    def _fresh(self, rotation: Rotation) -> Response:
        return Response(self.get_serializer(self.get_queryset().get(pk=rotation.pk)).data)

    @extend_schema(request=s.GenerateRotationSerializer,
                   responses={201: s.RotationSerializer, 404: NO_SUCH_EVENT})
    @action(detail=False, methods=["post"])
    def generate(self, request: Request) -> Response:
        """Seat the event's next rotation from its seed (a draft the director may still edit)."""
        body = s.GenerateRotationSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        event = body.validated_data["event"]
        require_event_director(request, event)
        rotation = services.rotation_generate(event=event, by=signed_in(request.user))
        response = self._fresh(rotation)
        response.status_code = status.HTTP_201_CREATED
        return response

    @extend_schema(request=s.SwapSerializer, responses=s.RotationSerializer)
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, pk: str | None = None) -> Response:
        """Swap two players' seats in a draft rotation."""
        rotation = self.get_object()
        body = s.SwapSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.rotation_swap_players(rotation=rotation, by=signed_in(request.user), **body.validated_data)
        return self._fresh(rotation)

    @extend_schema(request=s.SeatingPlanSerializer, responses=s.RotationSerializer)
    @action(detail=True, methods=["post"])
    def seating(self, request: Request, pk: str | None = None) -> Response:
        """Replace a draft rotation's whole seating (player ids clockwise per table)."""
        rotation = self.get_object()
        body = s.SeatingPlanSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.rotation_update_seating(rotation=rotation, plan=_plan_from(body.validated_data),
                                         by=signed_in(request.user))
        return self._fresh(rotation)

    @extend_schema(request=None, responses=s.RotationSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        """Start a draft rotation: its games open for results."""
        return self._fresh(services.rotation_start(rotation=self.get_object(), by=signed_in(request.user)))

    @extend_schema(request=None, responses=s.RotationSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """Close a started rotation."""
        return self._fresh(services.rotation_close(rotation=self.get_object(), by=signed_in(request.user)))


def _plan_from(data: dict[str, Any]) -> RotationPlan:
    tables = tuple(
        TablePlan(
            seats=tuple(t["seats"]),
            sides=tuple(tuple(side) for side in t["sides"]),
            first_dealer=t["first_dealer"],
        )
        for t in data["tables"]
    )
    return RotationPlan(tables=tables, sit_out=tuple(data.get("sit_out", ())))


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """Games of visible events. Entry codes and links only for directors of the club."""

    serializer_class = s.GameSerializer
    filterset_class = filters.GameFilter

    def get_queryset(self) -> QuerySet[Game]:
        seats = Prefetch("table__seats", queryset=Seat.objects.select_related("player").order_by("seat_number"))
        return (
            Game.objects.filter(table__rotation__event__in=_visible_event_ids(self.request))
            .select_related("table__rotation__event")
            .prefetch_related(seats)
            .order_by("table__rotation__event", "table__rotation__number", "table__number")
        )

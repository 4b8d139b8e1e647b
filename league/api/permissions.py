"""API permissions: anyone reads what they may see; only the club's directors write."""

from typing import Any

from django.db.models import Model
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from league.permissions import is_director


def club_id_of(obj: Any) -> int:
    """The club an API object belongs to (clubs, players, events, rotations, games...)."""
    for path in ("club_id", "league.club_id", "event.club_id", "rotation.event.club_id",
                 "table.rotation.event.club_id"):
        value: Any = obj
        try:
            for name in path.split("."):
                value = getattr(value, name)
        except AttributeError:
            continue
        return value
    return obj.pk  # a Club


class DirectorWrites(BasePermission):
    """Reads for everyone (querysets hide what they may not see); writes for the club's directors."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: APIView, obj: Model) -> bool:
        return request.method in SAFE_METHODS or is_director(request.user, club_id_of(obj))

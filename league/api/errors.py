"""League refusals as API errors in the project's JSON error shape."""

from rest_framework import status
from rest_framework.exceptions import APIException

from league.services import LeagueError

# Refusals because of the current state (not the request's shape) answer 409 Conflict.
CONFLICT_CODES = {
    "ALREADY_REGISTERED", "DUPLICATE", "EVENT_FINISHED", "SEATING_EXISTS", "BAD_STATUS_CHANGE",
    "ROTATION_OPEN", "WITHDRAWN", "NOT_WITHDRAWN", "SEATED_IN_DRAFT", "BAD_EVENT_STATUS", "PREVIOUS_ROTATION_OPEN",
    "ALL_ROTATIONS_GENERATED", "ROTATION_NOT_EDITABLE", "BAD_ROTATION_STATUS", "RESULTS_MISSING",
}


class Refused(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "refused"

    def __init__(self, error: LeagueError) -> None:
        super().__init__()
        self.detail = error.as_dict()
        if error.code in CONFLICT_CODES:
            self.status_code = status.HTTP_409_CONFLICT

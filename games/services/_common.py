"""What the results services share: their refusals and the bookkeeping of result versions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.models import ResultVersion
from league.models import Game


class ResultRefused(Exception):
    """Bad input for a result: nothing was changed. `code` is the engine's code or our own."""

    http_status = 400

    def __init__(self, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


class ResultForbidden(ResultRefused):
    http_status = 403


class ResultConflict(ResultRefused):
    http_status = 409


class ResultClosed(ResultRefused):
    """The table link no longer (or not yet) takes results: the event is not running."""

    http_status = 410


class StaleResult(ResultRefused):
    """The change was prepared against an older version of the result."""

    http_status = 412


def version_next_number(*, game: Game) -> int:
    last = game.result_versions.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def versions_supersede(*, versions: Iterable[ResultVersion]) -> None:
    ids = [v.pk for v in versions]
    if ids:
        ResultVersion.objects.filter(pk__in=ids).update(status=ResultVersion.Status.SUPERSEDED)

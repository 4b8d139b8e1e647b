"""What several results services share: the bookkeeping of result versions."""

from __future__ import annotations

from collections.abc import Iterable

from games.models import ResultVersion
from league.models import Game


def version_next_number(*, game: Game) -> int:
    last = game.result_versions.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def versions_supersede(*, versions: Iterable[ResultVersion]) -> None:
    ids = [v.pk for v in versions]
    if ids:
        ResultVersion.objects.filter(pk__in=ids).update(status=ResultVersion.Status.SUPERSEDED)

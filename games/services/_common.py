"""What several results services share: the bookkeeping of result versions."""

from __future__ import annotations

from collections.abc import Iterable

from games.models import ResultVersion
from league.models import Game


def version_next_number(*, game: Game) -> int:
    last = game.result_versions.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def game_all_versions(*, game: Game) -> list[ResultVersion]:
    """Every version of the game, oldest first (one query; call it with the game row locked and
    pass the list on: the services below keep it up to date as they change the versions)."""
    return list(game.result_versions.order_by("number"))


def versions_supersede(*, versions: Iterable[ResultVersion]) -> None:
    """Mark these versions superseded (one update, none when there are none), in memory too."""
    versions = list(versions)
    if versions:
        ResultVersion.objects.filter(pk__in=[v.pk for v in versions]).update(
            status=ResultVersion.Status.SUPERSEDED
        )
        for version in versions:
            version.status = ResultVersion.Status.SUPERSEDED

"""Confirmation: the other side (or a director) agrees with an entered version's figures."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, Forbidden, Invalid
from games.errors import Code, refusal
from games.models import ResultVersion
from games.selectors import GameTable
from games.services._common import versions_supersede
from games.services.entrants import Entrant
from games.services.history import confirm_record
from games.services.projection import result_project
from league.models import Game


def version_confirm(
    *, game: Game, version: ResultVersion, entrant: Entrant, table: GameTable | None = None
) -> None:
    versions_supersede(
        versions=(
            v
            for v in game.result_versions.filter(status__in=ResultVersion.OPEN_STATUSES)
            if v.pk != version.pk
        )
    )
    version.status = ResultVersion.Status.CONFIRMED
    version.confirmed_by = entrant.key
    version.confirmed_by_user = entrant.account
    version.confirmed_at = timezone.now()
    version.save(update_fields=["status", "confirmed_by", "confirmed_by_user", "confirmed_at"])
    result_project(game=game, table=table)


def confirmer_check(*, version: ResultVersion, entrant: Entrant) -> None:
    """No one confirms what they entered; only a director settles a dispute."""
    if version.entered_by == entrant.key:
        raise refusal(Forbidden, Code.SAME_ENTRANT)
    if version.status == ResultVersion.Status.DISPUTED and not entrant.director:
        raise refusal(Forbidden, Code.DIRECTOR_SETTLES_DISPUTES)


def settles_by_entry(*, version: ResultVersion, entrant: Entrant) -> bool:
    """An entry with the same figures confirms `version`: always when it is merely entered; a
    disputed one only for a director, or when the two entries come from two different sides."""
    if version.status != ResultVersion.Status.DISPUTED or entrant.director:
        return True
    return entrant.side is not None and version.entered_by.startswith("game:")


def result_confirm(
    *,
    game: Game,
    version_number: int,
    entrant: Entrant,
    reason: str = "",
    table: GameTable | None = None,
) -> ResultVersion:
    """Confirm the figures of an entered (or disputed) version: the same as entering them again.

    A director confirming one version of a dispute resolves it that way (`reason`, when given,
    is kept in the event's history).
    """
    with transaction.atomic():
        # Race: a confirmation and a new entry (or a second confirmation) of one game at once.
        game = Game.objects.select_for_update().get(pk=game.pk)
        version = game.result_versions.filter(number=version_number).first()
        if version is None:
            raise refusal(Invalid, Code.NO_SUCH_VERSION, version=version_number)
        if version.status not in ResultVersion.OPEN_STATUSES:
            raise refusal(
                Conflict,
                Code.NOT_AWAITING_CONFIRMATION,
                version=version_number,
                status=version.get_status_display().lower(),
            )
        confirmer_check(version=version, entrant=entrant)
        was_disputed = version.status == ResultVersion.Status.DISPUTED
        others = [
            v
            for v in game.result_versions.filter(status__in=ResultVersion.OPEN_STATUSES)
            if v.pk != version.pk
        ]
        version_confirm(game=game, version=version, entrant=entrant, table=table)
        confirm_record(
            game=game,
            version=version,
            entrant=entrant,
            was_disputed=was_disputed,
            others=others,
            reason=reason,
        )
    return version

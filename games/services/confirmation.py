"""Confirmation: the other side (or a director) agrees with an entered version's figures."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, Forbidden, Invalid
from games.errors import Code, refusal
from games.models import ResultVersion
from games.selectors import GameTable, game_table
from games.services._common import game_all_versions, versions_supersede
from games.services.entrants import Entrant
from games.services.history import confirm_record
from games.services.projection import result_project
from league.models import Game


def version_confirm(
    *,
    game: Game,
    version: ResultVersion,
    entrant: Entrant,
    table: GameTable | None = None,
    versions: Sequence[ResultVersion] | None = None,
) -> None:
    """Confirm `version`, supersede the other open ones and project the result. `versions`:
    every version of the game as the caller read them with the game row locked (kept up to
    date here), else read here."""
    versions = game_all_versions(game=game) if versions is None else versions
    versions_supersede(
        versions=[
            v for v in versions if v.status in ResultVersion.OPEN_STATUSES and v.pk != version.pk
        ]
    )
    version.status = ResultVersion.Status.CONFIRMED
    version.confirmed_by = entrant.key
    version.confirmed_by_user = entrant.account
    version.confirmed_at = timezone.now()
    version.save(update_fields=["status", "confirmed_by", "confirmed_by_user", "confirmed_at"])
    result_project(game=game, table=table, versions=versions)


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
        # Race: a confirmation and a new entry (or a second confirmation) of one game at once:
        # two phones confirming together; the second sees the version confirmed and is refused.
        # (Its table, rotation, event and club come along, unlocked: the history line names them.)
        game = (
            Game.objects.select_related("table__rotation__event__club")
            .select_for_update(of=("self",))
            .get(pk=game.pk)
        )
        # Every version, read once with the row locked: the one confirmed, the others open.
        versions = game_all_versions(game=game)
        version = next((v for v in versions if v.number == version_number), None)
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
            v for v in versions if v.status in ResultVersion.OPEN_STATUSES and v.pk != version.pk
        ]
        table = table or game_table(game=game)
        version_confirm(game=game, version=version, entrant=entrant, table=table, versions=versions)
        confirm_record(
            game=game,
            version=version,
            entrant=entrant,
            was_disputed=was_disputed,
            others=others,
            reason=reason,
            sides=table.side_seats,
        )
    return version

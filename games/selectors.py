"""Reads of results: games with their versions, submissions and seating, as pages and the API
show them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from games.models import ResultVersion, Submission
from league.models import Event, Game, Seat, SideCredential
from league.permissions import visible_events


def games_with_results(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Game]:
    """Games of events this user may read, with what a result listing shows."""
    return (
        Game.objects.filter(table__rotation__event__in=visible_events(user))
        .select_related("table__rotation__event__club")
        .order_by("-table__rotation__event__date", "table__rotation__number", "table__number")
    )


@dataclass(frozen=True)
class TableLink:
    """A table credential as presented: its game and the side it enters for.

    `side` is None for a game's old per-game link whose side could not be decided; `old` marks
    that old link (or code)."""

    game: Game
    side: int | None
    token: str
    old: bool = False


def _credential_link(credential: SideCredential | None) -> TableLink | None:
    if credential is None:
        return None
    return TableLink(game=credential.game, side=credential.side, token=credential.token)


def _old_link(game: Game | None) -> TableLink | None:
    if game is None:
        return None
    credential = SideCredential.objects.filter(game=game, takes_old_link=True).first()
    side = credential.side if credential else None
    return TableLink(game=game, side=side, token=game.entry_token, old=True)


def table_link_by_token(token: str) -> TableLink | None:
    """The side link (or the game's old link) with this token, if any."""
    if not token or len(token) > 64:
        return None
    credential = (
        SideCredential.objects.select_related("game__table__rotation__event__club")
        .filter(token=token)
        .first()
    )
    if credential is not None:
        return _credential_link(credential)
    return _old_link(
        Game.objects.select_related("table__rotation__event__club").filter(entry_token=token).first()
    )


def table_link_by_code(code: str) -> TableLink | None:
    """The side code (or the game's old code) typed at /play/, if any."""
    code = code.strip().upper()
    if not code or len(code) > 8:
        return None
    credential = SideCredential.objects.select_related("game").filter(code=code).first()
    if credential is not None:
        return _credential_link(credential)
    return _old_link(Game.objects.filter(entry_code=code).first())


def event_of(game: Game) -> Event:
    return game.table.rotation.event


@dataclass(frozen=True)
class SideSeats:
    side: int
    names: list[str]

    @property
    def label(self) -> str:
        return " & ".join(self.names)


def game_seats(game: Game) -> list[Seat]:
    return list(
        Seat.objects.filter(table_id=game.table_id).select_related("player").order_by("seat_number")
    )


def game_sides(game: Game) -> list[SideSeats]:
    """The table's sides in the engine's order (side 0 holds seat 0), with their players."""
    sides: dict[int, list[str]] = {}
    for seat in game_seats(game):
        sides.setdefault(seat.side, []).append(seat.player.name)
    return [SideSeats(side, names) for side, names in sorted(sides.items())]


def game_versions(game: Game) -> QuerySet[ResultVersion]:
    return game.result_versions.select_related("entered_by_user", "confirmed_by_user").order_by(
        "-number"
    )


def game_submissions(game: Game) -> QuerySet[Submission]:
    return game.submissions.select_related("user").order_by("-created_at", "-id")


def current_version(game: Game) -> ResultVersion | None:
    return game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()


def open_versions(game: Game) -> list[ResultVersion]:
    return list(
        game.result_versions.filter(status__in=ResultVersion.OPEN_STATUSES).order_by("number")
    )


def entrant_rounds(game: Game, entrant: str) -> list[dict[str, Any]]:
    """The rounds this entrant has entered so far, latest entry per round, in round order."""
    rounds: dict[int, dict[str, Any]] = {}
    for submission in game.submissions.filter(entrant=entrant).order_by("created_at", "id"):
        for r in submission.report["rounds"]:
            rounds[r["round"]] = {
                "round": r["round"],
                "ended_by": r["ended_by"],
                "scores": [side["score"] for side in r["sides"]],
                "kind": submission.get_kind_display(),
            }
    return [rounds[n] for n in sorted(rounds)]


def entrant_label(game: Game, entrant: str) -> str:
    """Words for an entrant key: the side's players, or the user's name."""
    parts = entrant.split(":")
    if parts[0] == "game" and len(parts) == 4 and parts[2] == "side":
        side = int(parts[3])
        names = next((s.label for s in game_sides(game) if s.side == side), f"side {side}")
        return f"{names} (at the table)"
    if parts[0] == "user":
        user = get_user_model().objects.filter(pk=parts[1]).first()
        return user.get_username() if user else "a former user"
    return entrant


def flagged_submissions(game: Game) -> QuerySet[Submission]:
    """Sheets and logs whose figures differ from the other kind's for the same round."""
    return game.submissions.exclude(differences=[])


def event_games(event: Event) -> QuerySet[Game]:
    return (
        Game.objects.filter(table__rotation__event=event)
        .select_related("table__rotation")
        .order_by("table__rotation__number", "table__number")
    )


def version_summary(version: ResultVersion) -> dict[str, Any]:
    return {
        "number": version.number,
        "status": version.status,
        "totals": version.totals,
        "entered_by": version.entered_by,
        "confirmed_by": version.confirmed_by,
        "reason": version.reason,
        "created_at": version.created_at,
    }


def version_rows(game: Game) -> list[dict[str, Any]]:
    """Every version of the game's result, newest first, in words a page can show."""
    return [
        {
            "version": version,
            "entered_by": entrant_label(game, version.entered_by),
            "confirmed_by": entrant_label(game, version.confirmed_by)
            if version.confirmed_by
            else "",
            "round_scores": [
                (r["round"], [side["score"] for side in r["sides"]], r["ended_by"])
                for r in version.rounds
            ],
        }
        for version in game_versions(game)
    ]

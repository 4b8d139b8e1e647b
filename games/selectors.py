"""Reads of results: games with their versions, submissions and seating, as pages and the API
show them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet, Sum

from games.models import ResultVersion, RoundResult, Submission
from league.models import Event, Game, Rotation, Seat
from league.permissions import visible_events


def games_with_results(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Game]:
    """Games of events this user may read, with what a result listing shows."""
    return (
        Game.objects.filter(table__rotation__event__in=visible_events(user))
        .select_related("table__rotation__event__club")
        .order_by("-table__rotation__event__date", "table__rotation__number", "table__number")
    )


def game_by_token(*, token: str) -> Game | None:
    return (
        Game.objects.select_related("table__rotation__event__club")
        .filter(entry_token=token)
        .first()
    )


def game_by_code(*, code: str) -> Game | None:
    return Game.objects.filter(entry_code=code.strip().upper()).first()


def game_event(*, game: Game) -> Event:
    return game.table.rotation.event


@dataclass(frozen=True)
class SideSeats:
    side: int
    names: list[str]

    @property
    def label(self) -> str:
        return " & ".join(self.names)


def game_seats(*, game: Game) -> list[Seat]:
    return list(
        Seat.objects.filter(table_id=game.table_id).select_related("player").order_by("seat_number")
    )


def game_sides(*, game: Game) -> list[SideSeats]:
    """The table's sides in the engine's order (side 0 holds seat 0), with their players."""
    sides: dict[int, list[str]] = {}
    for seat in game_seats(game=game):
        sides.setdefault(seat.side, []).append(seat.player.name)
    return [SideSeats(side, names) for side, names in sorted(sides.items())]


def game_versions(*, game: Game) -> QuerySet[ResultVersion]:
    return game.result_versions.select_related("entered_by_user", "confirmed_by_user").order_by(
        "-number"
    )


def game_submissions(*, game: Game) -> QuerySet[Submission]:
    return game.submissions.select_related("user").order_by("-created_at", "-id")


def game_current_version(*, game: Game) -> ResultVersion | None:
    return game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()


def game_open_versions(*, game: Game) -> list[ResultVersion]:
    return list(
        game.result_versions.filter(status__in=ResultVersion.OPEN_STATUSES).order_by("number")
    )


def entry_rounds(*, game: Game, entrant: str) -> list[dict[str, Any]]:
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


def entrant_label(*, game: Game, entrant: str) -> str:
    """Words for an entrant key: the side's players, or the user's name."""
    parts = entrant.split(":")
    if parts[0] == "game" and len(parts) == 4 and parts[2] == "side":
        side = int(parts[3])
        names = next((s.label for s in game_sides(game=game) if s.side == side), f"side {side}")
        return f"{names} (at the table)"
    if parts[0] == "user":
        user = get_user_model().objects.filter(pk=parts[1]).first()
        return user.get_username() if user else "a former user"
    return entrant


def game_flagged_submissions(*, game: Game) -> QuerySet[Submission]:
    """Sheets and logs whose figures differ from the other kind's for the same round."""
    return game.submissions.exclude(differences=[])


def event_games(*, event: Event) -> QuerySet[Game]:
    return (
        Game.objects.filter(table__rotation__event=event)
        .select_related("table__rotation")
        .order_by("table__rotation__number", "table__number")
    )


def version_summary(*, version: ResultVersion) -> dict[str, Any]:
    return {
        "number": version.number,
        "status": version.status,
        "totals": version.totals,
        "entered_by": version.entered_by,
        "confirmed_by": version.confirmed_by,
        "reason": version.reason,
        "created_at": version.created_at,
    }


def game_version_rows(*, game: Game) -> list[dict[str, Any]]:
    """Every version of the game's result, newest first, in words a page can show."""
    return [
        {
            "version": version,
            "entered_by": entrant_label(game=game, entrant=version.entered_by),
            "confirmed_by": entrant_label(game=game, entrant=version.confirmed_by)
            if version.confirmed_by
            else "",
            "round_scores": [
                (r["round"], [side["score"] for side in r["sides"]], r["ended_by"])
                for r in version.rounds
            ],
        }
        for version in game_versions(game=game)
    ]


def rotation_points(*, rotation: Rotation) -> dict[int, int]:
    """Player id → their side's game total in this rotation (from confirmed round results)."""
    side_totals = (
        RoundResult.objects.filter(game__table__rotation=rotation)
        .values("game_id", "side")
        .annotate(total=Sum("score"))
    )
    totals = {(row["game_id"], row["side"]): row["total"] for row in side_totals}
    seats = Seat.objects.filter(rotation=rotation).values("player_id", "side", "table__game")
    return {s["player_id"]: totals.get((s["table__game"], s["side"]), 0) for s in seats}

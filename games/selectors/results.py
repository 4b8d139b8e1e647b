"""An event's results for its director: every game's versions, flags and withdrawn entries,
and the History entries that name an entry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet, Sum

from games.models import ResultVersion, RoundResult, Submission
from games.selectors.records import (
    ENDED_BY_WORDS,
    FIGURE_WORDS,
    GameRecord,
    _figure_text,
    entrant_label,
    game_flagged_submissions,
    game_submissions,
    game_versions,
)
from games.selectors.tables import SideSeats, game_sides
from league.models import AuditEntry, Event, Game, Rotation, Seat


def event_games(*, event: Event) -> QuerySet[Game]:
    return (
        Game.objects.filter(table__rotation__event=event)
        .select_related("table__rotation")
        .order_by("table__rotation__number", "table__number")
    )


def game_version_rows(
    *, game: Game, sides: list[SideSeats] | None = None, record: GameRecord | None = None,
    users: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Every version of the game's result, newest first, in words a page can show (`sides`,
    `record`: the game's, `users`: see `entrant_label`, when the caller has read them)."""
    sides = game_sides(game=game) if sides is None else sides
    versions = game_versions(game=game) if record is None else record.versions
    return [
        {
            "version": version,
            "entered_by": entrant_label(
                game=game, entrant=version.entered_by, sides=sides, users=users
            ),
            "confirmed_by": entrant_label(
                game=game, entrant=version.confirmed_by, sides=sides, users=users
            )
            if version.confirmed_by
            else "",
            "round_scores": [
                (
                    r["round"],
                    [side["score"] for side in r["sides"]],
                    ENDED_BY_WORDS.get(r["ended_by"], r["ended_by"]),
                )
                for r in version.rounds
            ],
        }
        for version in versions
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


def _flagged_and_withdrawn(
    game: Game, record: GameRecord | None
) -> tuple[list[Submission], set[int]]:
    """The flagged submissions (`game_flagged_submissions`, oldest first) and the ids of the
    withdrawn ones, from `record` when the request has read it, else two queries at most."""
    if record is not None:
        flagged = [
            s for s in reversed(record.submissions)
            if s.differences != [] and s.withdrawn_at is None
        ]
        return flagged, {s.pk for s in record.submissions if s.withdrawn_at is not None}
    flagged = list(game_flagged_submissions(game=game))
    withdrawn = (
        set(game.submissions.filter(withdrawn_at__isnull=False).values_list("pk", flat=True))
        if flagged
        else set()
    )
    return flagged, withdrawn


def game_flag_lines(
    *, game: Game, sides: list[SideSeats] | None = None, record: GameRecord | None = None
) -> list[str]:
    """Where a sheet and a move log of the same round disagree, one sentence each (`sides`,
    `record`: the game's, when the caller has read them)."""
    words = dict(FIGURE_WORDS) | {"ended_by": "How the round ended"}
    labels = {s.side: s.label for s in (game_sides(game=game) if sides is None else sides)}
    lines = []
    flagged, withdrawn = _flagged_and_withdrawn(game, record)
    for submission in flagged:
        this = submission.get_kind_display().lower()
        other = "move log" if submission.kind == Submission.Kind.SHEET else "score sheet"
        for diff in submission.differences:
            if diff.get("other_submission") in withdrawn:
                continue
            parts = []
            for f in diff["fields"]:
                who = f"{labels.get(f['side'], '')}: " if f["side"] is not None else ""
                name = words.get(f["field"], f["field"]).lower()
                a = ENDED_BY_WORDS.get(str(f["this"]), _figure_text(f["field"], f["this"]))
                b = ENDED_BY_WORDS.get(str(f["other"]), _figure_text(f["field"], f["other"]))
                parts.append(f"{who}{name} {a} in the {this}, {b} in the {other}")
            lines.append(f"Round {diff['round']}: " + "; ".join(parts) + ".")
    return lines


def event_result_rows(*, event: Event) -> list[dict[str, Any]]:
    """The director's results list: each game with its sides, status and current totals (the
    confirmed version's, else the newest entered one's)."""
    games = list(
        event_games(event=event).prefetch_related("table__seats__player", "result_versions")
    )
    rows = []
    for game in games:
        sides: dict[int, list[str]] = {}
        for seat in sorted(game.table.seats.all(), key=lambda s: s.seat_number):
            sides.setdefault(seat.side, []).append(seat.player.name)
        versions = sorted(game.result_versions.all(), key=lambda v: v.number)
        current = next((v for v in versions if v.status == ResultVersion.Status.CONFIRMED), None)
        shown = current or next(
            (v for v in reversed(versions) if v.status in ResultVersion.OPEN_STATUSES), None
        )
        rows.append(
            {
                "game": game,
                "sides": [" & ".join(names) for _, names in sorted(sides.items())],
                "totals": shown.totals if shown else [],
                "totals_confirmed": current is not None,
            }
        )
    return rows


def _open_for_changes(game: Game) -> bool:
    return (
        game.status != Game.Status.CONFIRMED
        and game.table.rotation.event.status != Event.Status.FINISHED
    )


def submission_newer_entry(*, submission: Submission) -> Submission | None:
    """A later entry (not withdrawn) by the same entrant of a round this one covers: it is the
    one that counts for that round."""
    rounds = {r["round"] for r in submission.report["rounds"]}
    later = (
        submission.game.submissions.filter(
            entrant=submission.entrant,
            withdrawn_at__isnull=True,
            created_at__gte=submission.created_at,
        )
        .exclude(pk=submission.pk)
        .order_by("created_at", "id")
    )
    for other in later:
        newer = (other.created_at, other.pk) > (submission.created_at, submission.pk)
        if newer and rounds & {r["round"] for r in other.report["rounds"]}:
            return other
    return None


def submission_withdrawable(*, submission: Submission) -> bool:
    """Whether a director may withdraw this entry now: not withdrawn, the result not confirmed,
    the event not finished."""
    return submission.withdrawn_at is None and _open_for_changes(submission.game)


def submission_restorable(*, submission: Submission) -> bool:
    """Whether a director may restore this withdrawn entry now (no newer entry of its rounds
    by the same entrant, the result not confirmed, the event not finished)."""
    return (
        submission.withdrawn_at is not None
        and _open_for_changes(submission.game)
        and submission_newer_entry(submission=submission) is None
    )


def game_submission_rows(*, game: Game) -> list[dict[str, Any]]:
    """Everything entered for the game, newest first, as the director's page lists it: who
    entered it (in words), whether it was withdrawn (by whom, when) and what may be done now."""
    rows = []
    for submission in game_submissions(game=game).select_related("withdrawn_by"):
        submission.game = game
        rows.append(
            {
                "submission": submission,
                "entered_by": entrant_label(game=game, entrant=submission.entrant),
                "withdrawn_by": submission.withdrawn_by.get_username()
                if submission.withdrawn_by
                else "",
                "can_withdraw": submission_withdrawable(submission=submission),
                "can_restore": submission_restorable(submission=submission),
            }
        )
    return rows


def audit_entry_submission(*, entry: AuditEntry) -> Submission | None:
    """The submission a History line is about (None when it is gone), with its game's event."""
    submission = Submission.objects.filter(pk=entry.data.get("submission_id")).first()
    if submission is not None:
        submission.game = Game.objects.select_related("table__rotation__event").get(
            pk=submission.game_id
        )
    return submission

"""A game's record: its result versions and entries (submissions), as the table page and the
API read them once per request, and the words of their figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import QuerySet

from core.compiled_query import CompiledQuery
from games.models import ResultVersion, Submission
from games.selectors.tables import SideSeats, game_sides
from handfoot.rules import ENTERED_PARTS, PartKind
from league.models import Game


def game_versions(*, game: Game) -> QuerySet[ResultVersion]:
    return game.result_versions.select_related("entered_by_user", "confirmed_by_user").order_by(
        "-number"
    )


def game_submissions(*, game: Game) -> QuerySet[Submission]:
    return game.submissions.select_related("user").order_by("-created_at", "-id")


@dataclass(frozen=True)
class GameRecord:
    """What a request reads of a game's result, once (`game_record`), and passes to the reads
    below (`record=`) instead of each asking the database again: every result version, newest
    first, with the users who entered and confirmed them, and every submission, newest first,
    without its document (a move log is tens of KB)."""

    versions: list[ResultVersion]
    submissions: list[Submission]

    @property
    def users(self) -> dict[str, User]:
        """The users the versions name, by entrant key (`user:<pk>`)."""
        users = {}
        for version in self.versions:
            for user in (version.entered_by_user, version.confirmed_by_user):
                if user is not None:
                    users[f"user:{user.pk}"] = user
        return users


# A table's page and its phones' polls read these at every request.
_GAME_VERSIONS = CompiledQuery(
    lambda game_id: ResultVersion.objects.filter(game_id=game_id)
    .select_related("entered_by_user", "confirmed_by_user").order_by("-number"), game_id=int)
_GAME_SUBMISSIONS = CompiledQuery(
    lambda game_id: Submission.objects.filter(game_id=game_id).defer("document")
    .order_by("-created_at", "-id"), game_id=int)


def _of_game[R: (ResultVersion, Submission)](rows: list[R], game: Game) -> list[R]:
    """Rows read by the game's id, each with the game itself (as its related manager gives
    them: `row.game` asks nothing more)."""
    for row in rows:
        row.game = game
    return rows


def game_record(*, game: Game) -> GameRecord:
    """The game's result versions and submissions: two queries, whatever their number."""
    return GameRecord(
        versions=_of_game(_GAME_VERSIONS.run(game_id=game.pk), game),
        submissions=_of_game(_GAME_SUBMISSIONS.run(game_id=game.pk), game),
    )


def game_versions_record(*, game: Game) -> GameRecord:
    """The game's result versions alone (one query), for reads of its result without its
    submissions (`game_current_version`, the revision): its `submissions` are left empty."""
    return GameRecord(versions=_of_game(_GAME_VERSIONS.run(game_id=game.pk), game), submissions=[])


def submission_exists(*, idempotency_key: str) -> bool:
    return Submission.objects.filter(idempotency_key=idempotency_key).exists()


def game_current_version(*, game: Game, record: GameRecord | None = None) -> ResultVersion | None:
    """The confirmed version (`record`: the game's, when the request has read it)."""
    if record is not None:
        return next(
            (v for v in reversed(record.versions) if v.status == ResultVersion.Status.CONFIRMED),
            None,
        )
    return game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()


def game_open_versions(*, game: Game, record: GameRecord | None = None) -> list[ResultVersion]:
    """The versions still open (entered or disputed), oldest first (`record`: the game's, when
    the request has read it)."""
    if record is not None:
        return [v for v in reversed(record.versions) if v.status in ResultVersion.OPEN_STATUSES]
    return list(
        game.result_versions.filter(status__in=ResultVersion.OPEN_STATUSES).order_by("number")
    )


YES_NO_PARTS = {part.name for part in ENTERED_PARTS if part.kind == PartKind.YES_NO}
# a detail of going out (`only_with`) is compared only where a version says yes
_DETAILS = {part.name for part in ENTERED_PARTS if part.only_with}
ENDED_BY_WORDS = {"went_out": "went out", "stock_out": "stock ran out"}

# The figures of one side of a round, in the order and words of the table's sheet (the parts a
# scorer writes, as declared in `handfoot.rules.ENTERED_PARTS`, then the score).
FIGURE_WORDS = (*((part.name, part.words) for part in ENTERED_PARTS), ("score", "Score"))


def _figure_text(name: str, value: Any) -> str:
    if name in YES_NO_PARTS:
        return "yes" if value else "no"
    return str(value)


_GAME_ENTRIES = CompiledQuery(
    lambda game_id: Submission.objects.filter(game_id=game_id, withdrawn_at__isnull=True)
    .defer("document").order_by("created_at", "id"), game_id=int)


def game_entries(*, game: Game, entrant: str | None = None) -> list[Submission]:
    """The game's submissions that count (not withdrawn; of `entrant` only, when given), oldest
    first, without their documents (a move log is tens of KB): one query."""
    if entrant is None:  # every entry: at each submission
        return _of_game(_GAME_ENTRIES.run(game_id=game.pk), game)
    entries = game.submissions.filter(withdrawn_at__isnull=True, entrant=entrant)
    return list(entries.defer("document").order_by("created_at", "id"))


def entry_latest_rounds(
    *, game: Game, entrant: str, kind: str | None = None, record: GameRecord | None = None,
    submissions: Sequence[Submission] | None = None,
) -> dict[int, tuple[Submission, dict[str, Any]]]:
    """The entrant's entry: per round, their latest submission covering it (of `kind` only, when
    given) with the engine's report of that round. The one rule for "which figures count";
    entries a director withdrew do not. `record`: the game's, when the request has read it;
    `submissions`: the game's, oldest first, when the caller has read them (`game_entries`)."""
    if record is not None:
        submissions = list(reversed(record.submissions))
    chosen: Any
    if submissions is not None:
        chosen = [
            s for s in submissions
            if s.entrant == entrant and s.withdrawn_at is None and kind in (None, s.kind)
        ]
    else:
        # The reports are enough: a move log's document is tens of KB.
        chosen = (game.submissions.filter(entrant=entrant, withdrawn_at__isnull=True)
                  .defer("document").order_by("created_at", "id"))
        if kind is not None:
            chosen = chosen.filter(kind=kind)
    latest: dict[int, tuple[Submission, dict[str, Any]]] = {}
    for submission in chosen:
        for r in submission.report["rounds"]:
            latest[r["round"]] = (submission, r)
    return latest


def entry_rounds(
    *, game: Game, entrant: str,
    latest: dict[int, tuple[Submission, dict[str, Any]]] | None = None,
) -> list[dict[str, Any]]:
    """The rounds this entrant has entered so far (`entry_latest_rounds`, or `latest` when the
    caller has read it), in round order, as the table page lists them (with each side's
    figures, for "replace round N")."""
    latest = entry_latest_rounds(game=game, entrant=entrant) if latest is None else latest
    return [
        {
            "round": number,
            "ended_by": ENDED_BY_WORDS.get(r["ended_by"], r["ended_by"]),
            "scores": [side["score"] for side in r["sides"]],
            "sides": r["sides"],
            "kind": submission.get_kind_display(),
        }
        for number, (submission, r) in sorted(latest.items())
    ]


def game_correction_base(*, game: Game) -> ResultVersion | None:
    """The version a correction starts from: the confirmed one, else the newest."""
    return game_current_version(game=game) or game.result_versions.order_by("-number").first()


def round_comparison(
    *, sides: list[SideSeats], versions: list[tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Rows comparing one round as two (or more) versions have it: per side and figure, each
    version's value and whether they differ. `versions` are (label, round report) pairs."""
    rows = []
    for side in sides:
        for name, words in FIGURE_WORDS:
            values = [
                r["sides"][side.side].get(name) if side.side < len(r["sides"]) else None
                for _, r in versions
            ]
            if name in _DETAILS and not any(values):
                continue
            rows.append(
                {
                    "side": side,
                    "label": words,
                    "values": [_figure_text(name, v) for v in values],
                    "differs": len(set(map(str, values))) > 1,
                }
            )
    ended = [ENDED_BY_WORDS.get(r["ended_by"], r["ended_by"]) for _, r in versions]
    rows.append(
        {"side": None, "label": "The round ended", "values": ended, "differs": len(set(ended)) > 1}
    )
    return rows


def dispute_comparison(
    *, game: Game, sides: list[SideSeats] | None = None, record: GameRecord | None = None,
    users: Mapping[str, Any] | None = None,
) -> dict[str, Any] | None:
    """The disputed versions side by side: per round, whether and where their figures differ
    (`sides`, `record`: the game's, `users`: see `entrant_label`, when the caller has read
    them)."""
    disputed = [
        v for v in game_open_versions(game=game, record=record)
        if v.status == ResultVersion.Status.DISPUTED
    ]
    if len(disputed) < 2:
        return None
    disputed = disputed[-2:]
    sides = game_sides(game=game) if sides is None else sides
    by_round = [{r["round"]: r for r in v.rounds} for v in disputed]
    rounds = []
    for number in sorted(set(by_round[0]) & set(by_round[1])):
        pair = [(str(v.number), of[number]) for v, of in zip(disputed, by_round, strict=True)]
        rows = round_comparison(sides=sides, versions=pair)
        rounds.append(
            {
                "round": number,
                "rows": rows,
                "differs": any(r["differs"] for r in rows),
                "scores": [[s["score"] for s in r["sides"]] for _, r in pair],
            }
        )
    return {
        "versions": [
            {
                "version": v,
                "entered_by": entrant_label(
                    game=game, entrant=v.entered_by, sides=sides, users=users
                ),
            }
            for v in disputed
        ],
        "rounds": rounds,
        "sides": sides,
        "differing": [r["round"] for r in rounds if r["differs"]],
    }


def entrant_label(
    *, game: Game, entrant: str, sides: list[SideSeats] | None = None,
    users: Mapping[str, Any] | None = None,
) -> str:
    """Words for an entrant key: the side's players, or the user's name (`sides`: the game's,
    `users`: users by entrant key, e.g. `GameRecord.users`, when the caller has read them)."""
    parts = entrant.split(":")
    if parts[0] == "game" and len(parts) == 4 and parts[2] == "side":
        side = int(parts[3])
        sides = game_sides(game=game) if sides is None else sides
        names = next((s.label for s in sides if s.side == side), "")
        return f"Side {side + 1}" + (f" ({names})" if names else "")
    if parts[0] == "user":
        if users is not None and entrant in users:
            return str(users[entrant].get_username())
        user = get_user_model().objects.filter(pk=parts[1]).first()
        return user.get_username() if user else "Former player"
    return entrant


def game_flagged_submissions(*, game: Game) -> QuerySet[Submission]:
    """Sheets and logs whose figures differ from the other kind's for the same round (neither
    of them withdrawn)."""
    return game.submissions.exclude(differences=[]).filter(withdrawn_at__isnull=True)

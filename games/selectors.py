"""Reads of results: games with their versions, submissions and seating, as pages and the API
show them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet, Sum
from django.utils import timezone

from core.compiled_query import CompiledQuery
from core.errors import Invalid
from games.errors import Code, refusal
from games.models import ResultVersion, RoundResult, Submission
from handfoot.errors import EngineError
from handfoot.rules import ENTERED_PARTS, PartKind, RuleSet, rules_from_spec
from league.models import AuditEntry, Event, Game, Rotation, Seat, SideCredential
from league.permissions import visible_events
from league.services.credentials import code_normalise


def games_with_results(*, user: User | AnonymousUser) -> QuerySet[Game]:
    """Games of events this user may read, with what a result listing shows."""
    return (
        Game.objects.filter(table__rotation__event__in=visible_events(user))
        .select_related("table__rotation__event__club")
        .order_by("-table__rotation__event__date", "table__rotation__number", "table__number")
    )


_PUBLIC_GAME = CompiledQuery(
    lambda game_id: games_with_results(user=AnonymousUser()).filter(pk=game_id), game_id=int)


def game_with_results(*, user: User | AnonymousUser, game_id: int) -> Game | None:
    """One game of `games_with_results`, or None. A table's phone (not signed in) polls its
    result every few seconds: its query is built once per process."""
    if user.is_authenticated:
        return games_with_results(user=user).filter(pk=game_id).first()
    return next(iter(_PUBLIC_GAME.run(game_id=game_id)), None)


@dataclass(frozen=True)
class TableLink:
    """A side's table credential as presented: its game and the side it enters for."""

    game: Game
    side: int
    token: str


def _credential_link(credential: SideCredential | None) -> TableLink | None:
    if credential is None:
        return None
    return TableLink(game=credential.game, side=credential.side, token=credential.token)


# Every request from a table's phone starts here (its page, each entry, each poll).
_CREDENTIAL_BY_TOKEN = CompiledQuery(
    lambda token: SideCredential.objects.select_related("game__table__rotation__event__club")
    .filter(token=token).order_by("pk")[:1], token=str)


def table_link_by_token(*, token: str) -> TableLink | None:
    """The side link with this token, if any."""
    if not token or len(token) > 64:
        return None
    return _credential_link(next(iter(_CREDENTIAL_BY_TOKEN.run(token=token)), None))


def table_link_by_code(*, code: str) -> TableLink | None:
    """The side code typed at /play/, if any: as printed, typed in small letters, with dashes
    or spaces (`league.services.credentials.code_normalise`)."""
    cleaned = code_normalise(code)
    if cleaned is None:
        return None
    return _credential_link(
        SideCredential.objects.select_related("game").filter(code=cleaned).first()
    )


def game_event(*, game: Game) -> Event:
    return game.table.rotation.event


@dataclass(frozen=True)
class SideSeats:
    side: int
    names: list[str]

    @property
    def label(self) -> str:
        return " & ".join(self.names)


_TABLE_SEATS = CompiledQuery(
    lambda table_id: Seat.objects.filter(table_id=table_id)
    .select_related("player", "substitute_for").order_by("seat_number"), table_id=int)


def game_seats(*, game: Game) -> list[Seat]:
    """The game's seats with their players, in seat order (one query; a request that needs them
    more than once reads `game_table` once and passes it on)."""
    return _TABLE_SEATS.run(table_id=game.table_id)


def seats_sides(seats: list[Seat] | tuple[Seat, ...], *, shown: bool = False) -> list[SideSeats]:
    """Seats (in seat order) as the table's sides in the engine's order, with their players:
    their real names, or (`shown`) their names as each chose to show them in public."""
    sides: dict[int, list[str]] = {}
    for seat in seats:
        sides.setdefault(seat.side, []).append(
            seat.player.shown_name if shown else seat.player.name)
    return [SideSeats(side, names) for side, names in sorted(sides.items())]


def game_sides(*, game: Game) -> list[SideSeats]:
    """The table's sides in the engine's order (side 0 holds seat 0), with their players' real
    names (the director's room, the table's own page, history)."""
    return seats_sides(game_seats(game=game))


def game_sides_shown(*, game: Game) -> list[SideSeats]:
    """`game_sides` with the names as each player chose to show them (`Player.shown_name`):
    what public pages (the replay) and the public API show."""
    return seats_sides(game_seats(game=game), shown=True)


@dataclass(frozen=True)
class GameTable:
    """This game's table, read once per request (`game_table`) and passed down through entry,
    intake, the engine and projection: its seats with their players, its sides and the event's
    rule set, parsed. The fields besides `seats` and `event` are what the engine needs (a
    table of the spreadsheet import has only those)."""

    rules: RuleSet
    rules_spec: Any
    first_dealer: int = 0
    players: list[str] = field(default_factory=list)  # slugs in seat order
    player_ids: list[int] = field(default_factory=list)
    sides: int = 2
    seats: tuple[Seat, ...] = ()
    event: Event | None = None

    @property
    def side_seats(self) -> list[SideSeats]:
        """The sides with their players' names (side 0 holds seat 0)."""
        return seats_sides(self.seats)

    @property
    def seat_names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]


def event_rules(*, event: Event) -> RuleSet:
    """The event's rule set, parsed (refused when the stored spec is not valid)."""
    try:
        return rules_from_spec(event.rules_spec)
    except EngineError as err:
        raise refusal(Invalid, Code.BAD_RULES, reason=err.message) from None


def game_table(*, game: Game) -> GameTable:
    """The game's table: one query for its seats and one parse of the event's rules."""
    seats = tuple(game_seats(game=game))
    event = game.table.rotation.event
    return GameTable(
        rules=event_rules(event=event),
        rules_spec=event.rules_spec,
        first_dealer=game.first_dealer,
        players=[s.player.slug for s in seats],
        player_ids=[s.player_id for s in seats],
        sides=len({s.side for s in seats}) or 2,
        seats=seats,
        event=event,
    )


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


# --- a player disputes a confirmed result (games.services.disputes) ---------------------------

DISPUTE_ACTION = "result_dispute"


def dispute_open_until(*, version: ResultVersion | None) -> datetime | None:
    """Until when the players may dispute this confirmed version: the result mail's promise
    (confirmation + settings.MAIL_DISPUTE_HOURS), whether or not the night still runs. None for
    no confirmed version."""
    if version is None or version.confirmed_at is None:
        return None
    return version.confirmed_at + timedelta(hours=settings.MAIL_DISPUTE_HOURS)


def dispute_open(*, version: ResultVersion | None, now: datetime | None = None) -> bool:
    """Whether a player may still dispute this confirmed version."""
    until = dispute_open_until(version=version)
    return until is not None and (now or timezone.now()) < until


def game_disputes(*, game: Game, version: ResultVersion | None = None) -> list[AuditEntry]:
    """The players' disputes of the game's confirmed result (`version`: of that version only),
    oldest first."""
    entries = AuditEntry.objects.filter(
        event_id=game.table.rotation.event_id, action=DISPUTE_ACTION, data__game_id=game.pk
    ).order_by("created_at", "pk")
    if version is not None:
        entries = entries.filter(data__version=version.number)
    return list(entries)


def event_open_disputes(*, event: Event) -> list[dict[str, Any]]:
    """The director's list: each player's dispute of a confirmed result that still counts (no
    correction since), oldest first, with its game and words."""
    entries = list(
        AuditEntry.objects.filter(event=event, action=DISPUTE_ACTION)
        .select_related("user")
        .order_by("created_at", "pk")
    )
    games = {
        g.pk: g
        for g in event_games(event=event).filter(
            pk__in=[e.data.get("game_id") for e in entries]
        )
    }
    current = {
        v.game_id: v.number
        for v in ResultVersion.objects.filter(
            game_id__in=games, status=ResultVersion.Status.CONFIRMED
        )
    }
    rows = []
    for entry in entries:
        game = games.get(entry.data.get("game_id"))
        if game is None or current.get(game.pk) != entry.data.get("version"):
            continue  # corrected (or withdrawn) since: the director has answered it
        who = str(entry.data.get("who", "")).removesuffix(", by its table link")
        if not who and entry.user is not None:
            who = entry.user.get_full_name() or entry.user.get_username()
        rows.append({"game": game, "entry": entry, "who": who or "A player",
                     "reason": entry.data.get("reason", "")})
    return rows

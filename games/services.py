"""Writes of results: intake of score sheets and move logs, confirmation, corrections, projection.

How a game's result moves (league.md "Results"):

- Every score sheet or move log is checked by the engine and kept as a `Submission` of its
  entrant ("game:<id>:side:<n>" at the table, "user:<id>" for a signed-in scorer or director).
- An entrant's submissions make up their *entry*: per round, their latest submission covering it.
  Once an entry covers every round of the rule set it becomes a `ResultVersion`: *entered*.
- A complete entry of someone else with the same figures (or pressing "confirm" on the figures
  shown) *confirms* it. Different figures make both versions *disputed*; a director resolves that
  by confirming one, or by entering the right figures with a reason (a correction).
- A director may correct a confirmed result with a reason; earlier versions are kept as
  *superseded*. `result_project` copies the confirmed version into `RoundResult` and
  `SeatRoundFacts` and, once committed, asks the analytics to recompute the event.

Documents: a document naming no `rules` is played under the event's rules (filled in); one naming
other rules is refused. A move log's `seats` are the players' slugs in seat order. A sheet has one
entry per side of the table; its `players` is filled in from the table when absent.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone

from games.engine.checking import check_document, document_kind
from games.engine.errors import EngineError
from games.engine.formats import LOG_FORMAT, SHEET_FORMAT
from games.engine.rules import RuleSet, rules_from_spec
from games.engine.sheets import SIDE_NUMBER_FIELDS
from games.models import ResultVersion, RoundResult, SeatRoundFacts, Submission
from league.models import Event, Game, Seat

# The figures two entries must agree on, per side of a round (plus the round's `ended_by`).
SIDE_FIGURES = ("score", *SIDE_NUMBER_FIELDS, "went_out")


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


@dataclass(frozen=True)
class Entrant:
    """Who enters or confirms: a side at the table, or a signed-in user."""

    key: str
    user: AbstractBaseUser | None = None
    via: str = Submission.Via.ACCOUNT

    @classmethod
    def for_side(cls, game: Game, side: int) -> Entrant:
        return cls(key=f"game:{game.pk}:side:{side}", via=Submission.Via.TABLE_LINK)

    @classmethod
    def for_user(cls, user: AbstractBaseUser, via: str = Submission.Via.ACCOUNT) -> Entrant:
        return cls(key=f"user:{user.pk}", user=user, via=via)


@dataclass
class GameTable:
    """What the database knows about a game's table, in the engine's terms."""

    rules: RuleSet
    rules_spec: Any
    first_dealer: int = 0
    players: list[str] = field(default_factory=list)  # slugs in seat order
    player_ids: list[int] = field(default_factory=list)
    sides: int = 2


def table_link_check(*, game: Game) -> None:
    """Table links take results only while their event runs."""
    event = game.table.rotation.event
    if event.status != Event.Status.RUNNING:
        raise ResultClosed(
            "EVENT_NOT_RUNNING",
            f"Table links take results only while the event is running; {event.name} is "
            f"{event.get_status_display().lower()}. Ask the director.",
        )


def table_entrant(*, game: Game, side: Any) -> Entrant:
    """A side entering through the table link: only while the event runs, only a real side."""
    table_link_check(game=game)
    sides = sorted(set(Seat.objects.filter(table_id=game.table_id).values_list("side", flat=True)))
    if isinstance(side, bool) or side not in sides:
        raise ResultRefused(
            "BAD_SIDE", f"Say which side you are: one of {', '.join(map(str, sides))}."
        )
    return Entrant.for_side(game, side)


def seated_side(*, game: Game, user: Any) -> int | None:
    """The side a signed-in player sits on in this game (None if they do not play in it)."""
    if not getattr(user, "is_authenticated", False):
        return None
    seat = Seat.objects.filter(table_id=game.table_id, player__user=user).first()
    return seat.side if seat else None


# --- the table and the documents ---------------------------------------------------------------


def game_rules(event: Event) -> RuleSet:
    try:
        return rules_from_spec(event.rules_spec)
    except EngineError as err:
        raise ResultRefused(
            "BAD_RULES", f"The event's own rule set is not valid: {err.message}"
        ) from None


def game_table(game: Game) -> GameTable:
    seats = list(Seat.objects.filter(table_id=game.table_id).select_related("player"))
    seats.sort(key=lambda s: s.seat_number)
    event = game.table.rotation.event
    return GameTable(
        rules=game_rules(event),
        rules_spec=event.rules_spec,
        first_dealer=game.first_dealer,
        players=[s.player.slug for s in seats],
        player_ids=[s.player_id for s in seats],
        sides=len({s.side for s in seats}) or 2,
    )


def _rules_match(document: dict[str, Any], table: GameTable) -> None:
    try:
        named = rules_from_spec(document["rules"])
    except EngineError as err:
        raise ResultRefused(str(err.code), err.message) from None
    if named != table.rules:
        raise ResultRefused(
            "RULES_MISMATCH",
            f"This game is played under the event's rules ({json.dumps(table.rules_spec)}); the "
            f"{document_kind(document)} names other rules ({json.dumps(document['rules'])}). "
            "Leave `rules` out to use the event's.",
        )


def _log_sides(document: dict[str, Any]) -> int | None:
    seats = document.get("seats")
    if not isinstance(seats, list):
        return None
    play = document.get("play") or ("partnerships" if len(seats) in (4, 6) else "individual")
    if play == "individual":
        return len(seats)
    sides = document.get("sides", 2)
    return sides if isinstance(sides, int) else None


def _prepare_log(document: dict[str, Any], table: GameTable) -> None:
    if document.get("seats") != table.players:
        raise ResultRefused(
            "SEATS_MISMATCH",
            "The move log's seats must be this table's players in seat order, by their "
            f"identifiers: {', '.join(table.players)}.",
            {"expected": table.players, "got": document.get("seats")},
        )
    if len(table.players) == 6 and "sides" not in document and "play" not in document:
        document["sides"] = table.sides
    rounds = document.get("rounds")
    first = rounds[0] if isinstance(rounds, list) and rounds else None
    if (
        isinstance(first, dict)
        and first.get("round") == 1
        and first.get("dealer") != table.first_dealer
    ):
        raise ResultRefused(
            "DEALER_MISMATCH",
            f"Seat {table.first_dealer} deals round 1 of this game; the move log says seat "
            f"{first.get('dealer')!r}.",
        )
    if _log_sides(document) != table.sides:
        raise ResultRefused(
            "SIDES_MISMATCH",
            f"This table plays as {table.sides} sides; the move log's `play`/`sides` say otherwise.",
        )


def _prepare_sheet(document: dict[str, Any], table: GameTable) -> None:
    sides = document.get("sides")
    if isinstance(sides, list) and len(sides) != table.sides:
        raise ResultRefused(
            "SIDES_MISMATCH",
            f"This table plays as {table.sides} sides, so the sheet needs {table.sides} sides "
            f"(in seat order); it has {len(sides)}.",
        )
    document.setdefault("players", len(table.players))
    if document["players"] != len(table.players):
        raise ResultRefused(
            "PLAYERS_MISMATCH",
            f"{len(table.players)} players sit at this table; the sheet says {document['players']!r}.",
        )
    round_number = document.get("round")
    if isinstance(round_number, int) and not 1 <= round_number <= table.rules.rounds:
        raise ResultRefused(
            "BAD_ROUND",
            f"A game under these rules has rounds 1 to {table.rules.rounds}; the sheet is for "
            f"round {round_number}.",
        )


def prepared_document(document: Any, table: GameTable) -> dict[str, Any]:
    """A copy of the document with the event's rules filled in, checked against the table."""
    if not isinstance(document, dict):
        raise ResultRefused(
            "BAD_FORMAT", "A score sheet or move log must be a JSON object with a `format` field."
        )
    document = dict(document)
    if document.get("format") not in (LOG_FORMAT, SHEET_FORMAT):
        checked_report(document)  # refuses with the engine's BAD_FORMAT message
    if document.get("rules") is None:
        document["rules"] = table.rules_spec
    else:
        _rules_match(document, table)
    if document_kind(document) == "sheet":
        _prepare_sheet(document, table)
    else:
        _prepare_log(document, table)
    return document


def checked_report(document: dict[str, Any]) -> dict[str, Any]:
    """The engine's report on a valid document; refuses an invalid one with the engine's error."""
    report = check_document(document).to_dict()
    error = report["error"]
    if not report["valid"]:
        where = ""
        if report["kind"] == "log" and error.get("round") is not None:
            where = f" (round {error['round']}"
            where += f", event {error['event']})" if error.get("event") is not None else ")"
        raise ResultRefused(error["code"], f"{error['message']}{where}", error)
    if not report["rounds"]:
        raise ResultRefused("NO_ROUNDS", "The move log holds no rounds yet.")
    figures_in_range_check(report)
    return report


def _column_ranges(model: type) -> dict[str, tuple[int, int]]:
    """The range of each integer column of `model` (the same on every database we run on)."""
    ranges = BaseDatabaseOperations.integer_field_ranges
    return {
        f.name: ranges[f.get_internal_type()]
        for f in model._meta.concrete_fields
        if f.get_internal_type() in ranges and not f.is_relation
    }


def _out_of_range(
    figures: dict[str, Any], ranges: dict[str, tuple[int, int]]
) -> tuple[str, int, tuple[int, int]] | None:
    # The figures as sent before the score worked out from them.
    for name in sorted(figures, key=lambda k: k == "score"):
        value = figures[name]
        low, high = ranges.get(name, (None, None))
        if isinstance(value, int) and low is not None and not low <= value <= high:
            return name, value, (low, high)
    return None


def figures_in_range_check(report: dict[str, Any]) -> None:
    """Refuse (400, naming the figure) a report with any number its column cannot hold, so no
    confirmed result can fail to be stored."""
    side_ranges, seat_ranges = _column_ranges(RoundResult), _column_ranges(SeatRoundFacts)
    for r in report["rounds"]:
        places = [(f"side {i + 1}", side, side_ranges) for i, side in enumerate(r["sides"])]
        places += [(f"seat {seat.get('seat', 0) + 1}", seat, seat_ranges)
                   for seat in r.get("seats") or []]
        for where, figures, ranges in places:
            found = _out_of_range(figures, ranges)
            if found:
                name, value, (low, high) = found
                raise ResultRefused(
                    "OUT_OF_RANGE",
                    f"Round {r['round']}, {where}: {name} is {value:,}; it must be from "
                    f"{low:,} to {high:,}.",
                    {"round": r["round"], "where": where, "field": name, "value": value,
                     "min": low, "max": high},
                )


def body_hash(document: Any) -> str:
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


# --- figures -----------------------------------------------------------------------------------


def round_figures(round_report: dict[str, Any]) -> dict[str, Any]:
    """What two entries of one round must agree on."""
    return {
        "ended_by": round_report["ended_by"],
        "sides": [{k: side[k] for k in SIDE_FIGURES} for side in round_report["sides"]],
    }


def round_differences(mine: dict[str, Any], theirs: dict[str, Any]) -> list[dict[str, Any]]:
    """Field-by-field differences of two reports of one round (empty when they agree)."""
    a, b = round_figures(mine), round_figures(theirs)
    found = []
    if a["ended_by"] != b["ended_by"]:
        found.append(
            {"side": None, "field": "ended_by", "this": a["ended_by"], "other": b["ended_by"]}
        )
    for side, (x, y) in enumerate(zip(a["sides"], b["sides"], strict=False)):
        found.extend(
            {"side": side, "field": k, "this": x[k], "other": y[k]}
            for k in SIDE_FIGURES
            if x[k] != y[k]
        )
    return found


def same_figures(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    return [round_figures(r) for r in a] == [round_figures(r) for r in b]


def _totals(rounds: list[dict[str, Any]]) -> list[int]:
    if not rounds:
        return []
    totals = [0] * len(rounds[0]["sides"])
    for r in rounds:
        for i, side in enumerate(r["sides"]):
            totals[i] += side["score"]
    return totals


def _report_rounds(submission: Submission) -> Iterable[dict[str, Any]]:
    for r in submission.report["rounds"]:
        yield {**r, "source": {"submission": submission.pk, "kind": submission.kind}}


def _entry_rounds(game: Game, entrant: str) -> dict[int, dict[str, Any]]:
    """The entrant's entry: per round, their latest submission covering it. Seat facts come from
    their latest move log of that round when its figures agree with the chosen ones."""
    rounds: dict[int, dict[str, Any]] = {}
    logged: dict[int, dict[str, Any]] = {}
    for submission in game.submissions.filter(entrant=entrant).order_by("created_at", "id"):
        for r in _report_rounds(submission):
            rounds[r["round"]] = r
            if submission.kind == Submission.Kind.LOG:
                logged[r["round"]] = r
    for number, r in rounds.items():
        log_round = logged.get(number)
        if not r["seats"] and log_round and not round_differences(r, log_round):
            rounds[number] = {**r, "seats": log_round["seats"]}
    return rounds


# --- intake ------------------------------------------------------------------------------------


def _replayed(key: str, game: Game, digest: str, entrant: Entrant) -> Submission | None:
    """The earlier submission under this idempotency key, if it is the same request."""
    earlier = Submission.objects.filter(idempotency_key=key).first()
    if earlier is None:
        return None
    if earlier.game_id != game.pk or earlier.body_hash != digest or earlier.entrant != entrant.key:
        raise ResultConflict(
            "IDEMPOTENCY_KEY_REUSED",
            "This idempotency key was already used for a different submission; send a new key "
            "with new content.",
        )
    return earlier


def submission_create(
    *, game: Game, document: Any, entrant: Entrant, idempotency_key: str
) -> tuple[Submission, bool]:
    """Check and store one score sheet or move log of a game; returns (submission, created).

    The same key with the same body returns the first submission (created False).
    """
    if not idempotency_key or len(idempotency_key) > 128:
        raise ResultRefused(
            "BAD_IDEMPOTENCY_KEY", "An idempotency key of 1 to 128 characters is needed."
        )
    digest = body_hash(document)
    earlier = _replayed(idempotency_key, game, digest, entrant)
    if earlier is not None:
        return earlier, False
    table = game_table(game)
    document = prepared_document(document, table)
    report = checked_report(document)
    with transaction.atomic():
        # Race: two entries of one game at once (two phones, or a retry) would each build
        # versions from a stale view of the other's; the game row lock serialises them.
        game = Game.objects.select_for_update().get(pk=game.pk)
        earlier = _replayed(idempotency_key, game, digest, entrant)
        if earlier is not None:
            return earlier, False
        if game.status == Game.Status.CONFIRMED:
            raise ResultConflict(
                "ALREADY_CONFIRMED",
                "This game's result is already confirmed; ask the director for a correction.",
            )
        try:
            with transaction.atomic():
                submission = Submission.objects.create(
                    game=game,
                    kind=report["kind"],
                    round_number=document["round"] if report["kind"] == "sheet" else None,
                    document=document,
                    report=report,
                    entrant=entrant.key,
                    user=entrant.user,
                    via=entrant.via,
                    idempotency_key=idempotency_key,
                    body_hash=digest,
                )
        except IntegrityError:
            # The same key committed by a concurrent request for another game: a reuse.
            earlier = _replayed(idempotency_key, game, digest, entrant)
            if earlier is None:
                raise
            return earlier, False
        _flag_differences(submission)
        _entry_update(game, entrant, table.rules.rounds)
    return submission, True


def _flag_differences(submission: Submission) -> None:
    """Compare with the other kind of entry (sheet vs log) of the same rounds, by anyone."""
    other_kind = (
        Submission.Kind.LOG if submission.kind == Submission.Kind.SHEET else Submission.Kind.SHEET
    )
    mine = {r["round"]: r for r in submission.report["rounds"]}
    found = []
    for other in submission.game.submissions.filter(kind=other_kind):
        for r in other.report["rounds"]:
            if r["round"] in mine and (diff := round_differences(mine[r["round"]], r)):
                found.append({"round": r["round"], "other_submission": other.pk, "fields": diff})
    if found:
        submission.differences = found
        submission.save(update_fields=["differences"])


def _next_number(game: Game) -> int:
    last = game.result_versions.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def _entry_update(game: Game, entrant: Entrant, rounds_needed: int) -> None:
    """Turn the entrant's entry into a version once it covers every round, then confirm or
    dispute against the other open versions. Called with the game row locked."""
    entry = _entry_rounds(game, entrant.key)
    if sorted(entry) != list(range(1, rounds_needed + 1)):
        return
    figures = [entry[n] for n in sorted(entry)]
    open_versions = list(game.result_versions.filter(status__in=ResultVersion.OPEN_STATUSES))
    own = [v for v in open_versions if v.entered_by == entrant.key]
    others = [v for v in open_versions if v.entered_by != entrant.key]
    if own and same_figures(own[0].rounds, figures):
        return
    matching = next((v for v in others if same_figures(v.rounds, figures)), None)
    if matching is not None:
        _confirm(game, matching, entrant)
        return
    _supersede(own)
    status = ResultVersion.Status.DISPUTED if others else ResultVersion.Status.ENTERED
    ResultVersion.objects.create(
        game=game,
        number=_next_number(game),
        status=status,
        rounds=figures,
        totals=_totals(figures),
        entered_by=entrant.key,
        entered_by_user=entrant.user,
    )
    if others:
        game.result_versions.filter(pk__in=[v.pk for v in others]).update(
            status=ResultVersion.Status.DISPUTED
        )
    _status_sync(game)


def _supersede(versions: Iterable[ResultVersion]) -> None:
    ids = [v.pk for v in versions]
    if ids:
        ResultVersion.objects.filter(pk__in=ids).update(status=ResultVersion.Status.SUPERSEDED)


def _confirm(game: Game, version: ResultVersion, entrant: Entrant) -> None:
    _supersede(
        v
        for v in game.result_versions.filter(status__in=ResultVersion.OPEN_STATUSES)
        if v.pk != version.pk
    )
    version.status = ResultVersion.Status.CONFIRMED
    version.confirmed_by = entrant.key
    version.confirmed_by_user = entrant.user
    version.confirmed_at = timezone.now()
    version.save(update_fields=["status", "confirmed_by", "confirmed_by_user", "confirmed_at"])
    result_project(game=game)


def result_confirm(*, game: Game, version_number: int, entrant: Entrant) -> ResultVersion:
    """Confirm the figures of an entered (or disputed) version: the same as entering them again.

    A director confirming one version of a dispute resolves it that way.
    """
    with transaction.atomic():
        # Race: a confirmation and a new entry (or a second confirmation) of one game at once.
        game = Game.objects.select_for_update().get(pk=game.pk)
        version = game.result_versions.filter(number=version_number).first()
        if version is None:
            raise ResultRefused(
                "NO_SUCH_VERSION", f"This game has no result version {version_number}."
            )
        if version.status not in ResultVersion.OPEN_STATUSES:
            raise ResultConflict(
                "NOT_AWAITING_CONFIRMATION",
                f"Version {version_number} is {version.get_status_display().lower()}; only entered "
                "or disputed figures can be confirmed.",
            )
        if version.entered_by == entrant.key:
            raise ResultForbidden(
                "SAME_ENTRANT",
                "You entered these figures yourself; the other side or a director must confirm them.",
            )
        _confirm(game, version, entrant)
    return version


def result_revision(game: Game) -> int:
    """The number of the game's newest result version (0 before any): the ETag of its result."""
    return _next_number(game) - 1


def correction_rounds(
    *, game: Game, documents: list[Any], table: GameTable
) -> list[dict[str, Any]]:
    """The checked rounds of a correction's sheets and/or log (later documents win per round)."""
    rounds: dict[int, dict[str, Any]] = {}
    for document in documents:
        report = checked_report(prepared_document(document, table))
        for r in report["rounds"]:
            rounds[r["round"]] = {**r, "source": {"submission": None, "kind": report["kind"]}}
    return [rounds[n] for n in sorted(rounds)]


def result_correct(
    *, game: Game, user: AbstractBaseUser, reason: str, expected_revision: int, documents: list[Any]
) -> ResultVersion:
    """A director's figures for the game, confirmed at once with a reason: corrects a confirmed
    result or resolves a dispute. Rounds the documents leave out keep the figures of the current
    (else the newest) version. Refused when `expected_revision` is not the newest any more."""
    reason = (reason or "").strip()
    if not reason:
        raise ResultRefused("REASON_REQUIRED", "Say why the result is corrected.")
    if not isinstance(documents, list) or not documents:
        raise ResultRefused("NO_FIGURES", "Send the corrected score sheets or a move log.")
    table = game_table(game)
    corrected = correction_rounds(game=game, documents=documents, table=table)
    with transaction.atomic():
        # Race: two directors correcting the same version at once; the lock makes the second
        # see the first's version and be refused as stale instead of silently overwriting it.
        game = Game.objects.select_for_update().get(pk=game.pk)
        if result_revision(game) != expected_revision:
            raise StaleResult(
                "STALE_VERSION",
                f"The result changed since you loaded it (now version {result_revision(game)}, "
                f"you edited version {expected_revision}); reload and correct again.",
            )
        base = _correction_base(game)
        rounds = {r["round"]: r for r in (base.rounds if base else [])}
        rounds.update({r["round"]: r for r in corrected})
        if sorted(rounds) != list(range(1, table.rules.rounds + 1)):
            raise ResultRefused(
                "INCOMPLETE",
                f"A result needs rounds 1 to {table.rules.rounds}; send the missing rounds' sheets.",
            )
        figures = [rounds[n] for n in sorted(rounds)]
        current = game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()
        if current is not None and same_figures(current.rounds, figures):
            raise ResultRefused("NO_CHANGE", "These are the figures already confirmed.")
        _supersede(game.result_versions.exclude(status=ResultVersion.Status.SUPERSEDED))
        version = ResultVersion.objects.create(
            game=game,
            number=_next_number(game),
            status=ResultVersion.Status.CONFIRMED,
            rounds=figures,
            totals=_totals(figures),
            entered_by=Entrant.for_user(user).key,
            entered_by_user=user,
            confirmed_at=timezone.now(),
            reason=reason,
            based_on=base,
        )
        result_project(game=game)
    return version


def _correction_base(game: Game) -> ResultVersion | None:
    current = game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()
    return current or game.result_versions.order_by("-number").first()


# --- projection --------------------------------------------------------------------------------


def _derived_status(game: Game) -> str:
    statuses = set(game.result_versions.values_list("status", flat=True))
    for status in (Game.Status.CONFIRMED, Game.Status.DISPUTED, Game.Status.ENTERED):
        if status in statuses:
            return status
    return Game.Status.PENDING


def _status_sync(game: Game) -> None:
    game.status = _derived_status(game)
    if game.status != Game.Status.PENDING and game.played_at is None:
        game.played_at = timezone.now()
    game.save(update_fields=["status", "played_at"])


def _round_results(game: Game, r: dict[str, Any]) -> list[RoundResult]:
    return [
        RoundResult(
            game=game,
            round_number=r["round"],
            side=side_number,
            score=side["score"],
            clean_books=side["clean_books"],
            dirty_books=side["dirty_books"],
            wild_books=side["wild_books"],
            red_threes=side["red_threes"],
            table_points=side["table_points"],
            held_points=side["held_points"],
            went_out=side["went_out"],
            ended_by=r["ended_by"],
        )
        for side_number, side in enumerate(r["sides"])
    ]


SEAT_FACTS = (
    "turns",
    "foot_turn",
    "pickups",
    "cards_picked_up",
    "melds_started",
    "cards_laid",
    "wilds_in_dirty",
    "black_threes_discarded",
    "cards_held",
    "held_points",
    "first_laydown_turn",
    "red_threes",
)


def _seat_facts(game: Game, r: dict[str, Any], player_ids: list[int]) -> list[SeatRoundFacts]:
    return [
        SeatRoundFacts(
            game=game,
            round_number=r["round"],
            seat_number=seat["seat"],
            player_id=player_ids[seat["seat"]],
            side=seat["side"],
            **{k: seat[k] for k in SEAT_FACTS},
        )
        for seat in r["seats"]
    ]


def result_project(*, game: Game) -> None:
    """Replace the game's `RoundResult` and `SeatRoundFacts` rows by its confirmed version (none
    when it has none), set `Game.status`, and after commit ask for the event's recompute."""
    with transaction.atomic():
        RoundResult.objects.filter(game=game).delete()
        SeatRoundFacts.objects.filter(game=game).delete()
        current = game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).first()
        if current is not None:
            player_ids = game_table(game).player_ids
            RoundResult.objects.bulk_create(
                [row for r in current.rounds for row in _round_results(game, r)]
            )
            SeatRoundFacts.objects.bulk_create(
                [row for r in current.rounds for row in _seat_facts(game, r, player_ids)]
            )
        _status_sync(game)
        event_id = game.table.rotation.event_id
        transaction.on_commit(lambda: _enqueue_recompute(event_id))


def _enqueue_recompute(event_id: int) -> None:
    from analytics.tasks import enqueue_event_recompute_after_commit

    enqueue_event_recompute_after_commit(event_id)

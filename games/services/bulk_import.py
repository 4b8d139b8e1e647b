"""Bulk import of move logs into an event's games (`manage.py import_logs`), in batches.

Each log is one game's move log. Its game is the one named by a top-level "game" hint (its id or
one of its sides' codes), else the event's game whose players sit in the log's `seats` order (by
player slug); among several, the one still waiting for a result. A log is stored exactly as
`intake.submission_create` stores it (its idempotency key is `import:<game>:<sha256 of the
file>`, so a second import of the same file is recognised and changes nothing).

Per batch the reads and writes are a constant number of queries, whatever the batch's size: the
event's games, seats and rules are read (and parsed) once per import; per batch one read of the
batch's idempotency keys (and one of the side codes its hints name), then in one transaction the
batch's games are locked and read for earlier entries, and the batch's `Submission`,
`ResultVersion` and history lines are written with `bulk_create` and the games' status set. A log
for a game that already has entries (or a second log of one game in the batch, or anything other
than a move log) goes through `submission_create` one by one, after the batch's bulk write, so it
confirms or disputes exactly as it would have. An import of a game without entries is *entered*,
never confirmed, so the bulk path projects nothing and announces nothing
(`games.signals.results_changed` is sent by `submission_create` when it confirms).

With `workers` > 1 the work that needs no database (reading each file's JSON, hashing it,
filling it in from its table and the engine's check) runs ahead in a pool of that many
processes, one batch ahead of the writes (`_Prechecks`). Only a log whose game its seats or its
numeric hint name alone is checked ahead; every other one (a side code, seats that several
games share, anything unreadable) is read again here and goes the same way as without a pool,
so the outcome of every log is the same with or without one.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from multiprocessing.pool import AsyncResult, Pool
from typing import Any, cast

import orjson
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import JSONField, Value
from django.db.models.functions import Cast
from django.utils import timezone

from core.errors import Conflict, DomainError
from games import selectors
from games.errors import Code, refusal
from games.models import ResultVersion, Submission
from games.selectors import GameTable
from games.services.documents import (
    document_check,
    document_hash,
    document_prepare,
    rounds_totals,
)
from games.services.entrants import Entrant
from games.services.history import ENTER_ACTION
from games.services.intake import submission_create
from handfoot.checking import parse_document
from handfoot.errors import EngineError
from league.models import AuditEntry, Event, Game, Seat, SideCredential
from league.services.credentials import code_normalise

# On PostgreSQL Django bulk-inserts literal rows as UNNEST of arrays, which psycopg quotes
# element by element in Python: some 15 ms a 40 KB move log. One expression among a row's values
# makes Django write plain VALUES rows instead, whose strings libpq escapes.
_LITERAL_ROWS = Value


def _account(entrant: Entrant) -> User | None:
    # The entrant's user as the models' foreign keys type it (the project's user model is User).
    return cast("User | None", entrant.user)


@dataclass
class LogOutcome:
    """What became of one log: `created` (stored now), else already imported (`ok`) or
    refused (`message` says why, with the error code, for the command line; `words` says it as
    a page does, without codes or identifiers)."""

    name: str
    ok: bool
    created: bool
    message: str
    words: str = ""


class _Refused(Exception):
    def __init__(self, message: str, words: str) -> None:
        super().__init__(message)
        self.words = words


@dataclass
class _Item:
    index: int
    name: str
    raw: bytes
    outcome: LogOutcome | None = None
    game: Game | None = None
    document: dict[str, Any] | None = None  # as read (without its `game` hint)
    prepared: dict[str, Any] | None = None  # filled in from the table (`document_prepare`)
    key: str = ""
    digest: str = ""
    pre: _Prechecked | None = None  # what the pool found ahead (workers > 1)


@dataclass(frozen=True)
class _Prechecked:
    """A log checked ahead in the pool: its game, key and hash, and the engine's verdict (the
    prepared document as JSON text and the report, or why it is refused)."""

    game_id: int
    key: str
    digest: str
    checked: bool = False  # False: imported before (its key is known), so not checked ahead
    refused: str = ""
    prepared_text: str = ""
    report: dict[str, Any] | None = None
    report_text: str = ""


class _EventGames:
    """The event's games with their tables (seats, players, parsed rules), read once."""

    def __init__(self, event: Event) -> None:
        self.event = event
        rules = selectors.event_rules(event=event)
        seats: dict[int, list[Seat]] = {}
        for seat in Seat.objects.filter(table__rotation__event=event).select_related("player"):
            seats.setdefault(seat.table_id, []).append(seat)
        self.games: dict[int, Game] = {}
        self.tables: dict[int, GameTable] = {}
        self.by_seats: dict[tuple[str, ...], list[Game]] = {}
        for game in selectors.event_games(event=event):
            order = tuple(sorted(seats.get(game.table_id, []), key=lambda s: s.seat_number))
            self.games[game.pk] = game
            self.tables[game.pk] = GameTable(
                rules=rules,
                rules_spec=event.rules_spec,
                first_dealer=game.first_dealer,
                players=[s.player.slug for s in order],
                player_ids=[s.player_id for s in order],
                sides=len({s.side for s in order}) or 2,
                seats=order,
                event=event,
            )
            self.by_seats.setdefault(tuple(s.player.slug for s in order), []).append(game)

    def game_for(self, document: dict[str, Any], codes: dict[str, int]) -> Game:
        hint = document.get("game")
        if hint is not None:
            if type(hint) is int:  # not a bool: `true` names no game
                game = self.games.get(hint)
            else:
                code = code_normalise(str(hint))
                game = self.games.get(codes[code]) if code in codes else None
            if game is None:
                raise _Refused(f"the event has no game {hint!r} (the log's `game` hint).",
                               f"This night has no game or table code “{str(hint)[:40]}” "
                               "(the game the file names).")
            return game
        seats = document.get("seats")
        key = _seats_key(seats)
        candidates = self.by_seats.get(key) if key is not None else None
        if not candidates:
            raise _Refused(
                f"no table of {self.event.slug} seats {seats!r} in this order; add a `game` "
                "hint (game id or table code) or check the player identifiers.",
                "No table of this night seats the file's players in this order: add the "
                "table's code to the file as its game, or check the players.",
            )
        waiting = [g for g in candidates if g.status != Game.Status.CONFIRMED]
        if len(candidates) > 1 and len(waiting) != 1:
            raise _Refused(
                f"{len(candidates)} games seat these players in this order; add a `game` hint.",
                f"{len(candidates)} games of this night seat these players in this order: add "
                "the table's code to the file as its game.",
            )
        return waiting[0] if len(candidates) > 1 else candidates[0]


    def engine_view(self) -> _EngineView:
        """What the pool's processes need to check a log ahead: no model instances."""
        return _EngineView(
            tables={pk: replace(table, seats=(), event=None) for pk, table in self.tables.items()},
            only_game={key: games[0].pk for key, games in self.by_seats.items() if len(games) == 1},
            imported=frozenset(
                Submission.objects.filter(
                    game__table__rotation__event=self.event, idempotency_key__startswith="import:"
                ).values_list("idempotency_key", flat=True)
            ),
        )


def _seats_key(seats: Any) -> tuple[str, ...] | None:
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        return None
    return tuple(seats)


@dataclass(frozen=True)
class _EngineView:
    tables: dict[int, GameTable]  # game -> its table without seats or event
    only_game: dict[tuple[str, ...], int]  # seats that one game alone has -> that game
    imported: frozenset[str]  # the keys of the logs imported before (not checked again)


def _done(item: _Item, created: bool, submission: Submission, game: Game) -> None:
    state = "imported" if created else "already imported"
    where = f"rotation {game.table.rotation.number}, table {game.table.number}"
    item.outcome = LogOutcome(
        item.name,
        True,
        created,
        f"{state} as submission {submission.pk}, game {game.pk} is {game.status}",
        f"Imported: {where}." if created else f"Imported before: {where}; nothing changed.",
    )


def _refuse(item: _Item, message: str, words: str | None = None) -> None:
    # A message is "CODE: words" (the engine's or the service's refusal) or words alone.
    code, sep, rest = message.partition(": ")
    plain = rest if sep and re.fullmatch(r"[A-Z_]+", code) else message
    item.outcome = LogOutcome(item.name, False, False, message, words or _capital(plain))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _parse(items: list[_Item]) -> None:
    for item in items:
        if item.pre is not None:
            continue
        try:
            document = parse_document(item.raw)
        except EngineError as err:
            _refuse(item, f"{err.code}: {err.message}")
            continue
        if not isinstance(document, dict):
            _refuse(item, "BAD_FORMAT: a move log is a JSON object.")
            continue
        item.document = document


def _hint_codes(items: list[_Item], event: Event) -> dict[str, int]:
    """The side codes the batch's hints name → their games (one query, none without codes)."""
    codes = {
        code_normalise(str(hint))
        for item in items
        if item.document is not None
        and (hint := item.document.get("game")) is not None
        and type(hint) is not int
    }
    codes.discard(None)
    if not codes:
        return {}
    return dict(
        SideCredential.objects.filter(
            code__in=codes, game__table__rotation__event=event
        ).values_list("code", "game_id")
    )


def _match(items: list[_Item], games: _EventGames, entrant: Entrant) -> None:
    codes = _hint_codes(items, games.event)
    for item in items:
        if item.pre is not None:
            item.game = games.games[item.pre.game_id]
            item.key, item.digest = item.pre.key, item.pre.digest
            continue
        if item.outcome is not None or item.document is None:
            continue
        try:
            item.game = games.game_for(item.document, codes)
        except _Refused as refused:
            _refuse(item, str(refused), refused.words)
            continue
        item.document.pop("game", None)
        item.key = f"import:{item.game.pk}:{hashlib.sha256(item.raw).hexdigest()}"
        item.digest = document_hash(document=item.document)
    live = [item for item in items if item.outcome is None]
    earlier = {
        s.idempotency_key: s
        for s in Submission.objects.filter(idempotency_key__in=[item.key for item in live]).only(
            "pk", "game_id", "idempotency_key", "body_hash", "entrant"
        )
    }
    for item in live:
        found = earlier.get(item.key)
        if found is None:
            continue
        if item.game is None:  # matched before this step
            raise RuntimeError("bulk import: item.game missing")
        if (
            found.game_id != item.game.pk
            or found.body_hash != item.digest
            or found.entrant != entrant.key
        ):
            _refuse(item, _words(refusal(Conflict, Code.IDEMPOTENCY_KEY_REUSED)))
        else:
            _done(item, False, found, item.game)


def _words(refused: DomainError) -> str:
    return f"{refused.code}: {refused.message}"


def _check(item: _Item, table: GameTable) -> dict[str, Any] | None:
    """The engine's report on the log as filled in from the table (kept in `item.prepared`)."""
    if item.pre is not None and item.pre.checked:
        if item.pre.refused:
            _refuse(item, item.pre.refused)
        return item.pre.report
    try:
        item.prepared = document_prepare(document=_document(item), table=table)
        return document_check(document=item.prepared, rules=table.rules)
    except DomainError as refused:
        _refuse(item, _words(refused))
        return None


def _history_line(
    game: Game, submission: Submission, entrant: Entrant, table: GameTable
) -> AuditEntry:
    """What `history.entry_record` writes for a move log entered into a game without entries."""
    user = _account(entrant) if entrant.user is not None and entrant.user.is_authenticated else None
    data: dict[str, Any] = {"game_id": game.pk, "submission_id": submission.pk}
    if user is None:
        label = selectors.entrant_label(game=game, entrant=entrant.key, sides=table.side_seats)
        data["who"] = f"{label}, by its table link"[:120]
    typed = " (typed by the director)" if entrant.director else ""
    where = f"rotation {game.table.rotation.number}, table {game.table.number}"
    return AuditEntry(
        club=table.event.club if table.event else game.table.rotation.event.club,
        event=table.event,
        user=user,
        action=ENTER_ACTION,
        summary=f"Entered a move log at {where}{typed}."[:300],
        data=data,
    )


def _version(
    game: Game, submission: Submission, report: dict[str, Any], entrant: Entrant, rounds: int
) -> ResultVersion | None:
    """The version `intake.entry_rebuild` makes of a game's only entry (None until it covers
    every round); `report` is the submission's."""
    entry = {
        r["round"]: {**r, "source": {"submission": submission.pk, "kind": submission.kind}}
        for r in report["rounds"]
    }
    if sorted(entry) != list(range(1, rounds + 1)):
        return None
    figures = [entry[n] for n in sorted(entry)]
    return ResultVersion(
        game=game,
        number=1,
        status=ResultVersion.Status.ENTERED,
        rounds=figures,
        totals=rounds_totals(figures),
        entered_by=entrant.key,
        entered_by_user=_account(entrant),
    )


def _bulk_store(items: list[_Item], games: _EventGames, entrant: Entrant) -> list[_Item]:
    """Store the batch's logs for games without entries; returns those left for one by one."""
    one_by_one: list[_Item] = []
    fresh: list[tuple[_Item, dict[str, Any]]] = []
    claimed: set[int] = set()
    for item in items:
        if item.outcome is not None:
            continue
        if item.game is None:  # matched before this step
            raise RuntimeError("bulk import: item.game missing")
        if item.game.pk in claimed or item.game.status == Game.Status.CONFIRMED:
            one_by_one.append(item)
            continue
        claimed.add(item.game.pk)
        report = _check(item, games.tables[item.game.pk])
        if report is None:
            claimed.discard(item.game.pk)
        elif report["kind"] != Submission.Kind.LOG:
            one_by_one.append(item)
        else:
            fresh.append((item, report))
    if not fresh:
        return one_by_one
    with transaction.atomic():
        ids = [item.game.pk for item, _ in fresh if item.game is not None]
        # Race: as in `submission_create`, the game rows are locked, then read for entries.
        confirmed = {
            pk
            for pk, status in Game.objects.select_for_update()
            .filter(pk__in=ids)
            .values_list("pk", "status")
            if status == Game.Status.CONFIRMED
        }
        entered = set(Submission.objects.filter(game_id__in=ids).values_list("game_id", flat=True))
        entered |= set(
            ResultVersion.objects.filter(game_id__in=ids).values_list("game_id", flat=True)
        )
        store = []
        for item, report in fresh:
            if item.game is None:  # matched before this step
                raise RuntimeError("bulk import: item.game missing")
            if item.game.pk in entered or item.game.pk in confirmed:
                item.outcome = None
                one_by_one.append(item)
            else:
                store.append((item, report))
        submissions = Submission.objects.bulk_create(
            [
                Submission(
                    game=item.game,
                    kind=report["kind"],
                    round_number=None,
                    document=_stored(item, item.prepared, "prepared_text"),
                    report=_stored(item, report, "report_text"),
                    entrant=entrant.key,
                    user=_account(entrant),
                    via=_LITERAL_ROWS(entrant.via),
                    idempotency_key=item.key,
                    body_hash=item.digest,
                )
                for item, report in store
            ]
        )
        versions = [
            v
            for (item, report), submission in zip(store, submissions, strict=True)
            if item.game is not None
            and (
                v := _version(
                    item.game, submission, report, entrant, games.tables[item.game.pk].rules.rounds
                )
            )
        ]
        ResultVersion.objects.bulk_create(versions)
        versioned = [v.game_id for v in versions]
        now = timezone.now()
        Game.objects.filter(pk__in=versioned).update(status=Game.Status.ENTERED)
        Game.objects.filter(pk__in=versioned, played_at__isnull=True).update(played_at=now)
        for version in versions:
            game = games.games[version.game_id]
            game.status = Game.Status.ENTERED
            game.played_at = game.played_at or now
        AuditEntry.objects.bulk_create(
            [
                _history_line(item.game, submission, entrant, games.tables[item.game.pk])
                for (item, _), submission in zip(store, submissions, strict=True)
                if item.game is not None
            ]
        )
    for (item, _), submission in zip(store, submissions, strict=True):
        if item.game is None:  # matched before this step
            raise RuntimeError("bulk import: item.game missing")
        submission.via = entrant.via  # the value, not the expression it was written with
        _done(item, True, submission, item.game)
    one_by_one.sort(key=lambda item: item.index)
    return one_by_one


def _document(item: _Item) -> dict[str, Any]:
    """The log as read (its `game` hint taken out); read here when the pool checked it ahead."""
    if item.document is None and item.pre is not None:
        item.document = parse_document(item.raw)
        item.document.pop("game", None)
    if item.document is None:  # read (or refused) before this step
        raise RuntimeError("bulk import: item.document missing")
    return item.document


def _stored(item: _Item, value: Any, text_field: str) -> Any:
    """A submission's document or report as stored: when the pool checked the log ahead it wrote
    the JSON text already (`text_field` of what it found), which the database reads as it is."""
    if item.pre is None or not item.pre.checked:
        return value
    return Cast(Value(getattr(item.pre, text_field)), output_field=JSONField())


def _one(item: _Item, games: _EventGames, entrant: Entrant) -> None:
    if item.game is None:  # matched before this step
        raise RuntimeError("bulk import: item.game missing")
    try:
        submission, created = submission_create(
            game=item.game,
            document=_document(item),
            entrant=entrant,
            idempotency_key=item.key,
            table=games.tables[item.game.pk],
        )
    except DomainError as refused:
        _refuse(item, _words(refused))
        return
    item.game.refresh_from_db(fields=["status", "played_at"])
    _done(item, created, submission, item.game)


# --- checked ahead, in a pool of processes --------------------------------------------------

_VIEW: _EngineView | None = None  # a pool process's copy of the event's tables (`_pool_start`)


def _pool_start(view: _EngineView) -> None:
    global _VIEW
    _VIEW = view


def _precheck(raw: bytes) -> _Prechecked | None:
    """In a pool process: the log checked against the one game its seats or numeric hint name
    alone, or None when only the importing process can tell (then it reads the log itself)."""
    if _VIEW is None:
        raise RuntimeError("bulk import: a pool process without its tables")
    try:
        document = parse_document(raw)
    except EngineError:
        return None
    if not isinstance(document, dict):
        return None
    hint = document.pop("game", None)
    seats = _seats_key(document.get("seats"))
    game_id = hint if hint is not None else _VIEW.only_game.get(seats) if seats else None
    if type(game_id) is not int or game_id not in _VIEW.tables:  # not a bool: True is no game
        return None
    key = f"import:{game_id}:{hashlib.sha256(raw).hexdigest()}"
    ahead = _Prechecked(game_id=game_id, key=key, digest=document_hash(document=document))
    if key in _VIEW.imported:
        return ahead
    table = _VIEW.tables[game_id]
    try:
        prepared = document_prepare(document=document, table=table)
        report = document_check(document=prepared, rules=table.rules)
    except DomainError as refused:
        return replace(ahead, checked=True, refused=_words(refused))
    try:
        texts = orjson.dumps(prepared).decode(), orjson.dumps(report).decode()
    except TypeError:  # a whole number beyond 64 bits: the standard library writes it
        return None
    return replace(
        ahead, checked=True, prepared_text=texts[0], report=report, report_text=texts[1]
    )


class _Prechecks:
    """The pool, one batch ahead of the writes: `ahead(batch)` starts a batch's checks,
    `take(batch)` waits for them and gives each item what was found."""

    def __init__(self, games: _EventGames, workers: int) -> None:
        # Forked, not spawned: the processes share the parsed tables and need no Django setup;
        # they never touch the database connection they inherit.
        context = multiprocessing.get_context("fork")
        self.workers = workers
        self.pool: Pool = context.Pool(workers, _pool_start, (games.engine_view(),))
        self.pending: dict[int, AsyncResult[list[_Prechecked | None]]] = {}

    def ahead(self, items: list[_Item]) -> None:
        if items:
            raws = [item.raw for item in items]
            chunk = max(1, len(raws) // (4 * self.workers))
            self.pending[items[0].index] = self.pool.map_async(_precheck, raws, chunk)

    def take(self, items: list[_Item]) -> None:
        if items:
            for item, found in zip(items, self.pending.pop(items[0].index).get(), strict=True):
                item.pre = found

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


def _batches(documents: Iterable[tuple[str, bytes]], size: int) -> Iterator[list[_Item]]:
    it = iter(documents)
    index = 0
    while batch := list(islice(it, size)):
        yield [_Item(index + i, name, raw) for i, (name, raw) in enumerate(batch)]
        index += len(batch)


def logs_import(
    *,
    event: Event,
    documents: Iterable[tuple[str, bytes]],
    entrant: Entrant,
    batch_size: int = 200,
    progress: Callable[[LogOutcome], None] | None = None,
    workers: int = 1,
) -> list[LogOutcome]:
    """Check and store move logs (`documents`: (name, the file's bytes) pairs, read lazily) into
    the event's games, `batch_size` at a time; returns what became of each, in order, and tells
    `progress` of each as its batch is done. A bad log is refused (its outcome says why) and the
    rest imported; a log imported before changes nothing. `workers` > 1: the logs are checked
    ahead in that many processes (the command line's choice; the same outcomes)."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    if not 1 <= workers <= 64:
        raise ValueError("workers must be 1 to 64")
    games = _EventGames(event)
    if workers == 1:
        return _import_batches(_batches(documents, batch_size), games, entrant, progress)
    prechecks = _Prechecks(games, workers)
    try:
        return _import_batches(
            _checked_ahead(_batches(documents, batch_size), prechecks), games, entrant, progress
        )
    finally:
        prechecks.close()


def _checked_ahead(batches: Iterator[list[_Item]], prechecks: _Prechecks) -> Iterator[list[_Item]]:
    """The batches, each with its checks done, the next one's started before it is given."""
    current = next(batches, [])
    prechecks.ahead(current)
    while current:
        following = next(batches, [])
        prechecks.ahead(following)
        prechecks.take(current)
        yield current
        current = following


def _import_batches(
    batches: Iterable[list[_Item]],
    games: _EventGames,
    entrant: Entrant,
    progress: Callable[[LogOutcome], None] | None,
) -> list[LogOutcome]:
    outcomes: list[LogOutcome] = []
    for items in batches:
        _parse(items)
        _match(items, games, entrant)
        try:
            one_by_one = _bulk_store(items, games, entrant)
        except IntegrityError:
            # Race: another import stored one of these keys meanwhile: each log on its own.
            one_by_one = [item for item in items if item.outcome is None or item.outcome.created]
            for item in one_by_one:
                item.outcome = None
        for item in one_by_one:
            _one(item, games, entrant)
        for item in items:
            if item.outcome is None:  # matched before this step
                raise RuntimeError("bulk import: item.outcome missing")
            outcomes.append(item.outcome)
            if progress is not None:
                progress(item.outcome)
    return outcomes


# --- move logs uploaded on the director's page, waiting for their job ------------------------

UPLOAD_SECONDS = 3600
MAX_UPLOAD_FILES = 200


def _upload_key(event: Event, token: str) -> str:
    return f"logs-import:{event.pk}:{token}"


def logs_upload_keep(*, event: Event, files: list[tuple[str, bytes]]) -> str:
    """Keep uploaded move logs for the job that imports them (an hour); returns their token."""
    token = secrets.token_urlsafe(16)
    cache.set(_upload_key(event, token), files, UPLOAD_SECONDS)
    return token


def logs_upload_get(*, event: Event, token: str) -> list[tuple[str, bytes]] | None:
    found = cache.get(_upload_key(event, token)) if token else None
    return [(str(name), bytes(raw)) for name, raw in found] if found is not None else None

"""Bulk import of move logs into an event's games (`manage.py import_logs`), in batches.

Each log is one game's move log. Its game is the one named by a top-level "game" hint (its id or
one of its sides' codes), else the event's game whose players sit in the log's `seats` order (by
player slug); among several, the one still waiting for a result. A log is stored exactly as
`intake.submission_create` stores it (its idempotency key is `import:<game>:<sha256 of the
file>`, so a second import of the same file is recognised and changes nothing).

Per batch the logs go through the intake's own steps (`games.services.intake`), taken over
the batch: one read of the batch's idempotency keys (and one of the side codes its hints name),
the engine's check, then in one transaction the batch's games locked and read for earlier
entries and versions, and the batch's `Submission`, `ResultVersion` and history lines written in
one query each, whatever the batch's size (the event's games, seats and rules are read and
parsed once per import). A second log of one game in the batch is stored after the first, as if
sent after it; a log for a game with entries confirms or disputes exactly as one entered at the
table.

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
from typing import Any

import orjson
from django.core.cache import cache

from core.errors import DomainError
from games import selectors
from games.models import Submission
from games.selectors import GameTable
from games.services.documents import document_check, document_hash, document_prepare
from games.services.entrants import Entrant
from games.services.intake import (
    Incoming,
    incoming_replays,
    incomings_check,
    incomings_store,
)
from handfoot.checking import parse_document
from handfoot.errors import EngineError
from league.models import Event, Game, Seat, SideCredential
from league.services.credentials import code_normalise


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
    document: dict[str, Any] | None = None  # as read (without its `game` hint)
    incoming: Incoming | None = None  # its way through the intake, once its game is known
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


def _done(item: _Item, games: _EventGames) -> None:
    """The outcome of a log the intake settled (the game's status kept for the next batches)."""
    incoming = item.incoming
    if incoming is None:  # matched before this step
        raise RuntimeError("bulk import: item.incoming missing")
    if incoming.refused is not None:
        _refuse(item, _words(incoming.refused))
        return
    submission, game, created = incoming.submission, incoming.game, incoming.created
    if submission is None:  # settled by the intake's steps
        raise RuntimeError("bulk import: neither stored nor refused")
    known = games.games[game.pk]
    known.status, known.played_at = game.status, game.played_at
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


def _match(items: list[_Item], games: _EventGames) -> None:
    """Each log's game, idempotency key and hash, on its way into the intake."""
    codes = _hint_codes(items, games.event)
    for item in items:
        if item.pre is not None:
            game = games.games[item.pre.game_id]
            item.incoming = Incoming(game=game, table=games.tables[game.pk], document=None,
                                     key=item.pre.key, digest=item.pre.digest)
            continue
        if item.outcome is not None or item.document is None:
            continue
        try:
            game = games.game_for(item.document, codes)
        except _Refused as refused:
            _refuse(item, str(refused), refused.words)
            continue
        item.document.pop("game", None)
        item.incoming = Incoming(
            game=game, table=games.tables[game.pk], document=item.document,
            key=f"import:{game.pk}:{hashlib.sha256(item.raw).hexdigest()}",
            digest=document_hash(document=item.document),
        )


def _words(refused: DomainError) -> str:
    return f"{refused.code}: {refused.message}"


def _checked_ahead_taken(item: _Item) -> None:
    """What the pool found for a log not imported before: the engine's verdict on a move log,
    else (a log imported before, or not a move log) the log read here to be checked here."""
    incoming, pre = item.incoming, item.pre
    if incoming is None or incoming.settled:
        return
    if pre is not None and pre.checked and pre.refused:
        _refuse(item, pre.refused)
        item.incoming = None
    elif pre is not None and pre.report is not None and pre.report["kind"] == Submission.Kind.LOG:
        incoming.report, incoming.texts = pre.report, (pre.prepared_text, pre.report_text)
    else:
        incoming.document = _document(item)


def _document(item: _Item) -> dict[str, Any]:
    """The log as read (its `game` hint taken out); read here when the pool checked it ahead."""
    if item.document is None and item.pre is not None:
        item.document = parse_document(item.raw)
        item.document.pop("game", None)
    if item.document is None:  # read (or refused) before this step
        raise RuntimeError("bulk import: item.document missing")
    return item.document


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
        _match(items, games)
        incoming_replays(batch=[i.incoming for i in items if i.incoming], entrant=entrant)
        for item in items:
            _checked_ahead_taken(item)
        batch = [item.incoming for item in items if item.incoming is not None]
        incomings_check(batch=batch)
        incomings_store(batch=batch, entrant=entrant)
        for item in items:
            if item.outcome is None:
                _done(item, games)
            if item.outcome is None:  # settled above
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

"""A bulk import's logs checked ahead in a pool of processes (`games.services.bulk_import` with
`workers` > 1), one batch ahead of the writes: reading each file's JSON, hashing it, filling it
in from its table and the engine's check, none of which needs the database.

Only a log whose game its seats or its numeric hint name alone is checked ahead; for every other
one (a side code, seats that several games share, anything unreadable) the pool gives None and
the importing process reads it itself, so every log's outcome is the same with or without a pool.
"""

from __future__ import annotations

import multiprocessing
from dataclasses import dataclass, replace
from multiprocessing.pool import AsyncResult, Pool
from typing import Any

import orjson

from core.errors import DomainError
from games.models import Submission
from games.selectors import GameTable
from games.services.bulk_import_games import EventGames, import_key, seats_key
from games.services.documents import document_check, document_hash, document_prepare
from handfoot.checking import parse_document
from handfoot.errors import EngineError


def refusal_text(refused: DomainError) -> str:
    """A service's refusal as the command line says it: "CODE: message"."""
    return f"{refused.code}: {refused.message}"


@dataclass(frozen=True)
class Prechecked:
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


@dataclass(frozen=True)
class EngineView:
    """What the pool's processes need to check a log ahead: no model instances."""

    tables: dict[int, GameTable]  # game -> its table without seats or event
    only_game: dict[tuple[str, ...], int]  # seats that one game alone has -> that game
    imported: frozenset[str]  # the keys of the logs imported before (not checked again)


def engine_view(games: EventGames) -> EngineView:
    """The event's tables as the pool's processes see them, and the keys imported before."""
    return EngineView(
        tables={pk: replace(table, seats=(), event=None) for pk, table in games.tables.items()},
        only_game={key: found[0].pk for key, found in games.by_seats.items() if len(found) == 1},
        imported=frozenset(
            Submission.objects.filter(
                game__table__rotation__event=games.event, idempotency_key__startswith="import:"
            ).values_list("idempotency_key", flat=True)
        ),
    )


_VIEW: EngineView | None = None  # a pool process's copy of the event's tables (`_pool_start`)


def _pool_start(view: EngineView) -> None:
    global _VIEW
    _VIEW = view


def _precheck(raw: bytes) -> Prechecked | None:
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
    seats = seats_key(document.get("seats"))
    game_id = hint if hint is not None else _VIEW.only_game.get(seats) if seats else None
    if type(game_id) is not int or game_id not in _VIEW.tables:  # not a bool: True is no game
        return None
    key = import_key(game_id, raw)
    ahead = Prechecked(game_id=game_id, key=key, digest=document_hash(document=document))
    if key in _VIEW.imported:
        return ahead
    return _engine_verdict(ahead, document, _VIEW.tables[game_id])


def _engine_verdict(ahead: Prechecked, document: dict[str, Any],
                    table: GameTable) -> Prechecked | None:
    try:
        prepared = document_prepare(document=document, table=table)
        report = document_check(document=prepared, rules=table.rules)
    except DomainError as refused:
        return replace(ahead, checked=True, refused=refusal_text(refused))
    try:
        texts = orjson.dumps(prepared).decode(), orjson.dumps(report).decode()
    except TypeError:  # a whole number beyond 64 bits: the standard library writes it
        return None
    return replace(
        ahead, checked=True, prepared_text=texts[0], report=report, report_text=texts[1]
    )


class Prechecks:
    """The pool: `ahead(batch, raws)` starts a batch's checks, `take(batch)` waits for them and
    gives what was found for each log, in order (a batch is named by its first log's index)."""

    def __init__(self, view: EngineView, workers: int) -> None:
        # Forked, not spawned: the processes share the parsed tables and need no Django setup;
        # they never touch the database connection they inherit.
        context = multiprocessing.get_context("fork")
        self.workers = workers
        self.pool: Pool = context.Pool(workers, _pool_start, (view,))
        self.pending: dict[int, AsyncResult[list[Prechecked | None]]] = {}

    def ahead(self, batch: int, raws: list[bytes]) -> None:
        chunk = max(1, len(raws) // (4 * self.workers))
        self.pending[batch] = self.pool.map_async(_precheck, raws, chunk)

    def take(self, batch: int) -> list[Prechecked | None]:
        return self.pending.pop(batch).get()

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()

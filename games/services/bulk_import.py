"""Bulk import of move logs into an event's games (`manage.py import_logs`), in batches.

Each log is one game's move log, stored exactly as `intake.submission_create` stores it (its
idempotency key is `import:<game>:<sha256 of the file>`, so a second import of the same file is
recognised and changes nothing). Which game a log is for is found by
`games.services.bulk_import_games` (its "game" hint, else its `seats` in order).

Per batch the logs go through the intake's own steps (`games.services.intake`), taken over
the batch: one read of the batch's idempotency keys (and one of the side codes its hints name),
the engine's check, then in one transaction the batch's games locked and read for earlier
entries and versions, and the batch's `Submission`, `ResultVersion` and history lines written in
one query each, whatever the batch's size (the event's games, seats and rules are read and
parsed once per import). A second log of one game in the batch is stored after the first, as if
sent after it; a log for a game with entries confirms or disputes exactly as one entered at the
table.

With `workers` > 1 the work that needs no database runs ahead in a pool of that many processes,
one batch ahead of the writes (`games.services.bulk_import_ahead`), with the same outcome for
every log. Logs uploaded on the director's page wait for their job in
`games.services.log_uploads`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from games.models import Submission
from games.services.bulk_import_ahead import Prechecked, Prechecks, engine_view, refusal_text
from games.services.bulk_import_games import (
    EventGames,
    LogRefused,
    hint_codes,
    import_key,
)
from games.services.documents import document_hash
from games.services.entrants import Entrant
from games.services.intake import (
    Incoming,
    incoming_replays,
    incomings_check,
    incomings_store,
)
from handfoot.checking import parse_document
from handfoot.errors import EngineError
from league.models import Event


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


@dataclass
class _Item:
    index: int
    name: str
    raw: bytes
    outcome: LogOutcome | None = None
    document: dict[str, Any] | None = None  # as read (without its `game` hint)
    incoming: Incoming | None = None  # its way through the intake, once its game is known
    pre: Prechecked | None = None  # what the pool found ahead (workers > 1)
def _done(item: _Item, games: EventGames) -> None:
    """The outcome of a log the intake settled (the game's status kept for the next batches)."""
    incoming = item.incoming
    if incoming is None:  # matched before this step
        raise RuntimeError("bulk import: item.incoming missing")
    if incoming.refused is not None:
        _refuse(item, refusal_text(incoming.refused))
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


def _match(items: list[_Item], games: EventGames) -> None:
    """Each log's game, idempotency key and hash, on its way into the intake."""
    codes = hint_codes((item.document for item in items if item.document is not None),
                       games.event)
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
        except LogRefused as refused:
            _refuse(item, str(refused), refused.words)
            continue
        item.document.pop("game", None)
        item.incoming = Incoming(
            game=game, table=games.tables[game.pk], document=item.document,
            key=import_key(game.pk, item.raw), digest=document_hash(document=item.document),
        )


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
    games = EventGames(event)
    if workers == 1:
        return _import_batches(_batches(documents, batch_size), games, entrant, progress)
    prechecks = Prechecks(engine_view(games), workers)
    try:
        return _import_batches(
            _checked_ahead(_batches(documents, batch_size), prechecks), games, entrant, progress
        )
    finally:
        prechecks.close()


def _checked_ahead(batches: Iterator[list[_Item]], prechecks: Prechecks) -> Iterator[list[_Item]]:
    """The batches, each with its checks done, the next one's started before it is given."""
    current = next(batches, [])
    _ahead(prechecks, current)
    while current:
        following = next(batches, [])
        _ahead(prechecks, following)
        for item, found in zip(current, prechecks.take(current[0].index), strict=True):
            item.pre = found
        yield current
        current = following


def _ahead(prechecks: Prechecks, items: list[_Item]) -> None:
    if items:
        prechecks.ahead(items[0].index, [item.raw for item in items])


def _import_batches(
    batches: Iterable[list[_Item]],
    games: EventGames,
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



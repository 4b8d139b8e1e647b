"""Intake: every score sheet or move log is checked and kept as a `Submission` of its entrant;
once an entrant's entry covers every round it becomes a `ResultVersion` that confirms or
disputes the others.

The intake's steps each take a batch of `Incoming` (one sheet or log each) as readily as one:
`incoming_replays` (sent before under its idempotency key), `incomings_check` (filled in from
the event and checked by the engine), `incomings_store` (under the games' row locks: the
`Submission`s, the entrants' entries rebuilt by `entries_rebuild`, the history lines), each a
constant number of queries whatever the batch's size. `submission_create` is those steps for
one; the bulk import of move logs (`bulk_import.logs_import`) is the same steps for a batch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import JSONField, Value
from django.db.models.functions import Cast
from django.utils import timezone

from core.compiled_query import CompiledQuery
from core.errors import Conflict, DomainError, Invalid
from games import selectors
from games.errors import Code, refusal
from games.models import ResultVersion, Submission
from games.services._common import game_all_versions, versions_supersede
from games.services.confirmation import settles_by_entry, version_confirm
from games.services.documents import (
    document_check,
    document_hash,
    document_prepare,
    round_differences,
    rounds_same_figures,
    rounds_totals,
)
from games.services.entrants import Entrant
from games.services.history import entry_line
from games.services.projection import game_played_at, game_status_derive
from league.models import AuditEntry, Game

GameTable = selectors.GameTable


def _with_source(submission: Submission, r: dict[str, Any]) -> dict[str, Any]:
    return {**r, "source": {"submission": submission.pk, "kind": submission.kind}}


def _entry_figures(
    game: Game, entrant: str, submissions: Sequence[Submission] | None = None
) -> dict[int, dict[str, Any]]:
    """The entrant's entry (`selectors.entry_latest_rounds`) as figures per round. Seat facts
    come from their latest move log of that round when its figures agree with the chosen ones.
    `submissions`: the game's, oldest first, when the caller has read them (else one query)."""
    if submissions is None:
        submissions = selectors.game_entries(game=game, entrant=entrant)
    rounds = {
        n: _with_source(submission, r)
        for n, (submission, r) in selectors.entry_latest_rounds(
            game=game, entrant=entrant, submissions=submissions
        ).items()
    }
    logged = selectors.entry_latest_rounds(
        game=game, entrant=entrant, kind=Submission.Kind.LOG, submissions=submissions
    )
    for number, r in rounds.items():
        log_round = logged[number][1] if number in logged else None
        if not r["seats"] and log_round and not round_differences(r, log_round):
            rounds[number] = {**r, "seats": log_round["seats"]}
    return rounds


# --- intake ------------------------------------------------------------------------------------


# The key is unique: by primary key, not the model's ordering (a join of four tables).
_BY_IDEMPOTENCY_KEY = CompiledQuery(
    lambda key: Submission.objects.filter(idempotency_key=key).order_by("pk")[:1], key=str)
# The game row locked, with its table, rotation, event and club (unlocked: the history line
# names them).
_GAME_LOCKED = CompiledQuery(
    lambda game_id: Game.objects.select_related("table__rotation__event__club")
    .select_for_update(of=("self",)).filter(pk=game_id), game_id=int)

# On PostgreSQL Django bulk-inserts literal rows as UNNEST of arrays, which psycopg quotes
# element by element in Python: some 15 ms a 40 KB move log. One expression among a row's values
# makes Django write plain VALUES rows instead, whose strings libpq escapes.
_LITERAL_ROWS = Value


@dataclass
class Incoming:
    """One score sheet or log on its way in, and what became of it: its `submission` (stored
    now when `created`, else sent before), or why it is `refused`."""

    game: Game
    table: GameTable | None  # the game's (`selectors.game_table`), read once the key is new
    document: Any  # as sent
    key: str  # its idempotency key
    digest: str  # `document_hash` of `document`
    prepared: dict[str, Any] | None = None  # filled in from the table (`document_prepare`)
    report: dict[str, Any] | None = None  # the engine's (`document_check`)
    # `prepared` and `report` as JSON text, when written already (the bulk import's pool): the
    # database reads them as they are.
    texts: tuple[str, str] | None = None
    submission: Submission | None = None
    created: bool = False
    refused: DomainError | None = None

    @property
    def settled(self) -> bool:
        return self.submission is not None or self.refused is not None

    @property
    def rules_table(self) -> GameTable:
        if self.table is None:
            raise RuntimeError("intake: the game's table is read before the check")
        return self.table


def submission_create(
    *,
    game: Game,
    document: Any,
    entrant: Entrant,
    idempotency_key: str,
    table: GameTable | None = None,
) -> tuple[Submission, bool]:
    """Check and store one score sheet or move log of a game; returns (submission, created).

    The same key with the same body returns the first submission (created False). `table` is
    the game's table as the request read it (`selectors.game_table`), else it is read here: the
    event's rules are parsed once for the whole submission (check, versions, projection).
    """
    if not idempotency_key or len(idempotency_key) > 128:
        raise refusal(Invalid, Code.BAD_IDEMPOTENCY_KEY)
    item = Incoming(game=game, table=table, document=document, key=idempotency_key,
                    digest=document_hash(document=document))
    incoming_replays(batch=[item], entrant=entrant)
    if not item.settled:
        item.table = table or selectors.game_table(game=game)
        incomings_check(batch=[item])
        incomings_store(batch=[item], entrant=entrant)
    if item.refused is not None:
        raise item.refused
    if item.submission is None:  # stored or refused by the steps above
        raise RuntimeError("intake: neither stored nor refused")
    return item.submission, item.created


def incoming_replays(*, batch: Sequence[Incoming], entrant: Entrant) -> None:
    """Settle those sent before under their key (one query): the same request gives the first
    submission (not created), another (another game, body or entrant) is refused."""
    live = [item for item in batch if not item.settled]
    if not live:
        return
    if len(live) == 1:
        earlier = {s.idempotency_key: s for s in _BY_IDEMPOTENCY_KEY.run(key=live[0].key)}
    else:
        earlier = {
            s.idempotency_key: s
            for s in Submission.objects.filter(idempotency_key__in=[i.key for i in live])
            .only("pk", "game_id", "idempotency_key", "body_hash", "entrant")
            .order_by()  # not the model's ordering (a join of four tables)
        }
    for item in live:
        found = earlier.get(item.key)
        if found is None:
            continue
        if (found.game_id != item.game.pk or found.body_hash != item.digest
                or found.entrant != entrant.key):
            item.refused = refusal(Conflict, Code.IDEMPOTENCY_KEY_REUSED)
        else:
            item.submission = found


def incomings_check(*, batch: Sequence[Incoming]) -> None:
    """Fill each document in from its game's table (`documents.document_prepare`: rules,
    players) and have the engine check it (`documents.document_check`); refused with the
    engine's words when it fails."""
    for item in batch:
        if item.settled or item.report is not None:
            continue
        try:
            item.prepared = document_prepare(document=item.document, table=item.rules_table)
            item.report = document_check(document=item.prepared, rules=item.rules_table.rules)
        except DomainError as refused:
            item.refused = refused


def incomings_store(*, batch: Sequence[Incoming], entrant: Entrant) -> None:
    """Store the checked ones of `entrant`, in one transaction, under their games' row locks:
    two of one game in the batch's order, the second once the first is stored and its entry
    rebuilt, as if sent one after the other."""
    waves: list[list[Incoming]] = []
    taken: Counter[int] = Counter()
    for item in batch:
        if not item.settled:
            if taken[item.game.pk] == len(waves):
                waves.append([])
            waves[taken[item.game.pk]].append(item)
            taken[item.game.pk] += 1
    if waves:
        with transaction.atomic():
            for wave in waves:
                _wave_store(wave, entrant)


def _wave_store(wave: list[Incoming], entrant: Entrant) -> None:
    """Store a batch of distinct games' sheets or logs (the caller's transaction)."""
    # Race: two entries of one game at once (two phones, or a retry) would each build
    # versions from a stale view of the other's; the game row lock serialises them.
    locked = _games_locked([item.game.pk for item in wave])
    for item in wave:
        item.game = locked[item.game.pk]
    incoming_replays(batch=wave, entrant=entrant)
    for item in wave:
        if not item.settled and item.game.status == Game.Status.CONFIRMED:
            item.refused = refusal(Conflict, Code.ALREADY_CONFIRMED)
    live = [item for item in wave if not item.settled]
    if not live:
        return
    # The games' entries (not withdrawn, without their documents), read once with the rows
    # locked: what each new one is compared with, and its entrant's entry with it.
    standing = _entries_of([item.game for item in live])
    _insert(live, standing, entrant)
    stored = [item for item in live if item.created and item.submission is not None]
    entries_rebuild(rebuilds=[
        (item.game, entrant, item.rules_table,
         sorted([*standing[item.game.pk], item.submission], key=lambda s: (s.created_at, s.pk)))
        for item in stored if item.submission is not None
    ])
    AuditEntry.objects.bulk_create([
        entry_line(game=item.game, submission=item.submission, entrant=entrant,
                   sides=item.rules_table.side_seats)
        for item in stored if item.submission is not None
    ])


def _games_locked(ids: list[int]) -> dict[int, Game]:
    if len(ids) == 1:
        rows = _GAME_LOCKED.run(game_id=ids[0])
    else:
        rows = list(Game.objects.select_related("table__rotation__event__club")
                    .select_for_update(of=("self",)).filter(pk__in=ids).order_by("pk"))
    found = {game.pk: game for game in rows}
    if missing := set(ids) - set(found):
        raise Game.DoesNotExist(f"game {min(missing)} is gone")
    return found


def _by_game[R: (ResultVersion, Submission)](rows: Iterable[R], games: list[Game]) -> dict[int, list[R]]:
    """Rows read by their games' ids, per game, each with its game (`row.game` asks nothing)."""
    by_game: dict[int, list[R]] = {game.pk: [] for game in games}
    known = {game.pk: game for game in games}
    for row in rows:
        row.game = known[row.game_id]
        by_game[row.game_id].append(row)
    return by_game


def _entries_of(games: list[Game]) -> dict[int, list[Submission]]:
    if len(games) == 1:
        return {games[0].pk: selectors.game_entries(game=games[0])}
    return _by_game(Submission.objects.filter(
        game__in=games, withdrawn_at__isnull=True).defer("document").order_by("created_at", "id"),
        games)


def _insert(live: list[Incoming], standing: dict[int, list[Submission]], entrant: Entrant) -> None:
    rows = [
        Submission(
            game=item.game,
            kind=report["kind"],
            round_number=item.prepared["round"]
            if report["kind"] == Submission.Kind.SHEET and item.prepared else None,
            document=_json_text(item.texts[0]) if item.texts else item.prepared,
            report=_json_text(item.texts[1]) if item.texts else report,
            differences=_differences(report, standing[item.game.pk]),
            entrant=entrant.key,
            user=entrant.account,
            via=_LITERAL_ROWS(entrant.via),
            idempotency_key=item.key,
            body_hash=item.digest,
        )
        for item in live
        if (report := item.report) is not None
    ]
    try:
        with transaction.atomic():
            # A savepoint: the IntegrityError below must leave the transaction usable.
            Submission.objects.bulk_create(rows)
    except IntegrityError:
        # The same key committed by a concurrent request for another game: a reuse.
        incoming_replays(batch=live, entrant=entrant)
        if all(not item.settled for item in live):
            raise
        _insert([item for item in live if not item.settled], standing, entrant)
        return
    for item, row in zip(live, rows, strict=True):
        row.via, row.report = entrant.via, item.report  # values, not what they were written with
        if item.prepared is not None:
            row.document = item.prepared
        else:
            del row.document  # deferred: read again if asked for
        item.submission, item.created = row, True


def _json_text(text: str) -> Cast:
    return Cast(Value(text), output_field=JSONField())


def _differences(report: dict[str, Any], standing: Sequence[Submission]) -> list[dict[str, Any]]:
    """Where a new entry's rounds differ from the other kind of entry (sheet vs log) of the same
    rounds, by anyone (`standing`: the game's entries not withdrawn, oldest first); stored with
    the entry (its `differences`)."""
    other_kind = (
        Submission.Kind.LOG if report["kind"] == Submission.Kind.SHEET else Submission.Kind.SHEET
    )
    mine = {r["round"]: r for r in report["rounds"]}
    found = []
    for other in standing:
        if other.kind != other_kind or other.withdrawn_at is not None:
            continue
        for r in other.report["rounds"]:
            if r["round"] in mine and (diff := round_differences(mine[r["round"]], r)):
                found.append({"round": r["round"], "other_submission": other.pk, "fields": diff})
    return found


type Rebuild = tuple[Game, Entrant, GameTable, Sequence[Submission] | None]


def entry_rebuild(
    *,
    game: Game,
    entrant: Entrant,
    table: GameTable,
    submissions: Sequence[Submission] | None = None,
) -> None:
    """Turn the entrant's entry into a version once it covers every round, then confirm or
    dispute against the other open versions. Called with the game row locked (after an entry,
    and after a director withdraws or restores one). `submissions`: the game's (at least the
    entrant's, not withdrawn), oldest first, as read with the lock held; else read here."""
    entries_rebuild(rebuilds=[(game, entrant, table, submissions)])


def entries_rebuild(*, rebuilds: Sequence[Rebuild]) -> None:
    """`entry_rebuild` for distinct games at once, each (game, entrant, table, submissions):
    their versions read in one query, the new ones written in one, their statuses in one."""
    covering = []
    for game, entrant, table, submissions in rebuilds:
        entry = _entry_figures(game, entrant.key, submissions)
        if sorted(entry) == list(range(1, table.rules.rounds + 1)):
            covering.append((game, entrant, table, [entry[n] for n in sorted(entry)]))
    if not covering:
        return
    # Every version, read once with the rows locked and kept up to date below (the open ones,
    # the next number, the game's status).
    games = [game for game, _, _, _ in covering]
    if len(games) == 1:
        all_versions = {games[0].pk: game_all_versions(game=games[0])}
    else:
        all_versions = _by_game(
            ResultVersion.objects.filter(game__in=games).order_by("number"), games)
    writes = _VersionWrites()
    for game, entrant, table, figures in covering:
        _entry_version(game, entrant, table, figures, all_versions[game.pk], writes)
    writes.save()


@dataclass
class _VersionWrites:
    """What the entries' rebuilds write, kept for one query each."""

    superseded: list[ResultVersion] = field(default_factory=list)
    created: list[ResultVersion] = field(default_factory=list)
    disputed: list[ResultVersion] = field(default_factory=list)
    games: list[tuple[Game, list[ResultVersion]]] = field(default_factory=list)

    def save(self) -> None:
        versions_supersede(versions=self.superseded)
        ResultVersion.objects.bulk_create(self.created)
        if self.disputed:
            ResultVersion.objects.filter(pk__in=[v.pk for v in self.disputed]).update(
                status=ResultVersion.Status.DISPUTED
            )
            for v in self.disputed:
                v.status = ResultVersion.Status.DISPUTED
        # The games' statuses, one update per status (the games of a batch mostly share one).
        now = timezone.now()
        by_status: dict[str, list[int]] = {}
        for game, versions in self.games:
            game_status_derive(game=game, versions=versions, now=now)
            by_status.setdefault(game.status, []).append(game.pk)
        for status, ids in by_status.items():
            Game.objects.filter(pk__in=ids).update(
                status=status, played_at=game_played_at(status=status, now=now)
            )


def _entry_version(
    game: Game,
    entrant: Entrant,
    table: GameTable,
    figures: list[dict[str, Any]],
    versions: list[ResultVersion],
    writes: _VersionWrites,
) -> None:
    open_versions = [v for v in versions if v.status in ResultVersion.OPEN_STATUSES]
    own = [v for v in open_versions if v.entered_by == entrant.key]
    others = [v for v in open_versions if v.entered_by != entrant.key]
    if own and rounds_same_figures(own[0].rounds, figures):
        return
    matching = next(
        (
            v
            for v in others
            if rounds_same_figures(v.rounds, figures)
            and settles_by_entry(version=v, entrant=entrant)
        ),
        None,
    )
    if matching is not None:
        version_confirm(
            game=game, version=matching, entrant=entrant, table=table, versions=versions
        )
        return
    writes.superseded += own
    status = ResultVersion.Status.DISPUTED if others else ResultVersion.Status.ENTERED
    version = ResultVersion(
        game=game,
        number=max((v.number for v in versions), default=0) + 1,
        status=status,
        rounds=figures,
        totals=rounds_totals(figures),
        entered_by=entrant.key,
        entered_by_user=entrant.account,
    )
    writes.created.append(version)
    versions.append(version)
    writes.disputed += others
    writes.games.append((game, versions))

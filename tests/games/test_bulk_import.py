"""games.services.bulk_import.logs_import: move logs stored in batches end exactly as through
submission_create, with a constant number of queries per batch."""

import hashlib
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import RoundResult, SeatRoundFacts, Submission
from games.services import Entrant
from games.services.bulk_import import logs_import
from league.models import AuditEntry, Game, Player, Rotation, Seat, Table
from tests.games.factories import named_game, running_event, stockout_log

pytestmark = pytest.mark.django_db

IMPORT = Entrant(key="import", via=Submission.Via.IMPORT)


@pytest.fixture(params=[1, 2], ids=["alone", "checked-ahead-by-2"])
def workers(request):
    """Every behaviour holds alike with the logs checked here and ahead in a pool of two."""
    return request.param


def seats_of(n):
    return [f"t{n}-s{i}" for i in range(4)]


def event_with_games(count):
    """A running event with `count` games, table n seating players t<n>-s0..s3."""
    event = running_event()
    for n in range(count):
        named_game(event=event, slugs=tuple(seats_of(n)), table_number=n + 1)
    return event


def many_games(count):
    """The same as `event_with_games`, written in bulk (for the query counts)."""
    event = running_event()
    rotation = Rotation.objects.create(event=event, number=1)
    tables = Table.objects.bulk_create(
        [Table(rotation=rotation, number=n + 1) for n in range(count)]
    )
    players = Player.objects.bulk_create(
        [Player(club=event.club, slug=s, name=s) for n in range(count) for s in seats_of(n)]
    )
    Seat.objects.bulk_create(
        [
            Seat(rotation=rotation, table=t, player=players[4 * n + i], seat_number=i, side=i % 2)
            for n, t in enumerate(tables)
            for i in range(4)
        ]
    )
    Game.objects.bulk_create([Game(table=t, first_dealer=3) for t in tables])
    return event


def log_file(n, **top):
    return (f"log{n}.json", json.dumps(stockout_log() | {"seats": seats_of(n)} | top).encode())


def one_by_one(event, files, entrant=IMPORT):
    """What the command did before: submission_create for each log, under the same key."""
    games = {
        tuple(s.player.slug for s in g.table.seats.order_by("seat_number")): g
        for g in Game.objects.filter(table__rotation__event=event)
    }
    for _, raw in files:
        document = json.loads(raw)
        game = games[tuple(document["seats"])]
        key = f"import:{game.pk}:{hashlib.sha256(raw).hexdigest()}"
        services.submission_create(
            game=game, document=document, entrant=entrant, idempotency_key=key
        )


def stored(event):
    """Everything the results of the event's games are, with ids made relative."""
    games = list(Game.objects.filter(table__rotation__event=event).order_by("table__number"))
    number = {g.pk: g.table.number for g in games}
    subs = {}
    state = []
    for game in games:
        for s in game.submissions.order_by("id"):
            subs[s.pk] = len(subs)
            state.append(
                (
                    "submission",
                    number[game.pk],
                    s.kind,
                    s.round_number,
                    s.document,
                    s.report,
                    s.differences,
                    "side" if s.entrant.startswith("game:") else s.entrant,
                    s.via,
                    s.body_hash,
                    s.idempotency_key.split(":")[-1],
                    s.withdrawn_at,
                )
            )
        for v in game.result_versions.order_by("number"):
            rounds = [
                {**r, "source": {**r["source"], "submission": subs[r["source"]["submission"]]}}
                for r in v.rounds
            ]
            state.append(
                (
                    "version",
                    number[game.pk],
                    v.number,
                    v.status,
                    rounds,
                    v.totals,
                    v.entered_by if not v.entered_by.startswith("game:") else "side",
                    v.confirmed_by if not v.confirmed_by.startswith("game:") else "side",
                    v.confirmed_at is not None,
                    v.reason,
                    v.detail,
                )
            )
        state.append(("game", number[game.pk], game.status, game.played_at is not None))
        for row in RoundResult.objects.filter(game=game).order_by("round_number", "side").values():
            state.append(
                (
                    "round",
                    number[game.pk],
                    {k: v for k, v in row.items() if k not in ("id", "game_id")},
                )
            )
        for row in SeatRoundFacts.objects.filter(game=game).order_by("round_number", "seat_number"):
            state.append(
                (
                    "facts",
                    number[game.pk],
                    row.round_number,
                    row.seat_number,
                    row.player.slug,
                    row.turns,
                    row.pickups,
                    row.cards_held,
                )
            )
    # The history per game in order (across games, the batch's new games come first).
    history = []
    for line in AuditEntry.objects.filter(event=event).order_by("id"):
        data = dict(line.data)
        data["game_id"] = number[data["game_id"]]
        if "submission_id" in data:
            data["submission_id"] = subs[data["submission_id"]]
        history.append(("history", line.action, line.summary, line.user_id, data))
    state += sorted(history, key=lambda line: line[4]["game_id"])
    return state


def test_imported_in_bulk_ends_as_one_by_one(workers):
    bulk, single = event_with_games(3), event_with_games(3)
    files = [log_file(0), log_file(1), log_file(2)]
    outcomes = logs_import(event=bulk, documents=files, entrant=IMPORT, batch_size=2, workers=workers)
    one_by_one(single, files)
    assert [o.created for o in outcomes] == [True, True, True]
    assert "is entered" in outcomes[0].message
    assert stored(bulk) == stored(single)
    assert Submission.objects.filter(game__table__rotation__event=bulk).count() == 3


def test_a_game_with_an_entry_is_confirmed_as_one_by_one(workers):
    """A side entered the same log first: the import confirms and projects it (rounds, facts)."""
    bulk, single = event_with_games(2), event_with_games(2)
    for event in (bulk, single):
        game = Game.objects.get(table__rotation__event=event, table__number=1)
        services.submission_create(
            game=game,
            document=stockout_log() | {"seats": seats_of(0)},
            entrant=Entrant.for_side(game, 0),
            idempotency_key=f"side-{event.pk}:same",
        )
    files = [log_file(0), log_file(1)]
    outcomes = logs_import(event=bulk, documents=files, entrant=IMPORT, workers=workers)
    one_by_one(single, files)
    assert "is confirmed" in outcomes[0].message and "is entered" in outcomes[1].message
    state = stored(bulk)
    assert state == stored(single)
    assert any(row[0] == "round" for row in state) and any(row[0] == "facts" for row in state)


def test_a_second_import_changes_nothing_and_says_so(workers):
    event = event_with_games(2)
    files = [log_file(0), log_file(1)]
    logs_import(event=event, documents=files, entrant=IMPORT, workers=workers)
    before = stored(event)
    again = logs_import(event=event, documents=files, entrant=IMPORT, workers=workers)
    assert [(o.ok, o.created) for o in again] == [(True, False), (True, False)]
    assert all(o.message.startswith("already imported") for o in again)
    assert stored(event) == before


def test_the_same_file_by_another_entrant_is_refused(workers, django_user_model):
    event = event_with_games(1)
    logs_import(event=event, documents=[log_file(0)], entrant=IMPORT, workers=workers)
    user = django_user_model.objects.create(username="sam")
    [outcome] = logs_import(
        event=event, documents=[log_file(0)], entrant=Entrant.for_user(user, via="import"),
        workers=workers,
    )
    assert not outcome.ok and outcome.message.startswith("IDEMPOTENCY_KEY_REUSED")


def test_bad_logs_are_refused_and_the_rest_imported(workers):
    event = event_with_games(2)
    files = [
        ("broken.json", b"{not json"),
        ("list.json", b"[]"),
        ("strangers.json", log_file(9)[1]),
        ("wrong-dealer.json", json.dumps(_redealt(log_file(0)[1])).encode()),
        log_file(1),
    ]
    outcomes = logs_import(event=event, documents=files, entrant=IMPORT, batch_size=2, workers=workers)
    assert [o.ok for o in outcomes] == [False, False, False, False, True]
    assert outcomes[0].message.startswith("BAD_FORMAT")
    assert outcomes[1].message.startswith("BAD_FORMAT")
    assert outcomes[2].message.startswith("no table of")
    assert outcomes[3].message.startswith("DEALER_MISMATCH")
    assert Submission.objects.get().game.table.number == 2


def _redealt(raw):
    document = json.loads(raw)
    document["rounds"][0]["dealer"] = 0
    return document


def test_two_logs_of_one_game_in_a_batch_are_taken_in_order(workers):
    bulk, single = event_with_games(1), event_with_games(1)
    again = json.dumps(json.loads(log_file(0)[1]), indent=1).encode()  # other bytes, same log
    files = [log_file(0), ("again.json", again)]
    outcomes = logs_import(event=bulk, documents=files, entrant=IMPORT, workers=workers)
    one_by_one(single, files)
    assert [o.created for o in outcomes] == [True, True]
    assert stored(bulk) == stored(single)


def test_the_game_hint_names_the_game(workers):
    from league.services.credentials import game_side_credentials, printed_code

    event = event_with_games(2)
    game = Game.objects.get(table__rotation__event=event, table__number=2)
    code = printed_code(game_side_credentials(game=game)[1].code)
    files = [
        (
            "by-code.json",
            json.dumps(stockout_log() | {"seats": seats_of(1), "game": code}).encode(),
        ),
        ("unknown.json", json.dumps(stockout_log() | {"game": 999999}).encode()),
    ]
    outcomes = logs_import(event=event, documents=files, entrant=IMPORT, workers=workers)
    assert outcomes[0].created and "the event has no game 999999" in outcomes[1].message
    assert Submission.objects.get().game == game and "game" not in Submission.objects.get().document


def count_queries(logs):
    event = many_games(logs)
    files = [log_file(n) for n in range(logs)]
    with CaptureQueriesContext(connection) as queries:
        outcomes = logs_import(event=event, documents=files, entrant=IMPORT, batch_size=100)
    assert all(o.created for o in outcomes)
    return len(queries)


def test_queries_per_batch_do_not_grow_with_the_batch():
    assert count_queries(10) == count_queries(50)


def test_checked_ahead_ends_as_checked_here_for_every_kind_of_log():
    """Logs the pool checks ahead (seats or a game number) and logs it leaves to the importing
    process (a side code, seats two games share, a bool as hint, unreadable) end the same."""
    from league.services.credentials import game_side_credentials, printed_code

    def files_for(event):
        games = list(Game.objects.filter(table__rotation__event=event).order_by("table__number"))
        code = printed_code(game_side_credentials(game=games[2])[1].code)
        return [
            log_file(0),
            ("by-number.json", json.dumps(stockout_log() | {"seats": seats_of(1),
                                                              "game": games[1].pk}).encode()),
            ("by-code.json", json.dumps(stockout_log() | {"seats": seats_of(2),
                                                            "game": code}).encode()),
            ("bool.json", json.dumps(stockout_log() | {"game": True}).encode()),
            ("broken.json", b'{"rounds": ['),
            ("wrong-dealer.json", json.dumps(_redealt(log_file(3)[1])).encode()),
            log_file(0),  # the same file again: already imported
        ]

    events = [event_with_games(4), event_with_games(4)]
    outcomes = [
        [(o.ok, o.created, o.message.split(" as submission")[0])
         for o in logs_import(event=event, documents=files_for(event), entrant=IMPORT,
                              batch_size=3, workers=workers)]
        for event, workers in zip(events, (1, 2), strict=True)
    ]
    assert outcomes[0] == outcomes[1]
    assert [ok for ok, _, _ in outcomes[1]] == [True, True, True, False, False, False, True]
    # The file naming a game by its number holds that number: its bytes, and so the file hash
    # in its key, differ between the two events.
    assert file_hashes_left_out(stored(events[0])) == file_hashes_left_out(stored(events[1]))


def file_hashes_left_out(state):
    return [row[:10] + row[11:] if row[0] == "submission" else row for row in state]

"""The two reads of a club night, the table page and `GET /api/results/<id>/`, read the game's
submissions and result versions once per request (`selectors.game_record`) and work out the
revision (the ETag) from what they read: their queries do not grow with the entries, and what
the reads built from the record show is what the queries alone would show."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services
from games.services import Entrant
from league.models import Game
from tests.factories import MembershipFactory
from tests.games.factories import named_game, sheet, side_link, stockout_log

pytestmark = pytest.mark.django_db

# A table page GET at a link: the link with its game, the seats, the versions, the submissions
# and the move log to tell (games.replays). Before the record: 8, 9 once confirmed, one more per
# version a user entered and two more per flagged entry.
TABLE_PAGE_QUERIES = 5
# A signed-in director at the link: their session, user and membership besides, and whether they
# run a club (the header's Director menu).
TABLE_PAGE_SIGNED_IN_QUERIES = 9
# A confirmed game's page reads the players' disputes of its result besides, once: the `many`
# game ends confirmed, the `few` one does not.
CONFIRMED_PAGE_QUERIES = 1
# The result API: the game, the versions, the submissions and the seats (before: 7).
RESULT_API_QUERIES = 4


def _enter(game: Game, entrant: Entrant, document: dict[str, Any], key: str) -> None:
    services.submission_create(game=game, document=document, entrant=entrant,
                               idempotency_key=f"{game.pk}-{key}")
    game.refresh_from_db()


def _game(*, entries: str, logged: bool) -> tuple[Game, Any]:
    """A game with one entry (`few`), or with both sides' entries in dispute, a withdrawn one
    and a director's correction (`many`); with a move log of side 1's when `logged`."""
    game = named_game()
    director = MembershipFactory(club=game.table.rotation.event.club).user
    first, second = Entrant.for_side(game, 0), Entrant.for_side(game, 1)
    if logged:
        _enter(game, first, stockout_log(), "log")
    else:
        _enter(game, first, sheet(1), "a1")
    if entries == "few":
        return game, director
    for n in range(1, 5):
        if not logged and n > 1:
            _enter(game, first, sheet(n), f"a{n}")
        _enter(game, second, sheet(n, table_points=560), f"b{n}")
    _enter(game, second, sheet(4, table_points=580), "b4-again")
    services.submission_withdraw(submission=game.submissions.get(idempotency_key=f"{game.pk}-b4-again"),
                                 by=director)
    game.refresh_from_db()
    services.result_correct(game=game, user=director, reason="Round 3 miscounted",
                            expected_revision=services.result_revision(game=game),
                            documents=[sheet(3, table_points=600)])
    game.refresh_from_db()
    return game, director


def _queries(send: Callable[[], Any]) -> int:
    send()  # the replay of a move log is built once, then cached
    with CaptureQueriesContext(connection) as queries:
        response = send()
    assert response.status_code == 200, response.content[:300]
    return len(queries)


@pytest.mark.parametrize("logged", [False, True], ids=["sheets", "log"])
@pytest.mark.parametrize("signed_in", [False, True], ids=["link", "director"])
def test_the_table_page_reads_the_same_number_of_queries_however_many_entries(
    client, logged, signed_in
):
    counts = {}
    for entries in ("few", "many"):
        game, director = _game(entries=entries, logged=logged)
        if signed_in:
            client.force_login(director)
        link = f"/play/{side_link(game, 0)}/"
        counts[entries] = _queries(lambda link=link: client.get(link))
    assert game.submissions.count() >= 6 and game.result_versions.count() >= 3
    assert counts["many"] == counts["few"] + CONFIRMED_PAGE_QUERIES
    bound = (TABLE_PAGE_SIGNED_IN_QUERIES if signed_in else TABLE_PAGE_QUERIES) + CONFIRMED_PAGE_QUERIES
    # A move log's replay reads the seats and the newest version once more (games.replays).
    assert counts["many"] <= bound + (2 if logged else 0)


@pytest.mark.parametrize("logged", [False, True], ids=["sheets", "log"])
def test_the_result_api_reads_the_same_number_of_queries_however_many_entries(
    api_client, logged
):
    counts = {}
    for entries in ("few", "many"):
        game, _ = _game(entries=entries, logged=logged)
        detail = f"/api/results/{game.pk}/"
        counts[entries] = _queries(lambda detail=detail: api_client.get(detail))
    assert counts == {"few": RESULT_API_QUERIES, "many": RESULT_API_QUERIES}


def test_the_result_apis_etag_and_revision_are_the_newest_version(api_client):
    game, _ = _game(entries="many", logged=False)
    response = api_client.get(f"/api/results/{game.pk}/")
    newest = game.result_versions.order_by("-number").first()
    assert response["ETag"] == f'"{newest.number}"'
    assert response.json()["revision"] == newest.number == services.result_revision(game=game)
    assert [v["number"] for v in response.json()["versions"]] == list(range(newest.number, 0, -1))


@pytest.mark.parametrize("logged", [False, True], ids=["sheets", "log"])
@pytest.mark.parametrize("entries", ["few", "many"])
def test_reads_from_the_record_equal_the_reads_that_query(entries, logged):
    game, director = _game(entries=entries, logged=logged)
    record = selectors.game_record(game=game)
    users = record.users
    sides = selectors.game_sides(game=game)
    assert services.result_revision(game=game, versions=record.versions) == (
        services.result_revision(game=game)
    )
    assert selectors.game_current_version(game=game, record=record) == (
        selectors.game_current_version(game=game)
    )
    assert selectors.game_open_versions(game=game, record=record) == (
        selectors.game_open_versions(game=game)
    )
    assert selectors.game_version_rows(game=game, record=record, users=users) == (
        selectors.game_version_rows(game=game)
    )
    assert selectors.dispute_comparison(game=game, record=record, users=users) == (
        selectors.dispute_comparison(game=game)
    )
    assert selectors.game_flag_lines(game=game, sides=sides, record=record) == (
        selectors.game_flag_lines(game=game, sides=sides)
    )
    for entrant in {s.entrant for s in record.submissions}:
        for kind in (None, "sheet", "log"):
            from_record = selectors.entry_latest_rounds(game=game, entrant=entrant, kind=kind,
                                                        record=record)
            queried = selectors.entry_latest_rounds(game=game, entrant=entrant, kind=kind)
            assert {n: (s.pk, r) for n, (s, r) in from_record.items()} == {
                n: (s.pk, r) for n, (s, r) in queried.items()
            }
    assert [s.pk for s in record.submissions] == [
        s.pk for s in selectors.game_submissions(game=game)
    ]
    if entries == "many":
        assert f"user:{director.pk}" in users
        assert selectors.game_flag_lines(game=game, sides=sides, record=record) or not logged

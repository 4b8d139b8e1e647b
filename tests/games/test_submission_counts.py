"""Issue 24: a submitted result is derived once per request. The game's table (seats, sides,
players and the event's rule set) is built once, the rules are parsed once, who is entering is
decided once, and the queries stay within a bound, along the table page (the sheet's POST and
the page its redirect shows) and the API; bench/submission_bench.py prints the same figures."""

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import get_resolver

import games.selectors
import games.services.entrants
import handfoot.rules
from games.models import ResultVersion
from tests.games.factories import named_game, sheet, side_link
from tests.games.test_table_entry import sheet_post

pytestmark = pytest.mark.django_db

COUNTED = {
    "table": games.selectors.game_table,
    "rules": handfoot.rules.rules_from_spec,
    "entrant": games.services.entrants.entrant_for,
}
# The most queries one request may run. When this was written (SQLite): a sheet's POST 19, the
# one that confirms the result and projects it 30; the page after it 9 or 10; on the API 21,
# and 32 for the confirming one (before issue 24: 42 and 54 for POST and page together, 26 and
# 38 on the API). The page reads the game's versions and submissions once since (5, whatever
# their number: tests/games/test_result_reads.py). The writes read them once too, with the game
# row locked (PostgreSQL, a side's link): a sheet's POST 14, 20 when it confirms (was 19 and
# 30); on the API 14 and 20 (was 21 and 32); confirming a version 12 on the page, 13 on the API
# (was 23 and 25). Whatever the number of earlier entries and versions (tests below).
PAGE_POST_QUERIES = 20
# A confirmed game's page reads the players' disputes of its result once besides (the result mail's
# dispute link).
PAGE_GET_QUERIES = 6
API_QUERIES = 20
PAGE_CONFIRM_QUERIES = 12
API_CONFIRM_QUERIES = 13


@pytest.fixture
def counts(monkeypatch) -> Iterator[Counter[str]]:
    """How often each counted function ran, under every name a module imported it by."""
    counter: Counter[str] = Counter()
    assert get_resolver().url_patterns  # every view imported (an import may read a rule set)

    def counting(label: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            counter[label] += 1
            return func(*args, **kwargs)

        return counted

    for label, func in COUNTED.items():
        wrapper = counting(label, func)
        for module in list(sys.modules.values()):
            namespace = getattr(module, "__dict__", None)
            if not isinstance(namespace, dict) or not module.__name__.startswith(
                ("games", "handfoot", "league", "core")
            ):
                continue
            for name, value in list(namespace.items()):
                if value is func:
                    monkeypatch.setattr(module, name, wrapper)
    yield counter


def _measured(
    counts: Counter[str], send: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[dict[str, int], int]:
    """What one request counted, and its queries."""
    counts.clear()
    with CaptureQueriesContext(connection) as queries:
        response = send(*args, **kwargs)
    assert response.status_code in (200, 201, 302), response.content[:300]
    return dict(counts), len(queries)


ONCE = {"table": 1, "rules": 1, "entrant": 1}


def test_each_table_page_request_builds_the_table_once_and_parses_the_rules_once(client, counts):
    game = named_game()
    for side in (0, 1):
        url = f"/play/{side_link(game, side)}/"
        for number in (1, 2, 3, 4):
            found, queries = _measured(
                counts, client.post, url + "sheet/", sheet_post(number, key=f"s{side}r{number}")
            )
            assert found == ONCE
            assert queries <= PAGE_POST_QUERIES
            found, queries = _measured(counts, client.get, url)
            assert found == ONCE
            assert queries <= PAGE_GET_QUERIES
    assert game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).exists()


def test_each_api_submission_builds_the_table_once_and_parses_the_rules_once(client, counts):
    game = named_game()
    for side in (0, 1):
        token = side_link(game, side)
        for number in (1, 2, 3, 4):
            found, queries = _measured(
                counts,
                client.post,
                f"/api/results/{game.pk}/submissions/",
                {"document": sheet(number)},
                content_type="application/json",
                headers={"X-Entry-Token": token, "Idempotency-Key": f"a{side}r{number}"},
            )
            assert found == ONCE
            assert queries <= API_QUERIES
    assert game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).exists()


def test_a_sheet_naming_the_events_rules_parses_them_once_more(client, counts):
    """The rules a sheet names are read (to compare them with the event's); the engine then
    checks it with the event's rule set as already parsed."""
    game = named_game()
    found, _ = _measured(
        counts,
        client.post,
        f"/api/results/{game.pk}/submissions/",
        {"document": sheet(1, rules="classic")},
        content_type="application/json",
        headers={"X-Entry-Token": side_link(game, 0), "Idempotency-Key": "named"},
    )
    assert found == {"table": 1, "rules": 2, "entrant": 1}


def _entered_by_side_1(game, extra: int) -> None:
    """Side 1 enters every round, then `extra` sheets again (rounds 1 to 3 changed, then as they
    were): each change a new version, the earlier one superseded; the figures end as sheet()'s."""
    token = side_link(game, 0)
    documents = [sheet(n) for n in (1, 2, 3, 4)]
    documents += [
        sheet(1 + i % 3, table_points=600 if (i // 3) % 2 == 0 else 555) for i in range(extra)
    ]
    for i, document in enumerate(documents):
        _api_post(game, token, document, f"early-{game.pk}-{i}")


def _api_post(game, token, document, key):
    response = Client().post(
        f"/api/results/{game.pk}/submissions/",
        {"document": document},
        content_type="application/json",
        headers={"X-Entry-Token": token, "Idempotency-Key": key},
    )
    assert response.status_code == 201, response.content[:300]


def _side_2_entry_counts(client, counts, extra: int, *, page: bool) -> list[int]:
    """The queries of side 2's four sheets (the last confirms side 1's figures)."""
    game = named_game()
    _entered_by_side_1(game, extra)
    token = side_link(game, 1)
    found = []
    for n in (1, 2, 3, 4):
        if page:
            _, queries = _measured(
                counts, client.post, f"/play/{token}/sheet/", sheet_post(n, key=f"late-{game.pk}-{n}")
            )
        else:
            _, queries = _measured(
                counts,
                client.post,
                f"/api/results/{game.pk}/submissions/",
                {"document": sheet(n)},
                content_type="application/json",
                headers={"X-Entry-Token": token, "Idempotency-Key": f"late-{game.pk}-{n}"},
            )
        found.append(queries)
    assert game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).count() == 1
    assert game.submissions.count() == 8 + extra
    return found


@pytest.mark.parametrize("page", [True, False], ids=["page", "api"])
def test_a_sheets_queries_do_not_grow_with_the_earlier_entries(client, counts, page):
    few = _side_2_entry_counts(client, counts, 0, page=page)
    many = _side_2_entry_counts(client, counts, 6, page=page)
    assert few == many
    assert max(many) <= (PAGE_POST_QUERIES if page else API_QUERIES)


def _confirmation_count(client, counts, extra: int, *, page: bool) -> int:
    game = named_game()
    _entered_by_side_1(game, extra)
    version = game.result_versions.get(status=ResultVersion.Status.ENTERED)
    token = side_link(game, 1)
    if page:
        _, queries = _measured(
            counts, client.post, f"/play/{token}/confirm/", {"version": version.number}
        )
    else:
        _, queries = _measured(
            counts,
            client.post,
            f"/api/results/{game.pk}/confirmations/",
            {"version": version.number},
            content_type="application/json",
            headers={"X-Entry-Token": token},
        )
    version.refresh_from_db()
    assert version.status == ResultVersion.Status.CONFIRMED
    assert game.result_versions.count() == 1 + extra  # each sheet again changed the figures
    return queries


@pytest.mark.parametrize("page", [True, False], ids=["page", "api"])
def test_a_confirmations_queries_do_not_grow_with_the_earlier_entries(client, counts, page):
    few = _confirmation_count(client, counts, 0, page=page)
    many = _confirmation_count(client, counts, 6, page=page)
    assert few == many <= (PAGE_CONFIRM_QUERIES if page else API_CONFIRM_QUERIES)

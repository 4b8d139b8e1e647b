"""Issue 22, finding 3: bodies built to make the schema step collect millions of errors are
refused at their first problem. The tests assert what is refused and that the validator is never
asked to collect all errors (no timing here: bench/hostile_bench.py measures the cost)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from handfoot import schemas
from handfoot.checking import check_document
from handfoot.simulate import simulate_game
from tests.handfoot.builders import WORKED_SHEET

LOG = simulate_game("classic", 4, seed=5, rounds=1)


class NoCollecting:
    """A compiled validator that fails the test if all errors are collected."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.validate_calls = 0

    def is_valid(self, doc: Any) -> bool:
        return self.inner.is_valid(doc)

    def validate(self, doc: Any) -> None:
        self.validate_calls += 1
        self.inner.validate(doc)

    def iter_errors(self, doc: Any) -> Any:  # pragma: no cover - the failure being tested
        raise AssertionError("every error was collected")


@pytest.fixture
def guarded(monkeypatch):
    made = {}
    for name in ("_sheet_validator", "_log_validator"):
        inner = getattr(schemas, name)()
        proxy = NoCollecting(inner)
        schemas._SCHEMAS[id(proxy)] = schemas._SCHEMAS[id(inner)]
        monkeypatch.setattr(schemas, name, lambda proxy=proxy: proxy)
        made[name] = proxy
    return made


def sheet_with(**changes) -> dict:
    return {**copy.deepcopy(WORKED_SHEET), **changes}


def log_with(path: list, value: Any) -> dict:
    doc = copy.deepcopy(LOG)
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return doc


BOMBS = {
    "sheet: 600,000 {} sides": (sheet_with(sides=[{}] * 600_000), "sides may have at most 12"),
    "log: 990,000 rounds": (log_with(["rounds"], [0] * 990_000), "rounds may have at most 8"),
    "log: 100,000 events": (log_with(["rounds", 0, "events"], [{}] * 100_000),
                            "rounds[0].events may have at most 2592"),
    "log: 400,000 cards in the stock": (log_with(["rounds", 0, "deal", "stock"], ["KH"] * 400_000),
                                        "rounds[0].deal.stock may have at most 648"),
    "log: 400,000 hands": (log_with(["rounds", 0, "deal", "hands"], [[]] * 400_000),
                           "rounds[0].deal.hands may have at most 323"),
    "log: 400,000 seats": (log_with(["seats"], ["a"] * 400_000), "seats may have at most 323"),
    "log: 990,000 reported scores": (log_with(["rounds", 0, "reported"], {"scores": [0] * 990_000}),
                                     "rounds[0].reported.scores may have at most 323"),
    "sheet: 160,000 unknown fields": (sheet_with(**{f"k{i}": 0 for i in range(160_000)}),
                                      "has an unknown field 'k0'"),
    "sheet: a side with 160,000 unknown fields": (
        sheet_with(sides=[{f"k{i}": 0 for i in range(160_000)}] * 2),
        "sides[0] is missing the field"),
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_schema_bomb_is_refused_at_its_first_problem(guarded, name):
    doc, words = BOMBS[name]
    report = check_document(doc)
    assert not report.valid
    assert report.error.code == "BAD_FORMAT"
    assert words in report.error.message
    assert len(report.error.message) < 200  # the huge value is never copied into the answer
    assert all(proxy.validate_calls <= 1 for proxy in guarded.values())


def test_the_refusal_does_not_depend_on_how_far_past_the_limit_a_list_goes(guarded):
    small = check_document(sheet_with(sides=[{}] * 13)).error.message
    huge = check_document(sheet_with(sides=[{}] * 600_000)).error.message
    assert small.split(", not")[0] == huge.split(", not")[0]
    assert huge.endswith("not 600,000")


def test_a_wrong_but_small_document_still_names_its_first_problem(guarded):
    doc = sheet_with()
    doc["sides"][1]["table_points"] = "lots"
    assert "sides[1].table_points should be a whole number" in check_document(doc).error.message


def test_every_list_of_both_schemas_has_a_bound():
    def lists(node: Any, path: str, found: list) -> list:
        if isinstance(node, dict):
            if node.get("type") == "array" or "items" in node:
                found.append((path, node))
            for key, child in node.items():
                lists(child, f"{path}/{key}", found)
        return found

    for name in ("move_log", "score_sheet"):
        schema = schemas.load_schema(name)
        defs = schema["$defs"]
        for path, node in lists(schema, "", []):
            node = schemas._resolve(defs, node)
            words = node.get("items", {}).get("enum") if node.get("uniqueItems") else None
            assert node.get("maxItems") or words, f"{name}{path} has no maxItems"

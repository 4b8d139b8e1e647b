"""The published JSON Schemas and the structural checks built on them."""

from __future__ import annotations

import copy
import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from handfoot.replay import replay_log
from handfoot.schemas import (
    format_path,
    full_validator,
    load_schema,
    validate_full,
    validate_log_structure,
    validate_sheet_structure,
)
from handfoot.sheets import check_sheet
from tests.handfoot.builders import WORKED_SHEET as SHEET

REPO = Path(__file__).resolve().parents[2]
NAMES = ("move_log", "score_sheet")



@pytest.fixture(scope="module")
def stockout_log() -> dict[str, Any]:
    from tests.conftest import EXAMPLES_DIR

    path = EXAMPLES_DIR / "classic_stockout_game.json"
    if not path.is_file():
        pytest.skip(f"shared examples not found at {path} (set HANDFOOT_SHARED_DIR)")
    return json.loads(path.read_text())


def example_docs(examples_dir: Path) -> dict[str, Any]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(examples_dir.glob("*.json"))
            if p.name != "expect.json"}


# --- the schema files


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_valid_draft_2020_12(name):
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(f"/{name}.schema.json")
    assert schema["title"]


def test_load_schema_names_and_copies():
    assert load_schema("log") == load_schema("move_log") == load_schema("move_log.schema.json")
    assert load_schema("sheet") == load_schema("score_sheet")
    a = load_schema("score_sheet")
    a["title"] = "changed"
    assert load_schema("score_sheet")["title"] != "changed"
    with pytest.raises(KeyError):
        load_schema("tournament")


def test_schemas_ship_with_the_package():
    files = resources.files("handfoot.schemas")
    for name in NAMES:
        assert json.loads(files.joinpath(f"{name}.schema.json").read_text())
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["handfoot"]
    assert "schemas/*.json" in patterns


def test_schema_formats_match_the_spec():
    assert load_schema("move_log")["properties"]["format"]["const"] == "hand-and-foot-log/1"
    assert load_schema("score_sheet")["properties"]["format"]["const"] == "hand-and-foot-sheet/1"


# --- valid documents


def test_examples_validate(examples_dir):
    docs = example_docs(examples_dir)
    assert docs
    for name, doc in docs.items():
        schema = "score_sheet" if doc["format"].startswith("hand-and-foot-sheet") else "move_log"
        assert validate_full(schema, doc) is None, name
        check = validate_sheet_structure if schema == "score_sheet" else validate_log_structure
        assert check(doc) is None, name


@pytest.mark.parametrize("preset", ["classic", "pagat", "six-deck", "canasta", "eleven"])
def test_simulated_logs_match_the_published_schema(preset):
    simulate = pytest.importorskip("handfoot.simulate")
    for seed, players in ((1, 4), (2, 6), (3, 3)):
        log = simulate.simulate_game(rules=preset, players=players, seed=seed, rounds=1)
        errors = list(full_validator("move_log").iter_errors(log))
        assert not errors, errors[0].message
        assert validate_log_structure(log) is None


def test_override_rules_and_extras_validate():
    doc = copy.deepcopy(SHEET)
    doc["rules"] = {"preset": "classic", "overrides": {
        "hand_size": 11, "decks": "players+1", "max_wilds": None, "wild_ratio": "more",
        "upcard_forbidden": ["wild", "3"], "books_to_go_out": {"clean": 1, "dirty": 1, "wild": 0},
        "meld_minimums": [50, 90, 120, 150], "permission": False,
    }}
    doc["players"] = 6
    doc["sides"][0]["score"] = 3855
    doc["sides"][0]["cut_bonus"] = 100
    assert validate_full("score_sheet", doc) is None
    assert validate_sheet_structure(doc) is None


# --- broken documents: BAD_FORMAT with a path


def _log_cases() -> list[tuple[str, Any, str, int | None, int | None]]:
    """(description, mutation, expected text in the message, round, event)."""
    def set_(path, value):
        def f(doc):
            target = doc
            for p in path[:-1]:
                target = target[p]
            target[path[-1]] = value
        return f

    def delete(path):
        def f(doc):
            target = doc
            for p in path[:-1]:
                target = target[p]
            del target[path[-1]]
        return f

    return [
        ("format", set_(["format"], "hand-and-foot-log/2"), "unknown format", None, None),
        ("no seats", delete(["seats"]), "'seats'", None, None),
        ("seat name", set_(["seats", 1], 7), "seats[1]", None, None),
        ("play", set_(["play"], "teams"), "play must be one of", None, None),
        ("dealer", set_(["rounds", 1, "dealer"], "ann"), "rounds[1].dealer", 2, None),
        ("no deal", delete(["rounds", 0, "deal"]), "rounds[0] is missing the field 'deal'", 1, None),
        ("stock", set_(["rounds", 2, "deal", "stock"], "7D"), "rounds[2].deal.stock", 3, None),
        ("events", set_(["rounds", 3, "events"], {}), "rounds[3].events", 4, None),
        ("extra", set_(["rounds", 0, "notes"], "x"), "unknown field 'notes'", 1, None),
        ("reported", set_(["rounds", 0, "reported"], {"scores": ["ten"]}),
         "rounds[0].reported.scores[0]", 1, None),
    ]


@pytest.mark.parametrize("case", _log_cases(), ids=lambda c: c[0])
def test_broken_log_is_bad_format_with_path(stockout_log, case):
    _, mutate, text, round_no, event = case
    doc = copy.deepcopy(stockout_log)
    mutate(doc)
    for err in (validate_log_structure(doc), validate_full("move_log", doc)):
        assert err is not None
        d = err.to_dict()
        assert d["code"] == "BAD_FORMAT"
        assert text in d["message"], d["message"]
        assert (d["round"], d["event"]) == (round_no, event)
    assert replay_log(doc).error.code == "BAD_FORMAT"


@pytest.mark.parametrize("event,mutation,text", [
    ({"seat": 0, "type": "discard", "card": "XX"}, None, "is not a card"),
    ({"seat": 0, "type": "drw"}, None, "must be one of"),
    ({"seat": 0, "type": "draw", "cards": ["KH"]}, None, "unknown field 'cards'"),
    ({"seat": "ann", "type": "draw"}, None, "seat should be a whole number"),
    ({"seat": 0, "type": "meld", "melds": [{"rank": "3", "cards": ["3H", "3D", "3S"]}]}, None,
     "rank must be one of"),
    ({"seat": 0, "type": "ask_go_out", "answer": "maybe"}, None, "answer must be one of"),
    ({"seat": 0, "type": "pickup"}, None, "missing the field 'pair'"),
])
def test_broken_event_named_by_the_full_schema(stockout_log, event, mutation, text):
    doc = copy.deepcopy(stockout_log)
    doc["rounds"][1]["events"][4] = event
    err = validate_full("move_log", doc).to_dict()
    assert err["code"] == "BAD_FORMAT" and text in err["message"], err
    assert "rounds[1].events[4]" in err["message"]
    assert (err["round"], err["event"]) == (2, 4)
    # the run-time check leaves events to the engine, which reports them in the same place
    assert validate_log_structure(doc) is None


def test_engine_reports_a_bad_card_where_it_is(stockout_log):
    doc = copy.deepcopy(stockout_log)
    doc["rounds"][0]["events"][1]["card"] = "1H"
    report = replay_log(doc)
    assert report.error.code == "BAD_FORMAT"
    assert (report.error.round, report.error.event) == (1, 1)


@pytest.mark.parametrize("doc,text", [
    ([1], "the document should be an object, not a list"),
    ({}, "the document is missing the field"),
    ({**SHEET, "format": "hand-and-foot-sheet/9"}, "unknown format"),
    ({**SHEET, "ended_by": "time"}, "ended_by must be one of"),
    ({**SHEET, "sides": SHEET["sides"][:1]}, "sides needs at least 2 entries"),
    ({**SHEET, "round": 0}, "round must be at least 1"),
    ({**SHEET, "sides": [SHEET["sides"][0], {**SHEET["sides"][1], "held_points": 207}]},
     "sides[1].held_points must be a multiple of 5"),
    ({**SHEET, "sides": [SHEET["sides"][0], {**SHEET["sides"][1], "table_points": -5}]},
     "sides[1].table_points must be at least 0"),
    ({**SHEET, "sides": [{**SHEET["sides"][0], "went_out": "yes"}, SHEET["sides"][1]]},
     "sides[0].went_out should be true or false, not text"),
    ({**SHEET, "sides": [{**SHEET["sides"][0], "bonus": 5}, SHEET["sides"][1]]},
     "sides[0] has an unknown field 'bonus'"),
])
def test_broken_sheet_is_bad_format_with_path(doc, text):
    err = validate_sheet_structure(doc)
    assert err is not None and err.code == "BAD_FORMAT"
    assert text in err.message, err.message
    assert err.event is None
    assert check_sheet(doc).error.code == "BAD_FORMAT"


def test_rules_are_left_to_the_rule_set_code():
    doc = {**SHEET, "rules": "klondike"}
    assert validate_sheet_structure(doc) is None
    assert check_sheet(doc).error.code == "BAD_RULES"


def test_format_path():
    assert format_path(["rounds", 0, "events", 3, "card"]) == "rounds[0].events[3].card"
    assert format_path([]) == "the document"


# --- the hand-written sheet checks agree with the schema

FIELD_VALUES = st.one_of(
    st.integers(-20, 2000), st.floats(-10, 100).map(lambda x: round(x * 2) / 2), st.booleans(),
    st.none(), st.text(max_size=3), st.just([]), st.just({}), st.just("missing"),
)


@given(
    where=st.sampled_from(["top", "side"]),
    field=st.sampled_from(["format", "round", "ended_by", "sides", "players", "clean_books",
                           "dirty_books", "wild_books", "red_threes", "table_points", "held_points",
                           "went_out", "score", "cut_bonus", "unknown"]),
    value=FIELD_VALUES,
)
@settings(max_examples=400, deadline=None)
def test_check_sheet_agrees_with_the_schema(where, field, value):
    doc = copy.deepcopy(SHEET)
    target = doc if where == "top" else doc["sides"][1]
    if value == "missing":
        target.pop(field, None)
    else:
        target[field] = value
    schema_ok = full_validator("score_sheet").is_valid(doc)
    report = check_sheet(doc)
    format_error = report.error is not None and report.error.code == "BAD_FORMAT"
    if not schema_ok:
        assert format_error, (doc, report.error)
    elif format_error:
        # the only structural rule the schema cannot state: round within the rule set's rounds
        assert "rounds" in report.error.message and doc["round"] > 4, report.error

"""Issue 11 at the engine level: hostile numbers, NaN, NUL and unknown fields are refused with a
clear code before anything could be stored; an engine bug is INTERNAL_ERROR, never a user's
BAD_FORMAT (the API-level tests live with the API)."""

from __future__ import annotations

import copy
import json
import logging

import pytest

from handfoot.checking import check_document, parse_document
from handfoot.errors import EngineError
from handfoot.replay import replay_log
from handfoot.schemas import load_schema, sheet_number_bounds, validate_full
from handfoot.sheets import check_sheet
from handfoot.simulate import simulate_game
from handfoot.state import State
from tests.handfoot.builders import STOCK_OUT, draw, make_log
from tests.handfoot.builders import WORKED_SHEET as SHEET

INT32 = 2**31 - 1
LOG = simulate_game("classic", 4, seed=5, rounds=1)


def sheet(**side_changes) -> dict:
    doc = copy.deepcopy(SHEET)
    doc["sides"][1].update(side_changes)
    return doc


# --- finding 5: every score-sheet number has a bound that fits a 32-bit column


def test_every_sheet_number_has_a_32_bit_bound():
    bounds = sheet_number_bounds()
    assert set(bounds) >= {"round", "players", "clean_books", "dirty_books", "wild_books",
                           "red_threes", "table_points", "held_points", "score", "cut_bonus"}
    for name, (lo, hi) in bounds.items():
        assert lo is not None and hi is not None, name
        assert -INT32 <= lo <= hi <= INT32, name
    for name in ("clean_books", "dirty_books", "wild_books", "red_threes"):
        assert bounds[name][1] <= 32767  # they go in smallint columns


@pytest.mark.parametrize("field", ["clean_books", "red_threes", "table_points", "held_points",
                                   "score", "cut_bonus"])
@pytest.mark.parametrize("value", [10**12, 2**31, 10**400])
def test_huge_sheet_numbers_are_refused(field, value):
    report = check_sheet(sheet(**{field: value}))
    assert report.error.code == "BAD_FORMAT"
    assert f"sides[1].{field} must be at most" in report.error.message
    assert report.error.round == 2


def test_huge_numbers_in_a_log_are_refused():
    log = copy.deepcopy(LOG)
    log["rounds"][0]["reported"] = {"scores": [10**12, 0]}
    err = replay_log(log).error
    assert err.code == "BAD_FORMAT" and "reported.scores[0] must be at most" in err.message
    log = copy.deepcopy(LOG)
    log["rounds"][0]["round"] = 10**12
    assert replay_log(log).error.code == "BAD_FORMAT"


def test_sheet_with_too_many_players_or_decks_is_bad_seats():
    assert check_sheet({**SHEET, "players": 13}).error.code == "BAD_FORMAT"  # schema: 2-12
    # 12 players under "players+1" would need 13 decks
    doc = {**SHEET, "players": 12, "sides": SHEET["sides"]}
    assert check_sheet(doc).error.code == "BAD_SEATS"
    six_decks = {"preset": "classic", "overrides": {"decks": 6}}
    assert check_sheet({**doc, "rules": six_decks}).valid


def test_log_with_too_many_players_is_bad_seats():
    log = make_log(players=12, events=[draw(0)])
    assert replay_log(log).error.code == "BAD_SEATS"  # 13 decks
    log = make_log({"preset": "classic", "overrides": {"decks": 12}}, players=13, dealer=0)
    assert replay_log(log).error.code == "BAD_SEATS"


# --- finding 6: NaN, Infinity, NUL and unknown fields


@pytest.mark.parametrize("text", ['{"a": NaN}', "[Infinity]", "[-Infinity]", "[1e999]"])
def test_reader_refuses_nan_and_infinity(text):
    with pytest.raises(EngineError) as info:
        parse_document(text)
    assert info.value.code == "BAD_FORMAT"


@pytest.mark.parametrize("text", ['{"a": "x\\u0000"}', '{"a\\u0000": 1}', '["\\u0000"]'])
def test_reader_refuses_nul(text):
    with pytest.raises(EngineError) as info:
        parse_document(text)
    assert info.value.code == "BAD_FORMAT" and "NUL" in info.value.message


def test_reader_keeps_an_escaped_backslash_before_u0000():
    assert parse_document('{"a": "x\\\\u0000"}') == {"a": "x\\u0000"}


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_in_a_sheet_or_log_text_is_bad_format(value):
    text = json.dumps(SHEET).replace('"table_points": 220', f'"table_points": {value}')
    for report in (check_document(text), check_sheet(text)):
        assert report.error.code == "BAD_FORMAT"
    log_text = json.dumps(LOG).replace('"dealer": 3', f'"dealer": {value}', 1)
    assert value in log_text
    for report in (check_document(log_text), replay_log(log_text)):
        assert report.error.code == "BAD_FORMAT"


def test_nan_in_an_already_parsed_sheet_is_bad_format():
    for value in (float("nan"), float("inf")):
        assert check_sheet(sheet(table_points=value)).error.code == "BAD_FORMAT"
        assert check_document({**SHEET, "round": value}).error.code == "BAD_FORMAT"


def test_nul_in_a_player_name_is_bad_format():
    log = copy.deepcopy(LOG)
    log["seats"][2] = "cat\x00"
    err = replay_log(log).error
    assert err.code == "BAD_FORMAT" and "NUL" in err.message
    text = json.dumps(LOG).replace('"seats": ["p1"', '"seats": ["p\\u0000"')
    assert "\\u0000" in text and check_document(text).error.code == "BAD_FORMAT"


@pytest.mark.parametrize("event", [
    {"seat": 0, "type": "draw", "note": "x"},
    {"seat": 0, "type": "draw", "cards": ["KH"]},
    {"seat": 0, "type": "discard", "card": "KH", "x": None},
    {"seat": 0, "type": "ask_go_out", "answer": "yes", "why": "\x00"},
    {"seat": 0, "type": "pickup", "pair": [], "melds": [], "extra": 1},
    {"seat": 0, "type": "meld", "melds": [{"rank": "K", "cards": ["KH", "KS", "KD"]}], "x": 1},
])
def test_unknown_event_fields_are_refused(event):
    log = make_log(STOCK_OUT_RULES, events=[event])
    err = replay_log(log).error
    assert err.code == "BAD_FORMAT" and "unknown field" in err.message, err
    assert (err.round, err.event) == (1, 0)
    assert validate_full("move_log", log).code == "BAD_FORMAT"  # the schema says so too


def test_unknown_meld_item_fields_are_refused():
    log = copy.deepcopy(LOG)
    rnd = log["rounds"][0]
    i, ev = next((i, e) for i, e in enumerate(rnd["events"]) if e["type"] == "meld")
    ev["melds"][0]["colour"] = "red"
    err = replay_log(log).error
    assert err.code == "BAD_FORMAT" and "'colour'" in err.message and err.event == i


STOCK_OUT_RULES = {"preset": "classic", "overrides": STOCK_OUT}


def test_examples_of_known_fields_still_pass():
    # every field formats.md names is still accepted (a simulated game uses all event types)
    for preset in ("classic", "pagat", "six-deck", "canasta", "eleven"):
        log = simulate_game(preset, 4, seed=11, rounds=1)
        assert replay_log(log).valid and validate_full("move_log", log) is None


# --- an engine bug is INTERNAL_ERROR, logged with its traceback


def test_an_engine_bug_in_replay_is_internal_error(monkeypatch, caplog):
    def broken(self, seat):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(State, "draw", broken)
    with caplog.at_level(logging.ERROR, logger="handfoot"):
        report = replay_log(copy.deepcopy(LOG))
    assert not report.valid and report.error.code == "INTERNAL_ERROR"
    assert "not in the document" in report.error.message
    record = next(r for r in caplog.records if r.name.startswith("handfoot"))
    assert record.exc_info and record.exc_info[0] is ZeroDivisionError


@pytest.mark.parametrize("path", ["plain", "exact"])
def test_an_engine_bug_in_a_sheet_check_is_internal_error(monkeypatch, caplog, path):
    """On the one-pass path and on the exact path alike (the one-pass path reads side_score
    once per rule set, and earlier tests may have done so: the exact path is forced instead)."""
    from handfoot import sheets

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    if path == "plain":
        monkeypatch.setattr(sheets, "plain_check", broken)
    else:
        monkeypatch.setattr(sheets, "plain_check", lambda *args: None)
        monkeypatch.setattr(sheets, "side_score", broken)
    with caplog.at_level(logging.ERROR, logger="handfoot"):
        report = check_sheet(copy.deepcopy(SHEET))
    assert report.error.code == "INTERNAL_ERROR"
    assert any(r.exc_info and r.exc_info[0] is KeyError for r in caplog.records)


def test_published_schema_states_the_bounds():
    side = load_schema("score_sheet")["$defs"]["side"]["properties"]
    assert side["score"]["maximum"] <= INT32 and side["clean_books"]["maximum"] <= 32767


def _deep(depth: int = 100_000) -> list:
    deep: list = []
    inner = deep
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return deep


@pytest.mark.parametrize("where", ["sides", "rules", "overrides", "override", "round", "extra"])
def test_deeply_nested_sheet_values_are_refused_not_internal(where):
    deep = _deep()
    doc = copy.deepcopy(SHEET)
    if where == "sides":
        doc["sides"] = [deep, deep]
    elif where == "overrides":
        doc["rules"] = {"preset": "classic", "overrides": {"x": deep}}
    elif where == "override":
        doc["rules"] = {"preset": "classic", "overrides": {"hand_size": deep}}
    else:
        doc[where] = deep
    report = check_sheet(doc)
    assert report.error.code in ("BAD_FORMAT", "BAD_RULES"), report.error


@pytest.mark.parametrize("where", ["seats", "rules", "events", "event", "seat", "card", "meld",
                                   "stock", "reported", "play", "extra", "type"])
def test_deeply_nested_log_values_are_refused_not_internal(where):
    deep = _deep()
    log = copy.deepcopy(LOG)
    rnd = log["rounds"][0]
    events = rnd["events"]
    if where == "events":
        rnd["events"] = deep
    elif where == "event":
        events[0] = deep
    elif where == "seat":
        events[0]["seat"] = deep
    elif where == "type":
        events[0]["type"] = deep
    elif where == "card":
        events[1]["card"] = deep
    elif where == "meld":
        events[1] = {"seat": 0, "type": "meld", "melds": [{"rank": "K", "cards": deep}]}
    elif where == "stock":
        rnd["deal"]["stock"] = [deep]
    elif where == "reported":
        rnd["reported"] = deep
    else:
        log[where] = deep
    report = replay_log(log)
    assert report.error.code in ("BAD_FORMAT", "BAD_RULES"), report.error

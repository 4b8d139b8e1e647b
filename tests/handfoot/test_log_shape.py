"""replay.plain_shape, the plain checks that spare a valid log the schema's validator, must
mirror the structural log schema: never yes where the validator says no."""

import copy
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot import replay
from handfoot.replay import (
    LOG_KEYS,
    LOG_REQUIRED,
    ROUND_KEYS,
    ROUND_REQUIRED,
    SHAPE_LIMITS,
    plain_shape,
    replay_log,
)
from handfoot.schemas import _log_validator, _schema_of
from handfoot.simulate import simulate_game


def _strip(node):
    """The schema without the words (description, title) and identifiers."""
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items()
                if k not in ("description", "title", "$schema", "$id", "$defs")}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def _number(name):
    least, most = SHAPE_LIMITS[name]
    return {"type": "integer", "minimum": least, "maximum": most}


def _list(name, **more):
    return {"type": "array", **more, "maxItems": SHAPE_LIMITS[name][1]}


def test_the_plain_checks_state_the_structural_schema_exactly():
    deal = {"type": "object", "required": ["hands", "feet", "stock", "discard"],
            "additionalProperties": False,
            "properties": {name: _list(name) for name in ("hands", "feet", "stock", "discard")}}
    rnd = {"type": "object", "required": sorted(ROUND_REQUIRED), "additionalProperties": False,
           "properties": {
               "round": _number("round"), "dealer": _number("dealer"), "deal": deal,
               "events": _list("events"),
               "reported": {"type": "object", "required": ["scores"], "additionalProperties": False,
                            "properties": {"scores": _list("scores", items=_number("score"))}}}}
    expected = {
        "type": "object", "required": sorted(LOG_REQUIRED), "additionalProperties": False,
        "properties": {
            "format": {"const": "hand-and-foot-log/1"},
            "rules": {"type": ["string", "object"]},
            "seats": _list("seats", items={"type": "string"}),
            "play": {"enum": ["partnerships", "individual"]},
            "sides": _number("sides"),
            "rounds": _list("rounds", items=rnd),
        },
    }
    actual = _strip(_schema_of(_log_validator()))
    for node in (actual, actual["properties"]["rounds"]["items"], expected,
                 expected["properties"]["rounds"]["items"]):
        node["required"] = sorted(node["required"])
    assert actual == expected
    assert set(actual["properties"]) == LOG_KEYS
    assert set(actual["properties"]["rounds"]["items"]["properties"]) == ROUND_KEYS


LOGS = [simulate_game("classic", players, seed=s, rounds=2) for players, s in ((4, 0), (3, 1), (6, 2))]
LOGS[0]["rounds"][0]["reported"] = {"scores": [0, 0]}  # the shape only: a SCORE_MISMATCH

ODD = [None, True, 1, 1.0, -1, 9, 10**7 + 1, "x", "individual", [], ["a"], {}, {"scores": []},
       {"scores": [1.0]}, {"scores": [True]}, {1, 2}, float("nan"), "hand-and-foot-log/1", 2, 3, 7]
PLACES = ["format", "rules", "seats", "seat", "play", "sides", "rounds", "round", "round_no",
          "dealer", "deal", "hands", "stock", "events", "reported", "scores", "extra",
          "round_extra", "deal_extra", "drop", "round_drop", "deal_drop"]


def _put(log, where, value):
    rnd = log["rounds"][0]
    targets = {
        "format": (log, "format"), "rules": (log, "rules"), "seats": (log, "seats"),
        "play": (log, "play"), "sides": (log, "sides"), "rounds": (log, "rounds"),
        "round_no": (rnd, "round"), "dealer": (rnd, "dealer"), "deal": (rnd, "deal"),
        "hands": (rnd["deal"], "hands"), "stock": (rnd["deal"], "stock"),
        "events": (rnd, "events"), "reported": (rnd, "reported"),
        "extra": (log, "extra"), "round_extra": (rnd, "x"), "deal_extra": (rnd["deal"], "x"),
    }
    if where in targets:
        obj, key = targets[where]
        obj[key] = value
    elif where == "seat":
        log["seats"][0] = value
    elif where == "round":
        log["rounds"][0] = value
    elif where == "scores":
        rnd["reported"] = {"scores": [value]}
    elif where == "drop":
        log.pop("seats")
    elif where == "round_drop":
        rnd.pop("dealer")
    else:
        rnd["deal"].pop("feet")


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=True)
@given(which=st.integers(0, len(LOGS) - 1), where=st.sampled_from(PLACES),
       value=st.sampled_from(ODD))
def test_plain_yes_only_where_the_validator_says_yes(which, where, value):
    log = copy.deepcopy(LOGS[which])
    _put(log, where, value)
    validator = _log_validator()
    if plain_shape(log):
        assert validator.is_valid(log)
    fast = replay_log(log).to_dict()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(replay, "plain_shape", lambda doc: False)
        assert replay_log(log).to_dict() == fast


@pytest.mark.parametrize("where", ["seats", "rounds", "events", "stock", "scores"])
def test_lists_past_their_bound_go_to_the_validator(where):
    log = copy.deepcopy(LOGS[0])
    rnd = log["rounds"][0]
    key = "events" if where == "events" else where
    most = SHAPE_LIMITS[key][1] + 1
    if where in ("seats", "rounds"):
        log[where] = (log[where] * most)[:most]
    elif where == "stock":
        rnd["deal"]["stock"] = ["4H"] * most
    elif where == "scores":
        rnd["reported"] = {"scores": [0] * most}
    else:
        rnd["events"] = (rnd["events"] * most)[:most]
    assert not plain_shape(log)
    assert not _log_validator().is_valid(log)


def test_valid_logs_are_plain():
    assert all(plain_shape(log) for log in LOGS)


def test_checking_a_valid_log_imports_no_validator(tmp_path):
    path = tmp_path / "log.json"
    path.write_text(__import__("json").dumps(LOGS[1]))
    code = ("import sys, runpy; sys.argv = ['handfoot', 'check', sys.argv[1]]\n"
            "try:\n    runpy.run_module('handfoot', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print('jsonschema_rs' in sys.modules, file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                         check=True)
    assert '"valid": true' in run.stdout
    assert run.stderr.strip().endswith("False")

"""The fast path of check_sheet (plain_check) must give exactly what the exact path gives: it
accepts only what the exact path accepts, with the same report, and leaves every error to it."""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot import replay_log
from handfoot.sheets import _check, check_sheet, plain_check, plain_shape
from handfoot.simulate import simulate_game

PART_KEYS = ("clean_books", "dirty_books", "wild_books", "red_threes", "table_points",
             "held_points", "went_out")


def _sheets(preset, players, seed):
    log = simulate_game(preset, players, seed=seed, rounds=2)
    report = replay_log(log).to_dict()
    return [
        {"format": "hand-and-foot-sheet/1", "rules": log["rules"], "round": rnd["round"],
         "ended_by": rnd["ended_by"], "players": players,
         "sides": [{**{k: side[k] for k in PART_KEYS}, "score": side["score"]}
                   for side in rnd["sides"]]}
        for rnd in report["rounds"]
    ]


BASES = [s for preset in ("classic", "pagat", "canasta", "eleven", "six-deck")
         for s in _sheets(preset, 4, 1) + _sheets(preset, 3, 2)]


def _exact(doc):
    """check_sheet's report with the fast path turned off."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("handfoot.sheets.plain_check", lambda doc, rules=None: None)
        return check_sheet(doc).to_dict()


def test_the_schema_is_mirrored():
    assert plain_shape() is not None  # else every sheet takes the slow path


@pytest.mark.parametrize("sheet", BASES)
def test_valid_sheets_take_the_fast_path_with_the_same_report(sheet):
    fast = plain_check(sheet)
    assert fast is not None
    assert fast == _check(sheet, None)
    assert check_sheet(sheet).to_dict() == _exact(sheet)


VALUES = st.one_of(
    st.integers(-3, 3), st.integers(0, 200).map(lambda n: n * 5), st.sampled_from(
        [None, True, False, 5.0, 2.5, "5", [], {}, 1_000_000, 1_000_005, 10**8, -10**8, 1001,
         "went_out", "stock_out", "classic", "hand-and-foot-sheet/1", 0, 8, 9, 12, 13, 1]))
TOP = st.sampled_from(["format", "rules", "round", "ended_by", "players", "sides", "extra"])
SIDE = st.sampled_from([*PART_KEYS, "score", "cut_bonus", "extra"])


@settings(max_examples=600, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(base=st.sampled_from(range(len(BASES))),
       changes=st.lists(st.tuples(st.booleans(), st.integers(0, 2), TOP, SIDE, VALUES,
                                  st.booleans()), min_size=1, max_size=3))
def test_mutated_sheets_get_the_same_verdict(base, changes):
    doc = copy.deepcopy(BASES[base])
    for at_top, which, top, field, value, delete in changes:
        sides = doc.get("sides")
        if at_top or type(sides) is not list or not sides or type(sides[0]) is not dict:
            target, key = doc, top
        else:
            target, key = sides[which % len(sides)], field
        if delete:
            target.pop(key, None)
        else:
            target[key] = value
    assert check_sheet(doc).to_dict() == _exact(doc)


@pytest.mark.parametrize("change", [
    {"sides": []}, {"sides": [{}] * 13}, {"players": 5}, {"rules": "nope"},
    {"rules": {"preset": "classic", "overrides": {"going_out_bonus": 200}}},
    {"rules": {"preset": "classic", "overrides": {"going_out_bonus": -1}}},
])
def test_odd_sheets_get_the_same_verdict(change):
    doc = {**copy.deepcopy(BASES[0]), **change}
    assert check_sheet(doc).to_dict() == _exact(doc)

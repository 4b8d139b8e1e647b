"""The fast path of check_sheet (plain_check) must give exactly what the exact path gives: it
accepts only what the exact path accepts, with the same report, and leaves every error to it."""

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot import replay_log
from handfoot.rules import ENTERED_PARTS, PRESETS, PartKind, rules_from_spec
from handfoot.scoring import side_score
from handfoot.sheets import (
    _check,
    _with_cut,
    check_sheet,
    plain_check,
    plain_shape,
    sheet_limits,
)
from handfoot.simulate import simulate_game

PART_KEYS = tuple(part.name for part in ENTERED_PARTS)


def _plain_sides(side_shape, limits, sides):
    return side_shape.loop(side_shape, limits, sides)


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
    rnd, totals = fast
    assert rnd == _check(sheet, None)
    assert totals == rnd.scores
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


DROP = object()  # a change that leaves the field out


@pytest.mark.parametrize("change", [
    {"rules": DROP}, {"players": DROP}, {"players": True}, {"players": 4.0}, {"round": True},
    {"round": DROP}, {"format": DROP}, {"sides": "sides"}, {"sides": DROP}, {"extra": None},
])
def test_odd_fields_get_the_same_verdict(change):
    doc = copy.deepcopy(BASES[0])
    for key, value in change.items():
        if value is DROP:
            doc.pop(key)
        else:
            doc[key] = value
    assert check_sheet(doc).to_dict() == _exact(doc)


@pytest.mark.parametrize("change", [
    {"score": None}, {"score": DROP}, {"score": True}, {"score": 10**7 + 1}, {"score": -10**7},
    {"cut_bonus": 5}, {"cut_bonus": 0}, {"cut_bonus": 7}, {"cut_bonus": True},
    {"cut_bonus": None}, {"cut_bonus": -5}, {"cut_bonus": 1_000_005}, {"went_out": 1},
    {"went_out": None}, {"clean_books": True}, {"clean_books": 1001}, {"red_threes": -1},
    {"held_points": DROP}, {"held_points": 1_000_005}, {"table_points": 0},
    {"table_points": 1_000_000}, {"table_points": 7}, {"extra": 0},
    # counts beyond the fast path's bits (511 for the schema's 1000) are left to the exact path
    {"wild_books": 511}, {"red_threes": 512}, {"clean_books": 1000},
])
@pytest.mark.parametrize("base", [0, 1, 7])
def test_odd_sides_get_the_same_verdict(change, base):
    doc = copy.deepcopy(BASES[base])
    for side in doc["sides"][:1]:
        for key, value in change.items():
            if value is DROP:
                side.pop(key, None)
            else:
                side[key] = value
    assert check_sheet(doc).to_dict() == _exact(doc)


def test_a_cut_bonus_is_added_on_both_paths():
    doc = copy.deepcopy(BASES[0])
    side = doc["sides"][0]
    side["cut_bonus"] = 100
    side["score"] += 100
    fast = plain_check(doc)
    assert fast is not None
    assert fast[0] == _check(doc, None)
    assert check_sheet(doc).to_dict() == _exact(doc)


def _random_figure(rng, part):
    if part.kind == PartKind.COUNT:
        return rng.randrange(0, 20)
    if part.kind == PartKind.POINTS:
        return 5 * rng.randrange(0, 2000 if part.adds > 0 else 200)
    return rng.random() < 0.5 if not part.only_with else False


@pytest.mark.parametrize("spec", [
    *PRESETS,
    {"preset": "classic", "overrides": {"book_bonus": {"clean": 700, "dirty": 250, "wild": 2000},
                                        "red_threes": "hold", "red_three_bonus": 300,
                                        "going_out_bonus": 0}},
    {"preset": "canasta", "overrides": {"red_threes": "lay", "red_three_bonus": 300,
                                        "going_out_bonus": 250}},
])
def test_the_fast_path_scores_as_side_score(spec):
    """The fast path works scores out from the rule set's bonuses per unit; they must be what
    scoring.side_score and SideScore.score give for any figures."""
    limits = sheet_limits(rules_from_spec(spec))
    rng = random.Random(7)
    for _ in range(300):
        side = {part.name: _random_figure(rng, part) for part in ENTERED_PARTS}
        cut = rng.choice([0, 0, 5, 100])
        least = (side["clean_books"] * limits.min_clean_points
                 + side["dirty_books"] * (limits.min_dirty_points or 0)
                 + side["wild_books"] * limits.min_wild_points)
        side["table_points"] = max(side["table_points"], least)
        expected = side_score(limits.rules, **side)
        if cut:
            expected = _with_cut(expected, cut)
            side["cut_bonus"] = cut
        found = _plain_sides(plain_shape().side, limits, [side])
        assert found is not None
        assert found[0] == [expected]
        assert type(found[0][0]) is type(expected)
        assert found[1] == [expected.score]
        assert _plain_sides(plain_shape().side, limits,
                            [{**side, "score": expected.score + 5}]) is None
        assert _plain_sides(plain_shape().side, limits,
                            [{**side, "score": expected.score}])[1] == [expected.score]

"""House-rule parameters: one declaration (the RuleSet fields) gives the checks, the ranges of
rules.md, the JSON Schemas' overrides and the metadata forms are built from."""

from __future__ import annotations

import re
import time

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handfoot.cards import held_value_table, sorted_deck
from handfoot.checking import check_document
from handfoot.errors import EngineError
from handfoot.parameters import overrides_schema, rule_parameter, rule_parameters
from handfoot.rules import (
    FIXED_RULES,
    OVERRIDABLE,
    PRESETS,
    ParamKind,
    rules_from_spec,
    rules_to_dict,
)
from handfoot.schemas import build_schema, load_schema, schema_text
from handfoot.sheets import _limits_for_key, sheet_limits
from tests.handfoot.builders import WORKED_SHEET as SHEET


def refused(overrides: dict) -> EngineError:
    with pytest.raises(EngineError) as info:
        rules_from_spec({"preset": "classic", "overrides": overrides})
    assert info.value.code == "BAD_RULES"
    return info.value


def spec_ranges(shared_dir) -> dict[str, tuple[int, int]]:
    """The numeric ranges of rules.md, "Ranges of house rules"."""
    text = (shared_dir / "spec" / "rules.md").read_text()
    section = text.split("### Ranges of house rules", 1)[1].split("\n\n", 2)[2]
    ranges = {}
    for line in section.splitlines():
        m = re.match(r"\| (.+?) \| (?:none or |each (?:count )?)?([\d,]+)–([\d,]+)", line)
        if not m:
            continue
        lo, hi = (int(x.replace(",", "")) for x in m.groups()[1:])
        for name in re.findall(r"`(\w+)`", m.group(1)):
            ranges[name] = (lo, hi)
    return ranges


def test_ranges_are_those_of_rules_md():
    from tests.conftest import shared_dir

    root = shared_dir()
    if not (root / "spec" / "rules.md").is_file():
        pytest.skip("shared spec not found (set HANDFOOT_SHARED_DIR)")
    ranges = spec_ranges(root)
    assert len(ranges) == 17
    for name, (lo, hi) in ranges.items():
        info = rule_parameter(name)
        if info.kind is ParamKind.NUMBER_LIST:  # "1-8 entries, each 0-1,000": the entries
            assert (info.min_items, info.max_items) == (1, 8)
            continue
        assert (info.minimum, info.maximum) == (lo, hi), name


def test_every_house_rule_has_metadata():
    params = rule_parameters("canasta")
    assert [p.name for p in params] == list(OVERRIDABLE)
    assert "open_melds_per_rank" not in OVERRIDABLE and "black_three_blocks" not in OVERRIDABLE
    values = rules_to_dict(PRESETS["canasta"])
    for p in params:
        assert p.description.endswith(".") and p.range_text
        assert p.value == values[p.name]
        if p.kind in (ParamKind.WORD, ParamKind.WORD_SET):
            assert p.words and all(isinstance(w, str) for w in p.words)
        if p.kind in (ParamKind.NUMBER, ParamKind.NUMBER_OR_NONE, ParamKind.DECKS,
                      ParamKind.NUMBER_LIST, ParamKind.BOOK_COUNTS):
            assert p.minimum is not None and p.maximum is not None and p.minimum <= p.maximum
        assert p.to_dict()["range"] == p.range_text
    by_name = {p.name: p for p in params}
    assert by_name["wild_ratio"].words == ("double", "more", "two_naturals")
    assert by_name["decks"].words == ("players+1",) and by_name["decks"].value == "players+1"
    assert by_name["books_to_go_out"].parts == ("clean", "dirty", "wild")
    assert by_name["book_size"].range_text == "3–15"
    assert by_name["max_wilds"].range_text == "none or 0–10"
    with pytest.raises(EngineError):
        rule_parameters("poker")


@pytest.mark.parametrize("name", [n for n in OVERRIDABLE])
def test_each_parameter_is_refused_just_outside_its_range(name):
    info = rule_parameter(name)
    lo, hi = info.minimum, info.maximum
    if info.kind in (ParamKind.NUMBER, ParamKind.NUMBER_OR_NONE, ParamKind.DECKS):
        for bad in (lo - 1, hi + 1, 10**12, "7", 7.5, True):
            err = refused({name: bad})
            assert name in err.message and f"{lo}" in err.message and f"{hi:,}" in err.message
    elif info.kind is ParamKind.NUMBER_LIST:
        for bad in ([], [0] * (info.max_items + 1), [hi + 1] * 4, [-1] * 4):
            assert name in refused({name: bad}).message
    elif info.kind is ParamKind.BOOK_COUNTS:
        for bad in ({"clean": hi + 1, "dirty": 0, "wild": 1}, {"clean": -1, "dirty": 0, "wild": 1}):
            err = refused({name: bad})
            assert name in err.message and f"{hi:,}" in err.message
    elif info.kind in (ParamKind.WORD, ParamKind.WORD_SET):
        err = refused({name: "lots" if info.kind is ParamKind.WORD else ["joker"]})
        assert name in err.message and info.words[0] in err.message
    else:
        assert name in refused({name: "yes"}).message


def test_range_ends_are_accepted():
    rules = rules_from_spec({"preset": "classic", "overrides": {
        "decks": 12, "hand_size": 20, "foot_size": 1, "draw_count": 3, "pickup_count": 20,
        "pickup_min_pile": 20, "min_meld_size": 7, "book_size": 7, "max_wilds": 10,
        "rounds": 8, "meld_minimums": [0, 1000, 0, 0, 0, 0, 0, 1000],
        "books_to_go_out": {"clean": 10, "dirty": 10, "wild": 10},
        "book_bonus": {"clean": 5000, "dirty": 0, "wild": 5000}, "going_out_bonus": 5000,
        "red_three_bonus": 0, "red_three_penalty": 5000, "black_three_penalty": 5000,
    }})
    assert rules.decks == 12 and rules.rounds == 8 and rules.max_wilds == 10
    assert rules_from_spec({"preset": "classic", "overrides": {"max_wilds": None}}).max_wilds is None


def test_ranges_that_tie_parameters_together():
    assert "min_meld_size" in refused({"min_meld_size": 7, "book_size": 5}).message
    assert "at least one book" in refused(
        {"books_to_go_out": {"clean": 0, "dirty": 0, "wild": 0}}).message
    assert "rounds" in refused({"rounds": 3, "meld_minimums": [50, 90]}).message


@pytest.mark.parametrize("name", sorted(FIXED_RULES))
def test_fixed_rules_are_refused_with_the_reason(name):
    for value in (True, False, 1, 2):
        err = refused({name: value})
        assert name in err.message and "cannot be changed" in err.message


@pytest.mark.parametrize("overrides", [{"book_size": 2500}, {"book_size": 4000},
                                       {"rounds": 10**7}, {"decks": 200000},
                                       {"meld_minimums": [50] * 10**5}])
def test_huge_house_rules_are_refused_fast(overrides):
    # issue 11, findings 1 and 2: these took 20 s of CPU or 80 MB that stayed in a cache
    sheet = {**SHEET, "rules": {"preset": "pagat", "overrides": overrides}}
    start = time.process_time()
    report = check_document(sheet)
    assert time.process_time() - start < 0.5
    assert report.error.code == "BAD_RULES"
    assert next(iter(overrides)) in report.error.message


def test_caches_are_bounded():
    for cached in (sheet_limits, _limits_for_key, sorted_deck, held_value_table):
        assert cached.cache_info().maxsize is not None and cached.cache_info().maxsize <= 256
    for bonus in range(300):  # many different valid rule sets do not grow the caches past it
        check_document({**SHEET, "rules": {"preset": "classic",
                                            "overrides": {"going_out_bonus": bonus}}})
    assert _limits_for_key.cache_info().currsize <= 256
    assert sheet_limits.cache_info().currsize <= 256


# --- the published schemas come from the same declaration


@pytest.mark.parametrize("name", ["move_log", "score_sheet"])
def test_schema_files_are_built_from_the_rule_set(name):
    from importlib import resources

    shipped = resources.files("handfoot.schemas").joinpath(f"{name}.schema.json").read_text()
    assert shipped == schema_text(name), "run: python -m handfoot.schemas"
    assert load_schema(name)["$defs"]["overrides"] == overrides_schema() == \
        build_schema(name)["$defs"]["overrides"]


OVERRIDE_VALUES = st.one_of(
    st.integers(-2, 25), st.sampled_from([5000, 5001, 10**7, None, True, "players+1", "more",
                                          "frozen", [], [50], [50, 90, 120, 150], ["wild", "3"],
                                          ["wild", "wild"], {"clean": 1, "dirty": 0, "wild": 0},
                                          {"clean": 11, "dirty": 0, "wild": 0}, "x", 2.5]),
)


@given(name=st.sampled_from(list(OVERRIDABLE)), value=OVERRIDE_VALUES)
@settings(max_examples=300, deadline=None)
def test_schema_and_rule_set_agree_on_one_override(name, value):
    validator = jsonschema.Draft202012Validator(overrides_schema())
    schema_ok = validator.is_valid({name: value}) and not isinstance(value, float)
    try:
        rules_from_spec({"preset": "classic", "overrides": {name: value}})
        engine_ok = True
    except EngineError as err:
        assert err.code == "BAD_RULES"
        engine_ok = False
    if engine_ok:
        assert schema_ok
    elif schema_ok:  # only the ranges that tie parameters together are beyond the schema
        assert name in ("meld_minimums", "rounds", "books_to_go_out", "min_meld_size")

"""Issue 43: a part of a side's score is declared once (`handfoot.rules.SCORE_PARTS`); the score
objects, `side_score`, the sheets' fast path and the rules the what-if may treat as scoring only
are derived from it."""

from dataclasses import fields

import pytest

from handfoot.report import SideScore
from handfoot.rules import (
    ENTERED_PARTS,
    PARTS_BY_NAME,
    PRESETS,
    SCORE_PARTS,
    SCORING_RULES,
    WORKED_OUT_PARTS,
    PartKind,
    RuleSet,
    parts_paid,
    parts_scored,
    rules_from_spec,
)
from handfoot.scoring import side_score
from handfoot.sheets import SheetSideScore, plain_shape, plain_sides_source

RULE_FIELDS = {f.name for f in fields(RuleSet)}


def test_every_worked_out_part_pays_for_an_entered_part_by_a_house_rule():
    entered = {part.name for part in ENTERED_PARTS}
    for part in WORKED_OUT_PARTS:
        assert part.counts in entered and part.rule in RULE_FIELDS, part.name
        assert part.adds == 1 and part.short, part.name
    assert {"book_bonus", "going_out_bonus", "red_three_bonus"} <= SCORING_RULES


def test_a_side_score_and_a_sheet_side_score_take_their_parts_by_keyword_only():
    values = range(len(SCORE_PARTS))
    with pytest.raises(TypeError):
        SideScore(*values)
    with pytest.raises(TypeError):
        SheetSideScore(*values, 100)
    sheet = SheetSideScore(**dict.fromkeys((p.name for p in SCORE_PARTS), 0), cut_bonus=100)
    assert sheet.score == 100 and sheet.to_dict()["cut_bonus"] == 100


def test_side_score_refuses_a_part_that_is_not_entered():
    with pytest.raises(TypeError, match="going_out_bonus"):
        side_score(PRESETS["classic"], going_out_bonus=100)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_worked_out_part_is_its_count_times_what_its_rule_pays(preset):
    rules = PRESETS[preset]
    entered = {part.name: 3 if part.kind != PartKind.YES_NO else True for part in ENTERED_PARTS}
    scored = side_score(rules, **entered)
    for part in WORKED_OUT_PARTS:
        assert getattr(scored, part.name) == entered[part.counts] * part.pays(rules)
    added = sum(getattr(scored, p.name) * p.adds for p in SCORE_PARTS)
    assert scored.score == added


def test_red_threes_score_only_where_they_are_laid():
    held = rules_from_spec({"preset": "classic", "overrides": {"red_threes": "hold"}})
    assert side_score(held, red_threes=2).red_three_points == 0
    assert side_score(PRESETS["classic"], red_threes=2).red_three_points == 200


def test_the_fast_paths_side_loop_is_generated_for_every_part():
    shape = plain_shape()
    assert shape is not None
    source = plain_sides_source(shape.side.required)
    for part in SCORE_PARTS:
        assert f"s.{part.name} = {part.name}" in source
    assert "SideScore(" not in source  # never built by position


def test_the_printed_sheet_asks_for_every_part_these_rules_score():
    classic = PRESETS["classic"]
    assert parts_scored(classic) == parts_paid(classic)
    assert {part.name for part in ENTERED_PARTS if not part.only_with} <= {
        part.name for part in parts_paid(classic)}
    canasta = [part.name for part in parts_scored(PRESETS["canasta"])]
    assert "wild_books" not in canasta and "red_threes" not in canasta


def test_a_detail_of_going_out_is_asked_only_where_a_rule_pays_it():
    for rules in PRESETS.values():
        for part in WORKED_OUT_PARTS:
            detail = PARTS_BY_NAME[part.counts]
            if detail.only_with:
                assert (detail in parts_paid(rules)) == bool(part.pays(rules))

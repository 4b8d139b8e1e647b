"""The printed score sheet asks for exactly the figures the event's rules score."""

from dataclasses import replace

import pytest

from games.views.score_sheets import figure_boxes
from handfoot.rules import PRESETS


def test_under_classic_rules_every_part_a_scorer_writes_has_a_box():
    assert figure_boxes(PRESETS["classic"]) == [
        "Clean books", "Dirty books", "Wild books", "Red 3s", "Points on the table",
        "Points left in hand", "Went out", "Round total"]


@pytest.mark.parametrize("preset", ["canasta", "eleven"])
def test_rules_without_wild_melds_or_laid_red_threes_print_no_box_for_them(preset):
    boxes = figure_boxes(PRESETS[preset])
    assert "Wild books" not in boxes and "Red 3s" not in boxes
    assert boxes[-3:] == ["Points left in hand", "Went out", "Round total"]


def test_a_house_rule_allowing_wild_melds_brings_the_wild_books_box_back():
    assert "Wild books" in figure_boxes(replace(PRESETS["canasta"], wild_melds=True))

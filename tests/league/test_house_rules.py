"""House rules as a form: every parameter with its preset value and range; changes become the
event's overrides; out-of-range values are refused in words."""

import pytest

from handfoot.parameters import rule_parameters
from handfoot.rules import PRESETS, rules_to_dict
from league.forms import house_rules


def _post(preset="classic", **changes):
    form = house_rules.HouseRulesForm(preset=preset)
    data = {}
    for name, field in form.fields.items():
        value = field.initial
        data[name] = value
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_every_changeable_engine_parameter_has_a_row():
    listed = {p.name for p in house_rules.PARAMETERS}
    assert listed == {p.name for p in rule_parameters("classic")}


def test_unchanged_form_means_no_house_rules():
    form = house_rules.HouseRulesForm(_post(), preset="classic")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["overrides"] == {}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_preset_values_are_shown_in_words(preset):
    rows = house_rules.HouseRulesForm(preset=preset).rows()
    assert all(row["preset_value"] and row["range"] for row in rows)
    assert not any(row["changed"] for row in rows)


def test_changes_become_overrides_and_are_marked_changed():
    form = house_rules.HouseRulesForm(_post(going_out_bonus=200, permission="no", rounds=3),
                                      preset="classic")
    assert form.is_valid(), form.errors
    overrides = form.cleaned_data["overrides"]
    assert overrides == {"going_out_bonus": 200, "permission": False, "rounds": 3}

    shown = house_rules.HouseRulesForm(preset="classic", overrides=overrides).rows()
    changed = {row["parameter"].name for row in shown if row["changed"]}
    assert changed == {"going_out_bonus", "permission", "rounds", "meld_minimums"}


def test_out_of_range_is_refused_in_words():
    form = house_rules.HouseRulesForm(_post(going_out_bonus=9000, book_bonus__wild=-1), preset="classic")
    assert not form.is_valid()
    assert form.errors["going_out_bonus"] == ["Bonus for going out must be from 0 to 5,000 points, not 9,000."]
    assert "Bonus per book (wild) must be from 0 to 5,000" in form.errors["book_bonus__clean"][0]


def test_meld_minimums_must_fit_the_rounds():
    form = house_rules.HouseRulesForm(_post(rounds=3, meld_minimums="50, 90"), preset="classic")
    assert not form.is_valid()
    assert "one first lay-down minimum per round" in form.errors["meld_minimums"][0]


def test_the_json_box_refuses_in_words_never_the_parser_message():
    with pytest.raises(Exception) as caught:
        house_rules.overrides_from_json("{going_out_bonus: 200}")
    message = str(caught.value.messages[0])
    assert "line 1" in message and "double quotes" in message and "Expecting" not in message
    with pytest.raises(Exception, match="Unknown house rule"):
        house_rules.overrides_from_json('{"bonus": 1}')
    assert house_rules.overrides_from_json('{"rounds": 3}') == {"rounds": 3}


def test_decks_empty_means_players_plus_one():
    form = house_rules.HouseRulesForm(_post("six-deck", decks=""), preset="six-deck")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["overrides"] == {"decks": "players+1"}
    assert rules_to_dict(PRESETS["classic"])["decks"] == "players+1"

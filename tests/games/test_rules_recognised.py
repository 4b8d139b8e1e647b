"""A log or sheet played under the event's rules is recognised whatever form its `rules` take
(a preset name, preset plus overrides, or the event's own house rules as JSON); a real mismatch
names each rule that differs with both values in words. The director's "rules as JSON" is the
form a log's `rules` and `simulate --rules` take."""

import json
import subprocess
import sys

import pytest

from core.errors import Invalid
from games import services
from games.services import Entrant
from games.wording import table_words
from league.forms.house_rules import rules_from_text
from league.presets import rules_text
from tests.factories import EventFactory
from tests.games.factories import named_game, sheet, stockout_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    event = EventFactory(status="running", rules_preset="classic",
                         rules_overrides={"going_out_bonus": 250})
    return named_game(event=event)


def enter(game, document, key="k"):
    return services.submission_create(game=game, document=document,
                                      entrant=Entrant.for_side(game, 0), idempotency_key=key)


@pytest.mark.parametrize("rules", [
    {"preset": "classic", "overrides": {"going_out_bonus": 250}},
    {"going_out_bonus": 250},
    {"overrides": {"going_out_bonus": 250}},
])
def test_the_event_rules_in_any_form_are_recognised(game, rules):
    submission, created = enter(game, sheet(1, rules=rules))
    assert created and submission.document["rules"] == {"preset": "classic",
                                                         "overrides": {"going_out_bonus": 250}}


def test_a_real_mismatch_names_each_rule_and_both_values_in_words(game):
    with pytest.raises(Invalid) as refused:
        enter(game, sheet(1, rules={"preset": "classic", "overrides": {"going_out_bonus": 300,
                                                                       "red_three_bonus": 200}}))
    error = refused.value
    assert error.code == "RULES_MISMATCH"
    assert "the event plays 250, the score sheet says 300" in error.message
    assert "the event plays 100, the score sheet says 200" in error.message
    assert [(d["event"], d["document"]) for d in error.details["differences"]] == [
        ("100", "200"), ("250", "300")]  # in rules.md order: red 3 bonus, then going out
    words = table_words(code=error.code, message=error.message)
    assert "RULES_MISMATCH" not in words.text and "300" in words.text


def test_a_plain_preset_log_is_refused_naming_the_house_rule(game):
    log = stockout_log()
    log["rules"] = "classic"
    with pytest.raises(Invalid) as refused:
        enter(game, log)
    assert "the event plays 250, the move log says 100" in refused.value.message


def test_the_rules_box_shows_and_takes_what_a_log_and_simulate_take():
    text = rules_text(preset="classic", overrides={"going_out_bonus": 250})
    assert json.loads(text) == {"preset": "classic", "overrides": {"going_out_bonus": 250}}
    assert rules_from_text(text, preset="pagat") == ("classic", {"going_out_bonus": 250})
    assert rules_from_text('{"going_out_bonus": 250}', preset="classic") == (
        "classic", {"going_out_bonus": 250})
    assert rules_from_text('"eleven"', preset="classic") == ("eleven", {})
    done = subprocess.run(
        [sys.executable, "-m", "handfoot", "simulate", "--rules", text, "--players", "4",
         "--seed", "1", "--rounds", "1"], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stdout)["rules"] == json.loads(text)

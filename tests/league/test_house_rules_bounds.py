"""Issue 22, finding 11 (c): every number the house rules take is bounded. A 4,301-digit number
(past Python's int-string limit) in the JSON box, or any value of the wrong kind or out of its
range, is refused on the form in words naming the rule, never a 500; nothing is saved."""

import json

import pytest
from django.urls import reverse

from league.forms import house_rules
from league.forms.house_rules import rules_from_text
from league.models import Event
from tests.factories import EventFactory, MembershipFactory

HUGE = "9" * 4301


def _refusal(text: str) -> str:
    with pytest.raises(house_rules.forms.ValidationError) as caught:
        rules_from_text(text, preset="classic")
    return " ".join(caught.value.messages)


@pytest.mark.parametrize("p", [p for p in house_rules.PARAMETERS
                               if p.kind in ("int", "optional_int", "ints", "books")],
                         ids=lambda p: p.name)
def test_every_numeric_rule_has_a_range_that_the_page_shows(p):
    assert 0 <= p.least < p.most <= 5000
    assert f"{p.least:,} to {p.most:,}" in house_rules.range_words(p)


@pytest.mark.parametrize("text", [
    f'{{"going_out_bonus": {HUGE}}}', f'{{"preset": "classic", "overrides": {{"rounds": {HUGE}}}}}',
    f'{{"meld_minimums": [{HUGE}]}}', f'{{"book_bonus": {{"clean": -{HUGE}}}}}', f"[{HUGE}]",
])
def test_a_4301_digit_number_anywhere_in_the_box_is_refused_in_words(text):
    message = _refusal(text)
    assert "far too large for a house rule" in message and "4,301 digits" in message
    assert len(message) < 200


@pytest.mark.parametrize("rules,words", [
    ({"rounds": 9}, "Rounds in a game: give a whole number from 1 to 8, not 9."),
    ({"going_out_bonus": 100000}, "Bonus for going out: give a whole number from 0 to 5,000 points, not 100,000."),
    ({"going_out_bonus": -5}, "not -5"),
    ({"rounds": True}, "Rounds in a game: give a whole number from 1 to 8, not true."),
    ({"rounds": "3"}, 'not "3"'),
    ({"max_wilds": 11}, "from 0 to 10"),
    ({"decks": 0}, "Decks shuffled together: give a whole number from 1 to 12, not 0."),
    ({"meld_minimums": [50] * 9}, "give a list of 1 to 8 numbers, each 0 to 1,000"),
    ({"meld_minimums": [50, 2000]}, "from 0 to 1,000 points, not 2,000"),
    ({"book_bonus": {"clean": 9999}}, "Bonus per book (clean): give a whole number from 0 to 5,000"),
    ({"book_bonus": {"gold": 1}}, "give the clean, dirty and wild counts"),
    ({"upcard_forbidden": ["wild", "wild"]}, "each once"),
    ({"wild_melds": 1}, "write true or false"),
    ({"red_threes": "burn"}, "write one of"),
])
def test_a_value_of_the_wrong_kind_or_out_of_range_names_the_rule_and_its_range(rules, words):
    assert words in _refusal(json.dumps(rules))


@pytest.mark.parametrize("number", ["2.5", "1e3", "NaN", "Infinity", "-Infinity"])
def test_fractions_and_non_numbers_are_refused_in_words(number):
    assert "house rules take whole numbers" in _refusal(f'{{"rounds": {number}}}')


def test_deep_nesting_in_the_box_is_refused_in_words():
    for depth in (4_000, 200_000):
        message = _refusal("[" * depth + "]" * depth)
        assert "not readable as house rules" in message or "House rules are a list" in message


def test_values_in_range_still_pass():
    assert rules_from_text('{"going_out_bonus": 250, "meld_minimums": [50, 90, 120, 150], '
                           '"book_bonus": {"clean": 500, "dirty": 300, "wild": 1000}, '
                           '"decks": "players+1", "max_wilds": null}', preset="classic") == (
        "classic", {"going_out_bonus": 250, "meld_minimums": [50, 90, 120, 150],
                    "book_bonus": {"clean": 500, "dirty": 300, "wild": 1000},
                    "decks": "players+1", "max_wilds": None})


# --- on the page


@pytest.fixture
def event(db):
    return EventFactory(club=MembershipFactory(role="director").club,
                        status=Event.Status.REGISTRATION)


@pytest.fixture
def director_client(client, event):
    client.force_login(event.club.memberships.get().user)
    return client


def test_the_4301_digit_number_on_the_page_is_a_refusal_not_a_500(director_client, event):
    url = reverse("director-house-rules", args=[event.slug])
    page = director_client.post(url, {"advanced": "1", "rules_json": f'{{"going_out_bonus": {HUGE}}}'})
    assert page.status_code == 200
    assert "far too large for a house rule" in page.text
    event.refresh_from_db()
    assert event.rules_overrides == {}


@pytest.mark.parametrize("typed,words", [
    (HUGE, "Bonus for going out: give a whole number."),
    ("9" * 4000, "Bonus for going out must be from 0 to 5,000 points, not a number that large."),
])
def test_a_huge_number_typed_in_a_field_is_refused_in_words(director_client, event, typed, words):
    url = reverse("director-house-rules", args=[event.slug])
    page = director_client.get(url)
    data = {name: field.initial for name, field in page.context["form"].fields.items()
            if field.initial is not None}
    data["going_out_bonus"] = typed
    refused = director_client.post(url, data)
    assert refused.status_code == 200 and words in refused.text
    assert len(refused.text) < 200_000
    event.refresh_from_db()
    assert event.rules_overrides == {}


def test_a_superscript_digit_in_the_meld_minimums_is_refused_in_words(director_client, event):
    url = reverse("director-house-rules", args=[event.slug])
    page = director_client.get(url)
    data = {name: field.initial for name, field in page.context["form"].fields.items()
            if field.initial is not None}
    data["meld_minimums"] = "50, 9², 120, 150"
    refused = director_client.post(url, data)
    assert refused.status_code == 200 and "whole numbers separated by commas" in refused.text


def test_the_event_form_s_rules_box_refuses_the_huge_number_too(director_client, event):
    url = reverse("director-event-edit", args=[event.slug])
    form = director_client.get(url).context["form"]
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data["rules_overrides"] = f'{{"rounds": {HUGE}}}'
    page = director_client.post(url, {k: v for k, v in data.items() if not isinstance(v, list)})
    assert page.status_code == 200 and "far too large for a house rule" in page.text
    event.refresh_from_db()
    assert event.rules_overrides == {}

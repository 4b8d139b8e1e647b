import pytest

from handfoot import EngineError
from handfoot.cards import (
    card_value,
    deck_counts,
    full_deck,
    is_black_three,
    is_natural,
    is_red_three,
    is_wild,
    normalise,
    rank_of,
    suit_of,
)


def test_parse_and_normalise():
    assert normalise("10H") == "TH"
    assert normalise("JK") == "JK"
    assert rank_of("TH") == "T" and suit_of("TH") == "H" and suit_of("JK") is None
    with pytest.raises(EngineError) as exc:
        normalise("1H")
    assert exc.value.code == "BAD_FORMAT"


@pytest.mark.parametrize(
    ("card", "value"),
    [("JK", 50), ("2C", 20), ("AS", 20), ("KD", 10), ("8H", 10), ("7S", 5), ("4C", 5)],
)
def test_values(card, value):
    assert card_value(card) == value


def test_classes():
    assert is_wild("JK") and is_wild("2H") and not is_wild("3H")
    assert is_natural("4S") and not is_natural("3S") and not is_natural("2S")
    assert is_red_three("3H") and is_red_three("3D") and is_black_three("3C")


def test_deck_multiset():
    assert len(full_deck(5)) == 270
    counts = deck_counts(1)
    assert sum(counts) == 54 and counts[52] == 2

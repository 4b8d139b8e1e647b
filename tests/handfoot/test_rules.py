import pytest

from handfoot import (
    PRESETS,
    BookCounts,
    EngineError,
    rules_from_spec,
    rules_to_spec,
    side_score,
)
from handfoot.rules import rules_to_dict


def test_presets_table():
    c, p, s, k, e = (PRESETS[n] for n in ["classic", "pagat", "six-deck", "canasta", "eleven"])
    assert c.books_to_go_out == BookCounts(2, 2, 1) and p.books_to_go_out == BookCounts(1, 1, 1)
    assert s.decks == 6 and s.deck_count(4) == 6 and c.deck_count(4) == 5
    assert k.pickup_count == 5 and k.wild_upcard == "frozen" and not k.wild_melds
    assert k.meld_minimums == (60, 90, 120, 150) and k.red_three_penalty == 300
    assert e.hand_size == 11 and e.pickup_min_pile == 8 and e.black_three_penalty == 0
    assert s.first_meld_needs_clean and not s.replace_foot_red_threes
    assert c.max_wilds == 2 and s.max_wilds == 3 and p.max_wilds is None
    assert k.book_bonus.wild == 0 and c.book_bonus == BookCounts(500, 300, 1500)


def test_min_naturals():
    assert PRESETS["classic"].min_naturals_for(7) == 5
    assert PRESETS["pagat"].min_naturals_for(7) == 4
    assert PRESETS["six-deck"].min_naturals_for(7) == 4
    assert PRESETS["six-deck"].min_naturals_for(3) == 2


def test_overrides_round_trip():
    spec = {"preset": "pagat", "overrides": {"decks": "players+1", "max_wilds": None,
            "books_to_go_out": {"clean": 2, "dirty": 0, "wild": 0}, "hand_size": 11}}  # fmt: skip
    rules = rules_from_spec(spec)
    assert rules.hand_size == 11 and rules.books_to_go_out == BookCounts(2, 0, 0)
    assert rules_from_spec(rules_to_spec(rules)) == rules
    assert rules_to_spec(PRESETS["eleven"]) == "eleven"
    assert rules_to_dict(PRESETS["classic"])["decks"] == "players+1"


@pytest.mark.parametrize(
    "overrides",
    [
        {"hand_size": -1},
        {"bogus": 1},
        {"meld_minimums": [50, 90]},
        {"book_size": 2},
        {"wild_ratio": "lots"},
        {"permission": "yes"},
        {"upcard_forbidden": ["joker"]},
        {"books_to_go_out": {"clean": -1}},
        {"decks": 0},
    ],
)
def test_bad_overrides(overrides):
    with pytest.raises(EngineError) as exc:
        rules_from_spec({"preset": "classic", "overrides": overrides})
    assert exc.value.code == "BAD_RULES"
    assert exc.value.message


def test_unknown_preset():
    with pytest.raises(EngineError) as exc:
        rules_from_spec("poker")
    assert exc.value.code == "BAD_RULES"


def test_worked_example_scores():
    classic = PRESETS["classic"]
    ben = side_score(classic, clean_books=2, dirty_books=2, wild_books=1, red_threes=1,
                     table_points=555, held_points=0, went_out=True)
    other = side_score(classic, clean_books=1, red_threes=1, table_points=220, held_points=205)
    assert ben.score == 3855 and other.score == 615
    assert ben.to_dict()["books"]["wild"] == {"count": 1, "bonus": 1500}

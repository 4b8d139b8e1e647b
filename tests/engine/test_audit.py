"""Audit of the engine against rules.md and formats.md: one test per behaviour checked."""

from __future__ import annotations

import pytest

from games.engine import replay_log
from games.engine.cards import deck_counts
from games.engine.replay import play_events, read_table, start_round
from games.engine.rules import rules_from_spec
from games.engine.state import State
from tests.engine.builders import draw, make_log, meld


def state_after(log: dict) -> State:
    """The state after the first round's events (raises EngineError like replay does)."""
    table = read_table(log)
    rnd = log["rounds"][0]
    state = start_round(table, rnd, 1, None)
    play_events(state, rnd["events"])
    return state


def error_of(log: dict) -> tuple:
    r = replay_log(log)
    return ("valid",) if r.valid else (r.error.code, r.error.round, r.error.event)


KINGS13 = ["KS", "KH", "KD", "KC"] * 3 + ["KS"]


def test_book_target_and_a_new_book_of_the_same_rank_in_one_meld_event():
    # six-deck (book_growth: naturals): a K book and an open meld of six Ks; one event adds a
    # K to the book and closes the open meld into a second K book. Both changes must stand.
    events = [
        draw(0),
        meld(0, ("K", KINGS13[:7])),
        meld(0, ("K", KINGS13[7:13])),
        meld(0, ("K", ["KS"], "book"), ("K", ["KH"])),
    ]
    log = make_log("six-deck", hands=[KINGS13], stock_top=["KS", "KH"], events=events)
    state = state_after(log)
    sizes = sorted(len(b.cards) for b in state.books[0])
    assert sizes == [7, 8]
    assert state.book_counts[0] == [2, 0, 0]
    assert state.table_points[0] == 15 * 10
    assert state.cards_conserved() == deck_counts(6)


@pytest.mark.parametrize("name", ["book_bonus", "books_to_go_out"])
def test_book_count_overrides_need_clean_dirty_and_wild(name):
    # formats.md / the published schema: an object with clean, dirty, wild. A partial object
    # must not silently set the missing kinds to 0.
    with pytest.raises(Exception) as info:
        rules_from_spec({"preset": "classic", "overrides": {name: {"wild": 1000}}})
    assert info.value.code == "BAD_RULES"
    assert "clean, dirty and wild" in info.value.message
    full = {"clean": 400, "dirty": 200, "wild": 1000}
    rs = rules_from_spec({"preset": "classic", "overrides": {name: full}})
    assert getattr(rs, name).to_dict() == full


@pytest.mark.parametrize(
    ("rounds", "minimums"), [(3, [50, 90, 120]), (5, [50, 90, 120, 150, 150]), (1, [50])]
)
def test_rounds_alone_is_a_single_house_rule(rounds, minimums):
    # rules.md: a club "may override single parameters"; changing only the number of rounds
    # keeps the preset's meld minimums (cut short, or the last one repeated)
    rs = rules_from_spec({"preset": "classic", "overrides": {"rounds": rounds}})
    assert rs.rounds == rounds and list(rs.meld_minimums) == minimums
    # both given and disagreeing is still refused
    with pytest.raises(Exception) as info:
        rules_from_spec({"preset": "classic", "overrides": {"rounds": 3, "meld_minimums": [50]}})
    assert info.value.code == "BAD_RULES"


def test_open_melds_per_rank_is_not_a_house_rule():
    # formats.md lists no such override and the published schema refuses it; the engine must
    # not accept a house rule it would silently ignore
    for value in (1, 2):
        with pytest.raises(Exception) as info:
            rules_from_spec({"preset": "classic", "overrides": {"open_melds_per_rank": value}})
        assert info.value.code == "BAD_RULES"
        assert "open_melds_per_rank" in info.value.message

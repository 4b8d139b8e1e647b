"""Audit of the engine against rules.md and formats.md: one test per behaviour checked."""

from __future__ import annotations

import pytest

from handfoot import replay_log
from handfoot.cards import CARD_STR, PARSE, VALUE, deck_counts
from handfoot.replay import play_events, read_table, start_round
from handfoot.rules import rules_from_spec
from handfoot.state import State
from tests.handfoot.builders import STOCK_OUT, discard, draw, ev, make_log, meld


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
    full = {"clean": 4, "dirty": 2, "wild": 10}
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


# ----- verified behaviour, pinned down ---------------------------------------------------


def test_dealt_red_three_is_laid_before_the_draw_and_a_red_replacement_is_laid_too():
    log = make_log(hands=[["3H"]], stock_top=["3D", "7C", "5S", "6S"], events=[draw(0)])
    state = state_after(log)
    assert state.red3[0] == 2
    hand = state.hand_cards(0)
    assert "7C" in {CARD_STR[c] for c in hand}  # the replacement of the replacement
    assert {"5S", "6S"} <= {CARD_STR[c] for c in hand}  # then the draw
    assert state.hand_n[0] == 13 + 2  # each laid red 3 was replaced


def test_black_three_blocks_only_the_next_player():
    hand2 = ["KS", "KH", "QS", "QH", "QD", "QC"]
    take2 = ev(2, "pickup", pair=["KS", "KH"], melds=[{"rank": "Q", "cards": hand2[2:]}])
    stock = ["5S", "6S", "5D", "6D", "7S", "7D"]
    hands = [["3S"], ["KS", "KH", "QS", "QH", "QD", "QC"], hand2]
    blocked = [draw(0), discard(0, "3S"), ev(1, "pickup", pair=["KS", "KH"])]
    log = make_log(hands=hands, stock_top=stock, events=blocked)
    code, _, event = error_of(log)
    assert (code, event) == ("PICKUP_NOT_ALLOWED", 2)
    assert "3" in replay_log(log).error.message
    after = [draw(0), discard(0, "3S"), draw(1), discard(1, "KD"), take2, discard(2, "3S")]
    log = make_log(hands=[["3S"], ["KD"], hand2], stock_top=stock, events=after)
    assert error_of(log)[0] == "ROUND_NOT_OVER"  # seat 2 took the pile (with the 3S in it)


@pytest.mark.parametrize(
    ("rules", "pair", "code"),
    [
        ("six-deck", ["2D", "JK"], "ROUND_NOT_OVER"),  # any_wilds
        ("classic", ["2D", "JK"], "PICKUP_NOT_ALLOWED"),  # same_wild: 2s take a 2
        ("classic", ["2D", "2H"], "ROUND_NOT_OVER"),
        ("canasta", ["2D", "2H"], "PICKUP_NOT_ALLOWED"),  # frozen by the discarded wild
    ],
)
def test_wild_upcard(rules, pair, code):
    events = [draw(0), discard(0, "2C"), ev(1, "pickup", pair=pair), discard(1, "9H")]
    log = make_log(rules, hands=[["2C"], ["2D", "2H", "JK", "9H"]], events=events)
    assert error_of(log)[0] == code


def test_pickup_takes_fewer_cards_when_the_pile_is_small():
    hand = ["KS", "KH", "QS", "QH", "QD", "QC"]
    take = ev(0, "pickup", pair=["KS", "KH"], melds=[{"rank": "Q", "cards": hand[2:]}])
    log = make_log(hands=[hand], discard=["5C", "KD"], events=[take])
    state = state_after(log)
    assert state.pile == []
    assert state.hand_n[0] == 13 - 6 + 1  # the 5C joined the hand; the KD went to the meld
    assert state.hands[0][PARSE["5C"]] >= 1
    assert state.facts[0][3] == 2  # cards taken from the pile


def _one_card_left_log(events_on_foot):
    rules = {
        "preset": "classic",
        "overrides": {
            "foot_size": 2,
            "partner_condition": "none",
            "books_to_go_out": {"clean": 2, "dirty": 0, "wild": 0},
        },
    }
    hand = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "QC", "QS", "QD"]
    first = [draw(0), meld(0, ("K", hand[:7]), ("Q", hand[7:13] + ["QH"])), discard(0, "5C")]
    rest = [draw(1), discard(1, "4H"), draw(2), discard(2, "6H"), draw(3), discard(3, "8H")]
    return make_log(
        rules,
        hands=[hand, ["4H"], ["6H"], ["8H"]],
        feet=[["8S", "8D"]],
        stock_top=["QH", "5C", "9S", "9S", "9D", "9D", "9C", "9C", "8H", "4C"],
        events=first + rest + [draw(0), *events_on_foot],
    )


def test_a_meld_may_not_leave_one_card_on_the_foot_without_permission():
    log = _one_card_left_log([meld(0, ("8", ["8H", "8S", "8D"])), discard(0, "4C")])
    r = replay_log(log)
    assert (r.error.code, r.error.event) == ("CANNOT_GO_OUT", 10)  # the meld, not the discard
    assert "1 card" in r.error.message and "yes" in r.error.message
    # a discard that keeps a card on the foot is always allowed
    log = _one_card_left_log([discard(0, "4C"), draw(1)])
    assert error_of(log)[0] == "ROUND_NOT_OVER"
    ask = ev(0, "ask_go_out", answer="yes")
    log = _one_card_left_log([ask, meld(0, ("8", ["8H", "8S", "8D"])), discard(0, "4C")])
    r = replay_log(log)
    assert r.valid and r.rounds[0].went_out_seat == 0


def test_ten_written_10_is_normalised_in_deals_and_melds():
    hand = ["10H", "10S", "10D", "AS", "AH", "AD", "9H"]
    events = [draw(0), meld(0, ("10", ["10H", "TS", "10D"]), ("A", ["AS", "AH", "AD"]))]
    log = make_log(hands=[[c.replace("10", "T") for c in hand]], events=events)
    log["rounds"][0]["deal"]["hands"][0][:7] = hand
    state = state_after(log)
    tens = state.open[0][PARSE["TH"] // 4]
    assert sorted(CARD_STR[c] for c in tens.cards) == ["TD", "TH", "TS"]
    assert state.table_points[0] == 30 + 60


def test_held_points_count_the_unplayed_foot_and_threes_at_their_penalties():
    rules = {"preset": "classic", "overrides": STOCK_OUT}  # the first draw ends it
    log = make_log(rules, hands=[[], [], ["3H", "3S"]], feet=[[], ["3D", "3C", "JK"]], events=[draw(0)])
    r = replay_log(log)
    assert r.valid and r.rounds[0].ended_by == "stock_out"
    deal = log["rounds"][0]["deal"]

    def held(cards):
        pen = {"3H": 100, "3D": 100, "3S": 5, "3C": 5}
        return sum(pen.get(c, VALUE[PARSE[c]]) for c in cards)

    for seat in (1, 2, 3):  # never had a turn: dealt red 3s are still held
        facts = r.rounds[0].seats[seat]
        assert facts.held_points == held(deal["hands"][seat] + deal["feet"][seat])
    sides = r.rounds[0].sides
    assert all(s.going_out_bonus == 0 for s in sides)
    assert sides[1].held_points == r.rounds[0].seats[1].held_points + r.rounds[0].seats[3].held_points


@pytest.mark.parametrize(("rules", "replaced"), [("six-deck", False), ("classic", True)])
def test_foot_red_threes_are_laid_at_once_and_replaced_only_if_the_rules_say(rules, replaced):
    if rules == "six-deck":  # 15 Ks: a book of 7 and a book of 8 (book_growth: naturals)
        hand, stock = KINGS13, ["KS", "KH"]
        melds = [("K", KINGS13[:7]), ("K", KINGS13[7:] + stock)]
    else:
        hand = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD"]
        stock = ["QC", "JC"]
        melds = [("K", hand[:7]), ("Q", [*hand[7:10], "QC"]), ("J", [*hand[10:], "JC"])]
    log = make_log(
        rules,
        hands=[hand],
        feet=[["3H", "3D"]],
        stock_top=[*stock, "4S", "4H"],
        events=[draw(0), meld(0, *melds)],
    )
    state = state_after(log)
    assert state.on_foot[0] and state.red3[0] == 2
    assert state.hand_n[0] == (13 if replaced else 11)
    assert state.phase == 1  # the turn goes on from the foot

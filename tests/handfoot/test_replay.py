"""Each rule and each error code, on small hand-built logs."""

import json

import pytest

from handfoot import replay_log
from tests.handfoot.builders import STOCK_OUT, discard, draw, ev, make_log, make_round, meld

KINGS = ["KS", "KH", "KD"]


def code_of(log) -> tuple:
    r = replay_log(log)
    if r.valid:
        return ("valid",)
    e = r.error
    return (e.code, e.round, e.event)


def one_turn_log(events, hand=None, stock_top=("5S", "6S"), **kw):
    return make_log(hands=[hand or []], stock_top=list(stock_top), events=events, **kw)


def test_not_json_is_bad_format():
    assert code_of(b"{not json")[0] == "BAD_FORMAT"
    assert code_of("[]")[0] == "BAD_FORMAT"


def test_unknown_format_and_card():
    log = make_log(events=[draw(0)])
    log["format"] = "hand-and-foot-log/9"
    assert code_of(log)[0] == "BAD_FORMAT"
    assert code_of(one_turn_log([draw(0), discard(0, "ZZ")]))[:3] == ("BAD_FORMAT", 1, 1)


def test_ten_written_as_10():
    log = one_turn_log([draw(0), discard(0, "10S"), draw(1)], hand=["TS"])
    assert replay_log(log).error.code == "ROUND_NOT_OVER"


def test_bad_rules_and_seats():
    for bad in [
        "poker",
        {"preset": "classic", "overrides": {"hand_size": -1}},
        {"preset": "classic", "overrides": {"colour": 1}},
    ]:
        log = make_log()
        log["rules"] = bad
        assert code_of(log)[0] == "BAD_RULES"
    log = make_log(players=4)
    log["play"], log["sides"] = "partnerships", 3
    assert code_of(log)[0] == "BAD_SEATS"
    log = make_log(players=4)
    log["seats"] = ["solo"]
    assert code_of(log)[0] == "BAD_SEATS"


def test_bad_deal():
    log = make_log(events=[draw(0)])
    log["rounds"][0]["deal"]["stock"].pop()
    assert code_of(log)[:3] == ("BAD_DEAL", 1, None)
    log = make_log(discard=["JK"])
    assert code_of(log)[0] == "BAD_DEAL"
    log = make_log(rules="canasta", discard=["3S"])
    assert code_of(log)[0] == "BAD_DEAL"


def test_wrong_dealer():
    r1 = make_round(events=[], round_no=1)
    r2 = make_round(round_no=2, dealer=2)
    assert code_of(make_log(rounds=[r1, r2]))[:2] in {("ROUND_NOT_OVER", 1)}
    stock_out = {"rules": {"preset": "classic", "overrides": STOCK_OUT}}
    r1 = make_round(stock_out["rules"], events=[draw(0)], round_no=1)
    r2 = make_round(stock_out["rules"], round_no=2, dealer=2, events=[draw(1)])
    assert code_of(make_log(stock_out["rules"], rounds=[r1, r2]))[:2] == ("WRONG_DEALER", 2)


def test_not_your_turn_and_wrong_phase():
    assert code_of(one_turn_log([draw(1)]))[:3] == ("NOT_YOUR_TURN", 1, 0)
    assert code_of(one_turn_log([discard(0, "5S")]))[0] == "WRONG_PHASE"
    assert code_of(one_turn_log([draw(0), draw(0)]))[0] == "WRONG_PHASE"
    assert code_of(one_turn_log([meld(0, ("K", KINGS))], hand=KINGS))[0] == "WRONG_PHASE"


def test_card_not_held_counts_duplicates():
    # the filler gives seat 0 spades and AH, never a club or a second KH
    log = one_turn_log([draw(0), discard(0, "KC"), draw(1)], hand=["KH"])
    assert code_of(log)[:3] == ("CARD_NOT_HELD", 1, 1)
    events = [draw(0), meld(0, ("K", ["KH", "KH", "KH", "KD"]))]
    assert code_of(one_turn_log(events, hand=["KH", "KH", "KD", "KD"]))[0] == "CARD_NOT_HELD"


def test_first_laydown_minimum_and_meld_errors():
    hand = ["KS", "KH", "KD", "KC", "QS", "QH", "QD", "4S", "4H", "2C", "2D", "JK", "JK"]
    ok = [draw(0), meld(0, ("K", ["KS", "KH", "KD", "KC"]), ("Q", ["QS", "QH", "QD"]))]
    assert code_of(one_turn_log([*ok, discard(0, "5S"), draw(1)], hand=hand))[0] == "ROUND_NOT_OVER"
    small = [draw(0), meld(0, ("K", ["KS", "KH"]))]
    assert code_of(one_turn_log(small, hand=hand))[0] == "MELD_TOO_SMALL"
    mixed = [draw(0), meld(0, ("K", ["KS", "KH", "QS"]))]
    assert code_of(one_turn_log(mixed, hand=hand))[0] == "MELD_MIXED_RANKS"
    too_wild = [draw(0), meld(0, ("K", ["KS", "KH", "2C", "2D"]))]
    assert code_of(one_turn_log(too_wild, hand=hand))[0] == "MELD_TOO_MANY_WILDS"
    below = [draw(0), meld(0, ("4", ["4S", "4H", "2C"]))]
    assert code_of(one_turn_log(below, hand=hand))[0] == "BELOW_MINIMUM"


def test_meld_event_is_atomic():
    hand = ["KS", "KH", "KD", "KC", "QS", "QH"]
    events = [
        draw(0),
        meld(0, ("K", ["KS", "KH", "KD", "KC"]), ("Q", ["QS", "QH"])),
        discard(0, "KS"),
    ]
    r = replay_log(one_turn_log(events, hand=hand))
    assert r.error.code == "MELD_TOO_SMALL" and r.error.event == 1


@pytest.mark.parametrize(
    ("preset", "wilds", "naturals", "ok"),
    [
        ("classic", 2, 4, True),
        ("classic", 2, 3, False),  # 2:1 ratio
        ("classic", 3, 6, False),  # at most 2 wilds
        ("pagat", 2, 3, True),
        ("pagat", 3, 3, False),  # more naturals than wilds
        ("six-deck", 3, 2, True),  # two naturals is enough
        ("six-deck", 4, 3, False),  # at most 3 wilds
    ],
)
def test_wild_limits(preset, wilds, naturals, ok):
    nats = ["KS", "KH", "KD", "KC", "KS", "KH"][:naturals]
    wild_cards = ["JK", "2C", "2D", "2H"][:wilds]
    hand = nats + wild_cards + ["QS", "QH", "QD"]
    events = [draw(0), meld(0, ("K", nats + wild_cards), ("Q", ["QS", "QH", "QD"]))]
    if preset == "six-deck":
        events = [draw(0), meld(0, ("Q", ["QS", "QH", "QD"]), ("K", nats + wild_cards))]
    result = code_of(one_turn_log(events, hand=hand, rules=preset))
    assert (result[0] != "MELD_TOO_MANY_WILDS") is ok, result


def test_wild_meld_not_allowed_in_canasta():
    hand = ["JK", "JK", "2C", "KS", "KH", "KD"]
    events = [draw(0), meld(0, ("wild", ["JK", "JK", "2C"]))]
    assert code_of(one_turn_log(events, hand=hand, rules="canasta"))[0] == "WILD_MELD_NOT_ALLOWED"


def _book_then(rules, extra_item):
    hand = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "KC", "QS"]
    events = [draw(0), meld(0, ("K", hand[:7])), meld(0, extra_item)]
    return one_turn_log(events, hand=hand, rules=rules)


def test_book_growth():
    assert code_of(_book_then("classic", ("K", ["KC"], "book")))[0] == "BOOK_CLOSED"
    assert code_of(_book_then("canasta", ("K", ["KC"], "book")))[0] == "ROUND_NOT_OVER"
    r = replay_log(_book_then("canasta", ("K", ["KC"], "book")))
    assert r.error.event is None
    # without a target the K starts a new meld, which is too small
    assert code_of(_book_then("canasta", ("K", ["KC"])))[0] == "MELD_TOO_SMALL"


def test_illegal_discard_red_three_under_lay():
    events = [draw(0), discard(0, "3H")]
    assert code_of(one_turn_log(events, hand=["3H"]))[0] == "ILLEGAL_DISCARD"


def test_red_threes_laid_and_replaced():
    # dealt red 3 is laid before the first draw and replaced by the stock top
    events = [draw(0), discard(0, "7C"), draw(1)]
    log = one_turn_log(events, hand=["3H"], stock_top=["7C", "5S", "6S"])
    state_log = replay_log(log)
    assert state_log.error.code == "ROUND_NOT_OVER"  # 7C replaced the 3H and could be discarded


def test_hold_red_three_is_discarded_and_penalised():
    rules = {"preset": "canasta", "overrides": STOCK_OUT}
    log = one_turn_log([draw(0)], hand=["3H", "3S"], stock_top=["5S"], rules=rules)
    r = replay_log(log)
    assert r.valid and r.rounds[0].ended_by == "stock_out"
    seat0 = r.rounds[0].seats[0]
    assert seat0.held_points >= 300 + 100


def test_pile_rules():
    hand = ["KS", "KH", "QS", "QH", "QD", "QC"]
    take = ev(
        0, "pickup", pair=["KS", "KH"], melds=[{"rank": "Q", "cards": ["QS", "QH", "QD", "QC"]}]
    )
    assert (
        code_of(one_turn_log([take, discard(0, "9S")], hand=hand, discard=["KD"]))[0]
        == "ROUND_NOT_OVER"
    )
    # black 3 on top blocks the pile
    assert code_of(one_turn_log([take], hand=hand, discard=["KD", "3S"]))[0] == "PICKUP_NOT_ALLOWED"
    # the pickup alone would be below the minimum
    bare = ev(0, "pickup", pair=["KS", "KH"])
    assert code_of(one_turn_log([bare], hand=hand, discard=["KD"]))[0] == "BELOW_MINIMUM"
    # pile minimum size (eleven: 8 cards)
    assert (
        code_of(one_turn_log([take], hand=hand, discard=["KD"], rules="eleven"))[0]
        == "PICKUP_NOT_ALLOWED"
    )
    # pair must match the upcard
    wrong = ev(0, "pickup", pair=["QS", "QH"])
    assert code_of(one_turn_log([wrong], hand=hand, discard=["KD"]))[0] == "PICKUP_NOT_ALLOWED"


def test_pickup_minimum_counts_only_upcard_and_hand_cards():
    # 3 Aces = 60 >= 50 only with the upcard A; the other pile cards don't count
    hand = ["AS", "AH"]
    take = ev(0, "pickup", pair=["AS", "AH"])
    assert (
        code_of(one_turn_log([take, discard(0, "KD")], hand=hand, discard=["KD", "AD"]))[0]
        == "ROUND_NOT_OVER"
    )
    hand = ["KS", "KH"]
    take = ev(0, "pickup", pair=["KS", "KH"])
    pile = ["AS", "AH", "JK", "JK", "KD"]
    assert code_of(one_turn_log([take], hand=hand, discard=pile))[0] == "BELOW_MINIMUM"


def test_frozen_pile_in_canasta():
    rules = "canasta"
    hand0 = ["2C", "5S"]
    hand1 = ["KS", "KH", "QS", "QH", "QD", "QC", "AS", "AH", "AD"]
    take = ev(
        1, "pickup", pair=["KS", "KH"], melds=[{"rank": "Q", "cards": ["QS", "QH", "QD", "QC"]}]
    )
    log = make_log(
        rules,
        hands=[hand0, hand1],
        stock_top=["KD", "4C"],
        discard=["9C"],
        events=[draw(0), discard(0, "2C"), draw(1), discard(1, "KD"), draw(2), discard(2, "KD")],
    )
    assert replay_log(log).error.code in {"CARD_NOT_HELD", "ROUND_NOT_OVER"}
    events = [draw(0), discard(0, "2C"), take]
    log = make_log(rules, hands=[hand0, hand1], stock_top=["8C", "4C"], events=events)
    assert code_of(log)[0] == "PICKUP_NOT_ALLOWED"


STOCK8 = ["4D", "4C", "5D", "5C", "6D", "6C", "7D", "7C"]


def test_pair_or_meld_adds_upcard_to_open_meld():
    hand0 = ["KS", "KH", "KD", "QS", "QH", "QD", "9D"]
    events = [
        draw(0),
        meld(0, ("K", ["KS", "KH", "KD"]), ("Q", ["QS", "QH", "QD"])),
        discard(0, "9D"),
        draw(1),
        discard(1, "KC"),
        draw(2),
        discard(2, "5C"),
        draw(3),
        discard(3, "KC"),
        ev(0, "pickup", pair=[]),
    ]
    hand1, hand3 = ["KC"], ["KC"]
    log = make_log("pagat", hands=[hand0, hand1, ["5C"], hand3], stock_top=STOCK8, events=events)
    assert code_of(log)[0] == "ROUND_NOT_OVER"
    log = make_log("classic", hands=[hand0, hand1, ["5C"], hand3], stock_top=STOCK8, events=events)
    assert code_of(log)[0] == "PICKUP_NOT_ALLOWED"


def _foot_log(rules, extra_events, foot0=None):
    """Seat 0 melds its whole 13-card hand at once and goes to the foot."""
    hand = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "QC", "QS", "QH"]
    events = [draw(0), meld(0, ("K", hand[:7]), ("Q", hand[7:] + ["QD"]))]
    return make_log(
        rules,
        hands=[hand],
        feet=[foot0 or []],
        stock_top=["QD", "9H"],
        events=events + extra_events,
    )


def test_going_to_foot_by_melding_continues_turn():
    rules = {"preset": "classic", "overrides": {"book_size": 7}}
    log = _foot_log(rules, [discard(0, "9H"), draw(1)], foot0=["AS"])
    r = replay_log(log)
    assert r.error.code == "ROUND_NOT_OVER"


def test_going_to_foot_by_discarding():
    hand = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "QC", "QS", "QH"]
    events = [
        draw(0),
        meld(0, ("K", hand[:7]), ("Q", hand[7:] + ["QD"])),
        discard(0, "9H"),
        draw(1),
    ]
    log = make_log(hands=[hand], stock_top=["QD", "9H"], events=events)
    assert replay_log(log).error.code == "ROUND_NOT_OVER"


def test_cannot_go_out_without_books_and_permission():
    rules = {"preset": "classic", "overrides": {"foot_size": 2, "partner_condition": "none"}}
    hand = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "QC", "QS", "QD"]
    first = [draw(0), meld(0, ("K", hand[:7]), ("Q", hand[7:13] + ["QH"])), discard(0, "5C")]
    rest = [
        draw(1),
        discard(1, "4H"),
        draw(2),
        discard(2, "6H"),
        draw(3),
        discard(3, "8H"),
        draw(0),
    ]
    go = [meld(0, ("8", ["8H", "8S", "8D"])), discard(0, "4C")]
    log = make_log(
        rules,
        hands=[hand, ["4H"], ["6H"], ["8H"]],
        feet=[["8S", "8D"]],
        stock_top=["QH", "5C", "9S", "9S", "9D", "9D", "9C", "9C", "8H", "4C"],
        events=first + rest + go,
    )
    # books 2 clean only, classic needs 2/2/1
    assert code_of(log)[0] == "CANNOT_GO_OUT"
    rules["overrides"]["books_to_go_out"] = {"clean": 2, "dirty": 0, "wild": 0}
    log["rules"] = rules
    assert code_of(log)[0] == "CANNOT_GO_OUT"  # no permission asked
    log["rounds"][0]["events"] = first + rest + [ev(0, "ask_go_out", answer="no"), *go]
    assert code_of(log)[0] == "CANNOT_GO_OUT"
    log["rounds"][0]["events"] = first + rest + [ev(0, "ask_go_out", answer="yes"), *go]
    r = replay_log(log)
    assert r.valid, r.error
    assert r.rounds[0].ended_by == "went_out" and r.rounds[0].went_out_seat == 0
    assert r.rounds[0].sides[0].going_out_bonus == 100
    log["rounds"][0]["events"].append(draw(1))
    assert code_of(log)[0] == "ROUND_OVER"


def test_partner_condition_played_foot():
    rules = {
        "preset": "classic",
        "overrides": {"foot_size": 2, "books_to_go_out": {"clean": 2, "dirty": 0, "wild": 0}},
    }
    hand = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD", "QC", "QS", "QD"]
    events = [
        draw(0),
        meld(0, ("K", hand[:7]), ("Q", hand[7:13] + ["QH"])),
        discard(0, "5C"),
        draw(1),
        discard(1, "4H"),
        draw(2),
        discard(2, "6H"),
        draw(3),
        discard(3, "8H"),
        draw(0),
        ev(0, "ask_go_out", answer="yes"),
        meld(0, ("8", ["8H", "8S", "8D"])),
    ]
    log = make_log(
        rules,
        hands=[hand, ["4H"], ["6H"], ["8H"]],
        feet=[["8S", "8D"]],
        stock_top=["QH", "5C", "9S", "9S", "9D", "9D", "9C", "9C", "8H", "4C"],
        events=events,
    )
    assert code_of(log)[0] == "CANNOT_GO_OUT"


def test_stock_out_ends_round_and_late_events():
    rules = {"preset": "classic", "overrides": STOCK_OUT}
    log = make_log(rules, events=[draw(0)])
    r = replay_log(log)
    assert r.valid and r.rounds[0].ended_by == "stock_out"
    assert all(not s.went_out and s.going_out_bonus == 0 for s in r.rounds[0].sides)
    log = make_log(rules, events=[draw(0), draw(1)])
    assert code_of(log)[:3] == ("ROUND_OVER", 1, 1)


def test_round_not_over_and_score_mismatch():
    assert code_of(make_log(events=[draw(0)]))[0] == "ROUND_NOT_OVER"
    rules = {"preset": "classic", "overrides": STOCK_OUT}
    log = make_log(rules, events=[draw(0)])
    scores = replay_log(log).rounds[0].scores
    log["rounds"][0]["reported"] = {"scores": scores}
    assert replay_log(log).valid
    log["rounds"][0]["reported"] = {"scores": [scores[0] + 5, scores[1]]}
    r = replay_log(log)
    assert r.error.code == "SCORE_MISMATCH"
    assert str(scores[0]) in r.error.message and str(scores[0] + 5) in r.error.message


def test_rounds_out_of_order():
    rules = {"preset": "classic", "overrides": STOCK_OUT}
    r2 = make_round(rules, events=[draw(0)], round_no=2)
    assert code_of(make_log(rules, rounds=[r2]))[0] == "BAD_FORMAT"


def test_replay_never_raises_on_garbage():
    for junk in [
        None,
        5,
        "null",
        b"\xff",
        {"format": "hand-and-foot-log/1"},
        json.dumps({"rounds": 1}),
    ]:
        r = replay_log(junk)
        assert not r.valid and r.error.code

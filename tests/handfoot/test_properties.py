"""Property tests: simulated games replay valid, cards are conserved, mutations never crash."""

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot import replay_log
from handfoot.cards import PARSE, deck_counts
from handfoot.moves import apply_move, move_from_event
from handfoot.simulate import simulate_game

from .builders import state_from_deal

PRESETS = ["classic", "pagat", "six-deck", "canasta", "eleven"]
TABLES = [(2, None, False), (3, None, False), (4, None, False), (5, None, False),
          (6, 2, False), (6, 3, False), (4, None, True)]  # fmt: skip

fast = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


@fast
@given(
    preset=st.sampled_from(PRESETS),
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10_000),
    strategy=st.sampled_from(["greedy", "random"]),
)
def test_simulated_games_replay_valid_and_stable(preset, table, seed, strategy):
    players, sides, individual = table
    log = simulate_game(preset, players, sides=sides, seed=seed, rounds=1,
                        individual=individual, strategy=strategy)  # fmt: skip
    first = replay_log(log)
    assert first.valid, first.error
    again = replay_log(json.dumps(log))
    assert again.to_dict() == first.to_dict()
    assert simulate_game(preset, players, sides=sides, seed=seed, rounds=1,
                         individual=individual, strategy=strategy) == log  # fmt: skip


@fast
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10_000))
def test_cards_conserved_at_every_step(preset, seed):
    log = simulate_game(preset, 4, seed=seed, rounds=1, strategy="random")
    rnd = log["rounds"][0]
    deal = rnd["deal"]
    from handfoot.rules import rules_from_spec

    rules = rules_from_spec(log["rules"])
    state = state_from_deal(rules, rnd["dealer"], 2, deal)
    full = deck_counts(rules.deck_count(4))
    for ev in rnd["events"]:
        seat, move = move_from_event(ev)
        apply_move(state, seat, move)
        counts = state.cards_conserved()
        red3 = counts[PARSE["3H"]] + counts[PARSE["3D"]] + sum(state.red3)
        assert red3 == full[PARSE["3H"]] * 2
        counts[PARSE["3H"]] = counts[PARSE["3D"]] = full[PARSE["3H"]]
        assert counts == full


BASE = simulate_game("classic", 4, seed=7, rounds=2)
BASE_CANASTA = simulate_game("canasta", 4, seed=3, rounds=1)


def _mutate(log, data):
    log = copy.deepcopy(log)
    rnd = data.draw(st.sampled_from(log["rounds"]))
    events = rnd["events"]
    kind = data.draw(st.sampled_from(
        ["drop", "dup", "swap", "card", "seat", "field", "truncate", "type", "deal", "header",
         "extra", "number"]))  # fmt: skip
    i = data.draw(st.integers(0, len(events) - 1))
    if kind == "drop":
        del events[i]
    elif kind == "dup":
        events.insert(i, copy.deepcopy(events[i]))
    elif kind == "swap":
        j = data.draw(st.integers(0, len(events) - 1))
        events[i], events[j] = events[j], events[i]
    elif kind == "card":
        card = data.draw(st.sampled_from(["AS", "JK", "3H", "3S", "10H", "XX", 5, None]))
        ev = events[i]
        if "card" in ev:
            ev["card"] = card
        elif ev.get("melds"):
            ev["melds"][0]["cards"][0] = card
        elif "pair" in ev and ev["pair"]:
            ev["pair"][0] = card
    elif kind == "seat":
        events[i]["seat"] = data.draw(st.sampled_from([0, 1, 2, 3, 4, -1, "0", None]))
    elif kind == "field":
        key = data.draw(st.sampled_from(["melds", "pair", "answer", "card", "type"]))
        events[i][key] = data.draw(st.sampled_from([[], {}, "yes", None, [{"rank": "Z"}], 3]))
    elif kind == "truncate":
        del events[i:]
    elif kind == "type":
        events[i]["type"] = data.draw(st.sampled_from(["draw", "discard", "meld", "pickup", "x"]))
    elif kind == "deal":
        part = data.draw(st.sampled_from(["stock", "discard"]))
        rnd["deal"][part] = rnd["deal"][part][::-1][: data.draw(st.integers(0, 5))]
    elif kind == "extra":  # an unknown field, with a value jsonb could not store
        events[i][data.draw(st.sampled_from(["note", "x\x00", "cards"]))] = data.draw(
            st.sampled_from(["a\x00b", float("nan"), 10**30, None]))
    elif kind == "number":  # hostile numbers where numbers belong
        target = data.draw(st.sampled_from([rnd, events[i]]))
        key = "dealer" if target is rnd else "seat"
        target[key] = data.draw(st.sampled_from([10**12, -(10**12), float("nan"), float("inf"), 2.0]))
    else:
        key = data.draw(st.sampled_from(["rules", "seats", "play", "sides", "format", "rounds"]))
        log[key] = data.draw(st.sampled_from([None, 3, "x", [], {"preset": "zzz"}, ["a"]]))
    return log


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(base=st.sampled_from([BASE, BASE_CANASTA]), data=st.data())
def test_mutations_give_a_result_or_a_coded_error(base, data):
    log = _mutate(base, data)
    r = replay_log(log)
    if not r.valid:
        assert r.error.code, r.error
        assert r.error.code != "INTERNAL_ERROR", r.error  # a mutated log is never an engine bug
    d = r.to_dict()
    json.dumps(d)

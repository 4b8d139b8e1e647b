"""The fast paths of State.meld and State.pickup must give exactly what the general path gives."""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot import replay, replay_log
from handfoot.errors import EngineError, ErrorCode
from handfoot.simulate import simulate_game
from handfoot.state import State


def _reference_play_events(state, events):
    """The event loop without its fast reading: every event's fields checked and read by
    `_play_other` (parse_items for every meld)."""
    i = -1
    try:
        for i, ev in enumerate(events):  # noqa: B007 - i is read in the handler
            if type(ev) is not dict:
                raise EngineError(ErrorCode.BAD_FORMAT, "an event must be an object")
            seat = ev.get("seat")
            if type(seat) is not int:
                raise EngineError(ErrorCode.BAD_FORMAT, "an event needs a whole-number seat")
            if state.over:
                raise EngineError(ErrorCode.ROUND_OVER, "the round was already over before this event")
            replay._play_other(state, seat, ev.get("type"), ev)
    except EngineError as err:
        err.event = i
        raise


def _general_only(monkeypatch):
    """Every fast path off: the replay loop's reading of events, State.meld_one, and the
    fast paths of State.meld and State.pickup."""
    monkeypatch.setattr(State, "_simple_items", lambda self, hand, open_, items: None)
    monkeypatch.setattr(State, "meld_one", lambda self, seat, key, ids: self.meld(seat, [(key, ids, 0)]))
    monkeypatch.setattr(replay, "play_events", _reference_play_events)


def _outcome(log):
    return replay_log(log).to_dict()  # rounds with every seat's facts, or the error


@pytest.mark.parametrize("preset", ["classic", "pagat", "six-deck", "canasta", "eleven"])
@pytest.mark.parametrize("strategy", ["greedy", "random"])
@pytest.mark.parametrize("players", [3, 4, 6])
def test_fast_path_matches_general_path(preset, strategy, players, monkeypatch):
    logs = [simulate_game(preset, players, seed=s, rounds=2, strategy=strategy) for s in range(3)]
    fast = [_outcome(log) for log in logs]
    _general_only(monkeypatch)
    assert [_outcome(log) for log in logs] == fast


BASE = simulate_game("classic", 4, seed=3, rounds=1)
MELD_SPOTS = [i for i, ev in enumerate(BASE["rounds"][0]["events"]) if ev["type"] == "meld"]


def _drop(ev, items, item, card):  # a meld of several items one item shorter, or one card
    if len(items) > 1:
        items.remove(item)
    else:
        item["cards"].pop()


def _set(**fields):
    return lambda ev, items, item, card: item.update(fields)


MELD_BREAKS = {
    "replace": lambda ev, items, item, card: item["cards"].__setitem__(0, card),
    "add": lambda ev, items, item, card: item["cards"].append(card),
    "rank": lambda ev, items, item, card: item.update(rank="wild" if item["rank"] != "wild" else "K"),
    "target": _set(target="book"),
    "repeat": lambda ev, items, item, card: items.append(copy.deepcopy(item)),
    "drop": _drop,
    # one item's cards as one item each: several items of one rank
    "split": lambda ev, items, item, card: items.__setitem__(
        slice(None), [{"rank": item["rank"], "cards": [c]} for c in item["cards"]]),
    "field": lambda ev, items, item, card: item.update(note=card),
    "no_cards": _set(cards=[]),
    "cards_text": lambda ev, items, item, card: item.update(cards=card),
    "not_object": lambda ev, items, item, card: items.__setitem__(items.index(item), card),
    "bad_rank": _set(rank="3"),
    "bad_target": _set(target="meld"),
    "no_rank": lambda ev, items, item, card: item.pop("rank"),
    "melds_empty": lambda ev, items, item, card: ev.update(melds=[]),
    "melds_object": lambda ev, items, item, card: ev.update(melds=item),
    # a Python caller's tuple, not a list: refused as the general path refuses it
    "cards_tuple": lambda ev, items, item, card: item.update(cards=tuple(item["cards"])),
}


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    spot=st.sampled_from(MELD_SPOTS),
    which=st.integers(0, 5),
    card=st.sampled_from(["AS", "KH", "2C", "JK", "3S", "3H", "5D", "QC"]),
    how=st.sampled_from(sorted(MELD_BREAKS)),
)
def test_broken_melds_fail_the_same_way(spot, which, card, how):
    log = copy.deepcopy(BASE)
    ev = log["rounds"][0]["events"][spot]
    items = ev["melds"]
    MELD_BREAKS[how](ev, items, items[which % len(items)], card)
    fast = _outcome(log)
    with pytest.MonkeyPatch.context() as mp:
        _general_only(mp)
        assert _outcome(log) == fast


PICKUP_BASE = next(
    log for log in (simulate_game("classic", 4, seed=s, rounds=1) for s in range(20))
    if sum(ev["type"] == "pickup" for ev in log["rounds"][0]["events"]) >= 3
)
PICKUP_SPOTS = [i for i, ev in enumerate(PICKUP_BASE["rounds"][0]["events"])
                if ev["type"] == "pickup"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=True)
@given(
    spot=st.sampled_from(PICKUP_SPOTS),
    card=st.sampled_from(["AS", "KH", "2C", "JK", "3S", "5D", "QC"]),
    how=st.sampled_from(["pair", "no_pair", "meld", "repeat_rank", "extra_card", "melds_none",
                         "melds_text", "melds_empty", "pair_text", "pair_gone", "field",
                         "melds_gone", "bad_meld"]),
)
def test_broken_pickups_fail_the_same_way(spot, card, how):
    log = copy.deepcopy(PICKUP_BASE)
    ev = log["rounds"][0]["events"][spot]
    if how == "pair":
        ev["pair"][0] = card
    elif how == "no_pair":
        ev["pair"] = []
    elif how == "meld":
        ev["melds"] = [{"rank": "wild" if card in ("2C", "JK") else card[0], "cards": [card] * 3}]
    elif how == "repeat_rank":
        ev["melds"] = [{"rank": ev["pair"][0][0], "cards": [ev["pair"][0]]}]
    elif how in ("melds_none", "melds_text", "melds_empty"):  # the loop reads these pickups
        ev["melds"] = {"melds_none": None, "melds_text": card, "melds_empty": []}[how]
    elif how == "pair_text":
        ev["pair"] = card
    elif how == "pair_gone":
        ev.pop("pair")
    elif how == "field":
        ev["note"] = card
    elif how == "melds_gone":
        ev.pop("melds", None)
    elif how == "bad_meld":
        ev["melds"] = [{"rank": "K", "cards": card}]
    else:
        ev["pair"].append(card)
    fast = _outcome(log)
    with pytest.MonkeyPatch.context() as mp:
        _general_only(mp)
        assert _outcome(log) == fast


def _first_laydowns(log):
    """The index of each side's first meld or pickup in round 1."""
    seen, spots = set(), []
    for i, ev in enumerate(log["rounds"][0]["events"]):
        if ev["type"] in ("meld", "pickup") and ev["seat"] % 2 not in seen:
            seen.add(ev["seat"] % 2)
            spots.append(i)
    return spots


@pytest.mark.parametrize("preset", ["classic", "pagat", "canasta", "eleven"])
@pytest.mark.parametrize("seed", range(3))
def test_first_laydowns_cut_short_fail_the_same_way(preset, seed):
    base = simulate_game(preset, 4, seed=seed, rounds=1)
    for spot in _first_laydowns(base):
        for cut in range(3):
            log = copy.deepcopy(base)
            melds = log["rounds"][0]["events"][spot].get("melds") or []
            for item in melds[: cut + 1]:
                item["cards"] = item["cards"][:-1] or item["cards"]
            fast = _outcome(log)
            with pytest.MonkeyPatch.context() as mp:
                _general_only(mp)
                assert _outcome(log) == fast


def test_single_item_melds_take_the_one_step_path(monkeypatch):
    """Most melds of a game go through State.meld_one (so the comparisons above test it)."""
    calls = []
    one_step = State.meld_one
    monkeypatch.setattr(State, "meld_one", lambda self, *a: calls.append(1) or one_step(self, *a))
    log = simulate_game("classic", 4, seed=1, rounds=1)
    melds = sum(ev["type"] == "meld" for ev in log["rounds"][0]["events"])
    assert replay_log(log).valid
    assert len(calls) > melds / 2


# Events after a round's end, well formed or not: the event loop does not look for the end before
# each event (each action does), so these must fail as the reference loop, which looks first.
AFTER_THE_END = [
    {"seat": 0, "type": "draw"},
    {"seat": 1, "type": "discard", "card": "KH"},
    {"seat": 1, "type": "discard", "card": "XX"},
    {"seat": 2, "type": "meld", "melds": [{"rank": "K", "cards": ["KH", "KS", "KD"]}]},
    {"seat": 2, "type": "meld", "melds": [{"rank": "K", "cards": ["KH"]}, {"rank": "Q", "cards": "QH"}]},
    {"seat": 2, "type": "meld", "melds": []},
    {"seat": 3, "type": "pickup", "pair": ["5D", "5C"]},
    {"seat": 3, "type": "pickup", "pair": "5D", "melds": []},
    {"seat": 0, "type": "ask_go_out", "answer": "maybe"},
    {"seat": 0, "type": "ask_go_out", "answer": "yes"},
    {"seat": 0, "type": "shuffle"},
    {"seat": 0, "type": "draw", "note": 1},
    {"seat": "0", "type": "draw"},
    {"seat": True, "type": "draw"},
    {"type": "draw"},
    ["draw"],
    None,
]


@pytest.mark.parametrize("extra", AFTER_THE_END, ids=repr)
@pytest.mark.parametrize("seed", range(2))
def test_events_after_the_end_fail_the_same_way(extra, seed, monkeypatch):
    log = simulate_game("classic", 4, seed=seed, rounds=2)
    log["rounds"][0]["events"].append(copy.deepcopy(extra))
    fast = _outcome(log)
    assert not fast["valid"]
    monkeypatch.setattr(replay, "play_events", _reference_play_events)
    assert _outcome(log) == fast

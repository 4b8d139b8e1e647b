"""The fast paths of State.meld and State.pickup must give exactly what the general path gives."""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot import replay_log
from handfoot.simulate import simulate_game
from handfoot.state import State


def _general_only(monkeypatch):
    monkeypatch.setattr(State, "_meld_simple", lambda self, seat, items: False)
    monkeypatch.setattr(State, "_pickup_simple", lambda self, seat, up, items, taken: False)


def _outcome(log):
    return replay_log(log).to_dict()  # rounds with every seat's facts, or the error


@pytest.mark.parametrize("preset", ["classic", "pagat", "six-deck", "canasta", "eleven"])
@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_fast_path_matches_general_path(preset, strategy, monkeypatch):
    logs = [simulate_game(preset, 4, seed=s, rounds=2, strategy=strategy) for s in range(3)]
    fast = [_outcome(log) for log in logs]
    _general_only(monkeypatch)
    assert [_outcome(log) for log in logs] == fast


BASE = simulate_game("classic", 4, seed=3, rounds=1)
MELD_SPOTS = [i for i, ev in enumerate(BASE["rounds"][0]["events"]) if ev["type"] == "meld"]


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    spot=st.sampled_from(MELD_SPOTS),
    which=st.integers(0, 5),
    card=st.sampled_from(["AS", "KH", "2C", "JK", "3S", "3H", "5D", "QC"]),
    how=st.sampled_from(["replace", "add", "rank", "target", "repeat"]),
)
def test_broken_melds_fail_the_same_way(spot, which, card, how):
    log = copy.deepcopy(BASE)
    items = log["rounds"][0]["events"][spot]["melds"]
    item = items[which % len(items)]
    if how == "replace":
        item["cards"][0] = card
    elif how == "add":
        item["cards"].append(card)
    elif how == "rank":
        item["rank"] = "wild" if item["rank"] != "wild" else "K"
    elif how == "target":
        item["target"] = "book"
    else:
        items.append(copy.deepcopy(item))
    fast = _outcome(log)
    with pytest.MonkeyPatch.context() as mp:
        _general_only(mp)
        assert _outcome(log) == fast

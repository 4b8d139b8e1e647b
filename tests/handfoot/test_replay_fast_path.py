"""The fast paths of State.meld and State.pickup must give exactly what the general path gives."""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot import replay_log
from handfoot.simulate import simulate_game
from handfoot.state import State


def _general_only(monkeypatch):
    monkeypatch.setattr(State, "_simple_items", lambda self, hand, open_, items: None)


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
    how=st.sampled_from(["pair", "no_pair", "meld", "repeat_rank", "extra_card"]),
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

"""The replay viewer's data: every step rebuilt from the recorded changes is the engine's table
at that step (hands, feet, melds, pile, stock, scores), for 20 simulated games."""

import json

import pytest

from handfoot import EngineError, replay_log
from handfoot.cards import CARD_STR, IS_THREE, KEY_STR, WILD
from handfoot.replay import load_log, play_events, read_table, start_round
from handfoot.simulate import simulate_game
from handfoot.state import KIND_NAME
from handfoot.timeline import (
    REPLAY_FORMAT,
    apply_change,
    build_replay,
    card_words,
    game_story,
    table_at,
)

# 10 four-player and 10 six-player games, over the presets, each with its own seed.
GAMES = [(preset, 4, None, seed) for seed, preset in
         enumerate(["classic", "pagat", "canasta", "eleven", "classic"] * 2)] + [
        (preset, 6, sides, 100 + seed) for seed, (preset, sides) in
         enumerate([("six-deck", 2), ("six-deck", 3), ("classic", 2), ("classic", 3),
                    ("pagat", 2)] * 2)]  # fmt: skip


def _state_of(m):
    """The engine's word for a meld: a book's kind, else what its cards make it."""
    if m.kind is not None:
        return KIND_NAME[m.kind]
    return "wild" if m.key == WILD else ("dirty" if m.wild else "clean")


def engine_table(state, names):
    """What the engine itself holds at this moment, read straight from its State."""
    melds = [
        sorted((KEY_STR[m.key], [CARD_STR[c] for c in m.cards], _state_of(m), m.kind is not None)
               for m in [*state.books[side], *state.open[side].values()])
        for side in range(state.nsides)
    ]  # fmt: skip
    top = state.pile[-1] if state.pile else None
    return {
        "hands": [sorted(CARD_STR[c] for c in state.hand_cards(s)) for s in range(state.players)],
        "feet": [sorted(CARD_STR[c] for c in f) for f in state.feet],
        "melds": melds,
        "pile": (None if top is None else CARD_STR[top], len(state.pile), state.frozen,
                 top is not None and IS_THREE[top]),
        "stock": len(state.stock),
        "scores": state.round_report(names).scores,
    }


def viewer_table(table):
    pile = table["pile"]
    return {
        "hands": [sorted(h) for h in table["hands"]],
        "feet": [sorted(f) for f in table["feet"]],
        "melds": [sorted((m["rank"], m["cards"], m["state"], m["book"]) for m in side)
                  for side in table["melds"]],
        "pile": (pile["top"], pile["size"], pile["frozen"], pile["blocked"]),
        "stock": table["stock"],
        "scores": table["scores"],
    }


@pytest.mark.parametrize(("preset", "players", "sides", "seed"), GAMES)
def test_every_step_of_the_viewer_is_the_engines_table(preset, players, sides, seed):
    log = simulate_game(preset, players, sides=sides, seed=seed)
    names = [f"Player {i + 1}" for i in range(players)]
    replay = json.loads(json.dumps(build_replay(log, names)))  # as the page and the API send it
    table = read_table(load_log(log))
    prev = None
    checked = 0
    for index, rnd in enumerate(log["rounds"], start=1):
        state = start_round(table, rnd, index, prev)
        shown = replay["rounds"][index - 1]
        view = shown["start"]
        assert viewer_table(view) == engine_table(state, names)
        assert len(shown["steps"]) == len(rnd["events"])
        for ev, step in zip(rnd["events"], shown["steps"], strict=True):
            play_events(state, [ev])
            view = apply_change(view, step["change"])
            assert viewer_table(view) == engine_table(state, names), step["text"]
            assert view["turn"] == state.turn and view["on_foot"] == state.on_foot
            checked += 1
        prev = state.dealer
    assert checked == sum(len(r["events"]) for r in log["rounds"])


@pytest.mark.parametrize(("preset", "players", "sides", "seed"), GAMES[:3] + GAMES[10:12])
def test_round_scores_and_totals_are_the_checkers(preset, players, sides, seed):
    log = simulate_game(preset, players, sides=sides, seed=seed)
    replay = build_replay(log)
    report = replay_log(log)
    assert replay["format"] == REPLAY_FORMAT
    assert [r["score"]["scores"] for r in replay["rounds"]] == [r.scores for r in report.rounds]
    assert replay["totals"] == report.totals
    last = replay["rounds"][-1]
    assert table_at(replay, len(replay["rounds"]), len(last["steps"]))["scores"] == report.rounds[-1].scores


def test_moments_name_what_mattered_in_words():
    replay = build_replay(simulate_game("classic", 4, seed=1), ["Ann", "Ben", "Cat", "Dan"])
    rnd = replay["rounds"][0]
    kinds = {m["kind"] for m in rnd["moments"]}
    assert {"first_meld", "pickup", "foot", "book", "score"} <= kinds
    assert kinds & {"went_out", "stock_out"}
    first = next(m for m in rnd["moments"] if m["kind"] == "first_meld")
    assert first["text"].startswith("Side ") and "(the minimum is 50)" in first["text"]
    pickup = next(m for m in rnd["moments"] if m["kind"] == "pickup")
    assert pickup["text"].split()[0] in {"Ann", "Ben", "Cat", "Dan"} and "cards (" in pickup["text"]
    assert rnd["moments"][-1]["text"].startswith("Round 1: Side 1 ")
    # moments point at steps that exist, in order
    steps = [m["step"] for m in rnd["moments"]]
    assert steps == sorted(steps) and steps[-1] == len(rnd["steps"])


def test_going_out_says_whether_the_partner_was_asked():
    texts = [m["text"] for seed in range(6)
             for r in build_replay(simulate_game("classic", 4, seed=seed))["rounds"]
             for m in r["moments"] if m["kind"] == "went_out"]  # fmt: skip
    assert texts
    assert all("asking the partner" in t for t in texts)


def test_story_of_the_game():
    replay = build_replay(simulate_game("classic", 4, seed=1))
    story = game_story(replay)
    assert any(s.startswith("Side ") and "went out first in" in s for s in story)
    assert any("took the pile" in s for s in story)
    assert story[-1].endswith("points.")


def test_cards_in_words_for_screen_readers():
    assert card_words("7H") == "7 of hearts"
    assert card_words("TS") == "10 of spades"
    assert card_words("QD") == "queen of diamonds"
    assert card_words("JK") == "joker"


def test_a_refused_log_says_where():
    log = simulate_game("classic", 4, seed=3, rounds=2)
    log["rounds"][1]["events"][0]["seat"] = 2  # not seat 2's turn
    with pytest.raises(EngineError) as err:
        build_replay(log)
    assert err.value.round == 2 and err.value.event == 0


def test_table_at_refuses_a_step_outside_the_round():
    replay = build_replay(simulate_game("classic", 4, seed=2, rounds=1))
    with pytest.raises(ValueError, match="round 1 has steps 0 to"):
        table_at(replay, 1, len(replay["rounds"][0]["steps"]) + 1)

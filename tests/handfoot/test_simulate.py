import pytest

from handfoot import replay_log
from handfoot.simulate import simulate_game


@pytest.mark.parametrize("preset", ["classic", "pagat", "six-deck", "canasta", "eleven"])
@pytest.mark.parametrize(("players", "sides", "individual"),
                         [(2, None, False), (3, None, False), (4, None, False), (5, None, False),
                          (6, 2, False), (6, 3, False), (4, None, True)])  # fmt: skip
def test_full_games_are_valid(preset, players, sides, individual):
    log = simulate_game(preset, players, sides=sides, seed=11, individual=individual)
    report = replay_log(log)
    assert report.valid, report.error
    assert len(report.rounds) == 4
    assert len(report.totals) == (players if individual or players not in (4, 6) else sides or 2)


def test_same_seed_same_log():
    assert simulate_game(seed=5) == simulate_game(seed=5)
    assert simulate_game(seed=5) != simulate_game(seed=6)


def test_log_shape():
    log = simulate_game("canasta", 4, seed=1, rounds=2)
    assert log["format"] == "hand-and-foot-log/1"
    assert [r["dealer"] for r in log["rounds"]] == [3, 0]
    assert all(r["events"] for r in log["rounds"])


def test_some_rounds_end_by_going_out():
    ended = [
        r.ended_by for s in range(3) for r in replay_log(simulate_game("eleven", 4, seed=s)).rounds
    ]
    assert "went_out" in ended


@pytest.mark.parametrize("first_dealer", [0, 1, 2, 3])
def test_simulated_game_starts_with_the_dealer_asked_for_and_replays_valid(first_dealer):
    log = simulate_game("classic", players=4, seed=5, first_dealer=first_dealer)

    assert [r["dealer"] for r in log["rounds"]] == [(first_dealer + r) % 4 for r in range(4)]
    assert replay_log(log).valid


def test_simulate_refuses_a_first_dealer_outside_the_table():
    with pytest.raises(ValueError, match="first_dealer"):
        simulate_game("classic", players=4, first_dealer=4)


def test_red_threes_that_empty_the_stock_and_leave_one_unplayable_card_end_the_round():
    """Seed 978 of classic: a player on the foot with one card draws the stock's last two cards,
    both red 3s (no replacement left), and may neither meld nor discard the card: the round ends
    as when the stock runs out (it crashed the simulator: no legal move)."""
    log = simulate_game("classic", 4, seed=978)
    report = replay_log(log)
    assert report.valid, report.error
    assert report.rounds[0].ended_by == "stock_out"
    last = log["rounds"][0]["events"][-1]
    assert last["type"] in ("draw", "ask_go_out")


@pytest.mark.parametrize("preset", ["classic", "pagat", "six-deck", "canasta", "eleven"])
def test_a_seeded_sample_of_games_simulates_and_replays_for_every_preset(preset):
    for seed in range(970, 980):
        assert replay_log(simulate_game(preset, 4, seed=seed)).valid


def _states_of_greedy_games(preset: str, players: int, seeds: range):
    """Every state at which a seat of a greedy game is to meld or discard."""
    import random

    from handfoot.moves import apply_move
    from handfoot.rules import PRESETS
    from handfoot.simulate import _deal, greedy_move
    from handfoot.state import TAKEN

    from .builders import state_from_deal

    rules = PRESETS[preset]
    for seed in seeds:
        rng = random.Random(seed)
        sides = 2 if players in (4, 6) else players
        state = state_from_deal(rules, players - 1, sides, _deal(rules, players, rng))
        while not state.over:
            if state.phase == TAKEN:
                yield state.copy()
            apply_move(state, state.turn, greedy_move(state, rng))


@pytest.mark.parametrize(("preset", "players"), [("classic", 4), ("eleven", 3), ("pagat", 6)])
def test_best_meld_is_the_best_of_the_listed_legal_melds_that_pass_the_checks(preset, players):
    """`_best_meld` tries the candidates from the best down and stops at the first legal one
    that passes the checks: it must pick what the whole list of legal melds, filtered, gives
    (the first listed among equals), so that the simulator keeps playing the same games."""
    from handfoot.cards import IS_WILD, PARSE
    from handfoot.legal import meld_moves
    from handfoot.simulate import _best_meld, _hand_check, _plan_check

    def old_score(m):
        wilds = sum(IS_WILD[PARSE[c]] for it in m.items if it.rank != "wild" for c in it.cards)
        return (sum(len(it.cards) for it in m.items), -wilds)

    compared = picked = 0
    for state in _states_of_greedy_games(preset, players, range(3)):
        checks = [c for c in (_plan_check(state), _hand_check(state)) if c is not None]
        listed = [m for m in meld_moves(state) if all(check(m) for check in checks)]
        expected = max(listed, key=old_score) if listed else None
        assert _best_meld(state, _plan_check(state), _hand_check(state)) == expected
        assert _best_meld(state) == (max(meld_moves(state), key=old_score)
                                     if meld_moves(state) else None)  # fmt: skip
        compared += 1
        picked += expected is not None
    assert compared > 100 and picked > 20  # the games reached states with melds to choose

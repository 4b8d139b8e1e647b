"""`rescore_log` (a what-if's replay) scores each round by `State.round_scores`, the sides'
scores of `round_report` without its seats' facts: both must give the same figures."""

import pytest

from handfoot import replay_log
from handfoot.replay import play_events, read_table, rescore_log, start_round
from handfoot.rules import rules_from_spec
from handfoot.simulate import simulate_game

TABLES = [  # (players, sides, individual, seed)
    (4, None, False, 0), (4, None, False, 7), (6, 3, False, 1), (6, 2, False, 2),
    (3, None, False, 1), (4, None, True, 5),
]
OVERRIDES = [{}, {"black_three_penalty": 100}, {"red_three_penalty": 300},
             {"black_three_penalty": 0, "going_out_bonus": 0, "red_three_bonus": 250}]


def _log(players, sides, individual, seed):
    return simulate_game("classic", players=players, sides=sides, individual=individual, seed=seed)


@pytest.mark.parametrize("overrides", OVERRIDES)
@pytest.mark.parametrize(("players", "sides", "individual", "seed"), TABLES)
def test_round_scores_are_the_round_report_s_and_rescore_log_sums_them(
        players, sides, individual, seed, overrides):
    log = _log(players, sides, individual, seed)
    rules = rules_from_spec({"preset": "classic", "overrides": overrides})
    table = read_table(log, rules)
    totals, prev = [0] * table.nsides, None
    for index, rnd in enumerate(log["rounds"], start=1):
        state = start_round(table, rnd, index, prev)
        play_events(state, rnd["events"])
        report = state.round_report(table.seats)
        assert state.round_scores() == report.scores
        assert sum(seat.held_points for seat in report.seats) == sum(
            side.held_points for side in report.sides)
        totals = [t + s for t, s in zip(totals, report.scores, strict=True)]
        prev = state.dealer
    assert rescore_log(log, rules, len(log["rounds"])) == totals
    assert rescore_log(log, rules, len(log["rounds"]) - 1) != totals  # fewer rounds: their sum
    if not overrides:
        assert totals == replay_log(log).totals


def test_rescore_log_of_a_log_the_rules_refuse_or_short_of_rounds_is_none():
    log = _log(4, None, False, 0)
    eleven = rules_from_spec({"preset": "classic", "overrides": {"hand_size": 11}})
    assert rescore_log(log, eleven, len(log["rounds"])) is None
    assert rescore_log(log, rules_from_spec("classic"), len(log["rounds"]) + 1) is None

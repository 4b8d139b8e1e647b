"""Issue 46: each candidate rating system learns from results and predicts from them only."""

import pytest

from analytics.ratings.backtest.games import BacktestGame
from analytics.ratings.backtest.simulated import simulated_league
from analytics.ratings.backtest.systems.elo import Elo
from analytics.ratings.backtest.systems.gaussian import GaussianMargin
from analytics.ratings.backtest.systems.library import Glicko2, OpenSkill, ThroughTime

SYSTEMS = [OpenSkill, Elo, Glicko2, ThroughTime, GaussianMargin,
           lambda: GaussianMargin(per_round=True), lambda: Elo(margin_unit=500)]


def wins_for_side_one(nights=3, margin=1500):
    return [BacktestGame(n * 10 + k, n, ((1, 2), (3, 4)), (3000 + margin, 3000),
                         ((1500 + margin, 1500), (1500, 1500)))
            for n in range(nights) for k in range(3)]


@pytest.mark.parametrize("make", SYSTEMS)
def test_after_a_side_keeps_winning_every_system_favours_it_and_rates_its_players_higher(make):
    system = make()
    fresh = system.predict(wins_for_side_one()[0])
    assert fresh.win[0] == pytest.approx(0.5, abs=0.01)
    for game in wins_for_side_one():
        system.update(game)
        if game.game_id % 10 == 2:
            system.night_over(game.night)
    after = system.predict(BacktestGame(99, 5, ((1, 2), (3, 4)), (0, 0)))
    assert after.win[0] > 0.6 and after.margin[0] > 0 > after.margin[1]
    assert system.strength(1) > system.strength(3)


@pytest.mark.parametrize("make", SYSTEMS)
def test_three_sides_get_chances_that_add_up_to_one(make):
    game = BacktestGame(1, 0, ((1, 2), (3, 4), (5, 6)), (3000, 2000, 1000))
    system = make()
    system.update(game)
    system.night_over(0)
    prediction = system.predict(game)
    assert sum(prediction.win) == pytest.approx(1.0)
    assert len(prediction.margin) == 3


def test_through_time_skips_ties_which_its_library_refuses():
    system = ThroughTime()
    system.update(BacktestGame(1, 0, ((1, 2), (3, 4)), (2000, 2000)))
    system.update(BacktestGame(2, 0, ((1, 2), (3, 4)), (2500, 2000)))
    system.night_over(0)
    assert system.strength(1) > system.strength(3)


def test_margins_per_round_learn_from_each_round_and_from_the_totals_when_rounds_are_unknown():
    by_game, by_round = GaussianMargin(), GaussianMargin(per_round=True)
    level = BacktestGame(1, 0, ((1, 2), (3, 4)), (4000, 4000), ((3000, 1000), (1000, 3000)))
    for system in (by_game, by_round):
        system.update(level)
    assert by_game.strength(1) == pytest.approx(0.0)
    assert by_round.strength(1) != pytest.approx(0.0)  # two rounds, two observations
    totals_only = BacktestGame(2, 0, ((5, 6), (7, 8)), (5000, 3000))
    for system in (by_game, by_round):
        system.update(totals_only)
    assert by_round.strength(5) == pytest.approx(by_game.strength(5))


def test_a_simulated_league_is_the_same_for_a_seed_and_its_fixed_pairs_always_play_together():
    league = simulated_league(seed=3, nights=4)
    assert league == simulated_league(seed=3, nights=4)
    assert league != simulated_league(seed=4, nights=4)
    for game in league.games:
        for side in game.sides:
            if 1 in side:
                assert side == (1, 2) or side == (2, 1)
        assert game.totals == tuple(sum(r[i] for r in game.rounds) for i in range(2))

"""Issue 46: the backtest's scores against a hand computation on a tiny league."""

import math

import pytest

from analytics.ratings.backtest.games import BacktestGame
from analytics.ratings.backtest.metrics import Scores, log_loss_difference, spearman
from analytics.ratings.backtest.run import backtest
from analytics.ratings.backtest.systems.base import Prediction
from analytics.ratings.backtest.systems.elo import Elo


def game(game_id, night, totals, sides=((1, 2), (3, 4))):
    return BacktestGame(game_id, night, sides, totals)


def test_scores_are_the_hand_computed_log_loss_brier_accuracy_and_margin_error():
    scores = Scores()
    scores.add(game(1, 0, (3000, 2000)), Prediction((0.8, 0.2), (400.0, -400.0)))
    scores.add(game(2, 0, (1000, 2000)), Prediction((0.6, 0.4), (200.0, -200.0)))
    assert scores.log_loss == pytest.approx((-math.log(0.8) - math.log(0.4)) / 2)
    assert scores.brier == pytest.approx(((0.2 ** 2 + 0.2 ** 2) + (0.6 ** 2 + 0.6 ** 2)) / 2)
    assert scores.accuracy == 0.5
    # margins 1000/-1000 predicted 400/-400, then -1000/1000 predicted 200/-200
    assert scores.margin_error == pytest.approx((600 + 600 + 1200 + 1200) / 4)
    # deciles: 0.8 (won), 0.2 (lost), 0.6 (lost), 0.4 (won)
    filled = {i: (d.count, d.won) for i, d in enumerate(scores.deciles) if d.count}
    assert filled == {8: (1, 1), 2: (1, 0), 6: (1, 0), 4: (1, 1)}
    assert scores.calibration_error == pytest.approx((0.2 + 0.2 + 0.6 + 0.6) / 4)


def test_a_tie_for_the_top_scores_its_margin_but_not_who_won():
    scores = Scores()
    scores.add(game(1, 0, (2000, 2000)), Prediction((0.7, 0.3), (100.0, -100.0)))
    assert scores.games == 0 and math.isnan(scores.log_loss)
    assert scores.margin_error == 100


def test_the_paired_difference_has_a_95_percent_interval_around_its_mean():
    better, worse = Scores(), Scores()
    better.losses, worse.losses = [0.5, 0.6, 0.7], [0.6, 0.8, 0.7]
    diff = log_loss_difference(better, worse)
    pairs = [-0.1, -0.2, 0.0]
    half = 1.96 * math.sqrt(sum((p + 0.1) ** 2 for p in pairs) / 2) / math.sqrt(3)
    assert diff.mean == pytest.approx(-0.1)
    assert (diff.low, diff.high) == (pytest.approx(-0.1 - half), pytest.approx(-0.1 + half))


def test_spearman_ranks_ties_together():
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [30, 20, 10]) == pytest.approx(-1.0)
    assert spearman([1, 1, 2], [1, 2, 3]) == pytest.approx(0.8660254)


def test_elo_on_a_tiny_league_predicts_each_game_from_the_games_before_it_only():
    games = [game(1, 0, (3000, 2000)), game(2, 1, (2500, 2600), ((1, 3), (2, 4)))]
    result = backtest(games, [Elo(k=16)])
    scores = result.scores["Elo"]
    # Game 1: everyone 1500, so 50 %; side 1 wins: players 1, 2 +8, players 3, 4 -8.
    # Game 2: sides (1, 3) and (2, 4) both average 1500: 50 % again, side 2 wins.
    assert scores.losses == [pytest.approx(math.log(2)), pytest.approx(math.log(2))]
    assert result.games == 2 and result.nights == 2


def test_a_game_with_one_side_teaches_nothing_and_is_not_scored():
    result = backtest([BacktestGame(1, 0, ((1, 2), ()), (100, 0))], [Elo()])
    assert result.games == 0 and result.scores["Elo"].games == 0

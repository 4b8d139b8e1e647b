"""Standings against hand-computed tables (pure functions, no database)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytics.standings.compute import (
    GameResult,
    Night,
    SideResult,
    event_standings,
    season_standings,
    victory_points_for_margin,
)


def game(game_id, *sides):
    return GameResult(game_id, tuple(SideResult(tuple(p), t, h) for p, t, h in sides))


# Fixed partnerships X=(1,2) Y=(3,4) Z=(5,6) W=(7,8):
#   g1 X 1000 - Y 900, g2 X 500 - Z 800, g3 Y 600 - W 400
# X: MP 2, total 1500, diff +100-300 = -200;  Y: MP 2, total 1500, diff -100+200 = +100
# Z: MP 2, total 800, diff +300;  W: MP 0, total 400, diff -200
X, Y, Z, W = (1, 2), (3, 4), (5, 6), (7, 8)
FIXED = [
    game(1, (X, 1000, 30), (Y, 900, 10)),
    game(2, (X, 500, 0), (Z, 800, 0)),
    game(3, (Y, 600, 0), (W, 400, 0)),
]


def ranking(rows):
    return [(row["key"], row["rank"]) for row in rows]


def test_match_points_then_total_points_leaves_equal_entrants_sharing_a_rank():
    rows = event_standings(FIXED, scoring="match_points", tie_breaks=[], by_side=True)
    assert ranking(rows) == [("s1-2", 1), ("s3-4", 1), ("s5-6", 3), ("s7-8", 4)]
    x = rows[0]
    assert (x["match_points"], x["total_points"], x["wins"], x["losses"]) == (2, 1500, 1, 1)
    assert x["point_difference"] == -200


@pytest.mark.parametrize(
    ("tie_break", "first"),
    [
        ("head_to_head", "s1-2"),  # X beat Y
        ("point_difference", "s3-4"),  # +100 against -200
        ("opponents_strength", "s1-2"),  # X met Y (2) and Z (2) = 4; Y met X (2) and W (0) = 2
        ("fewest_held_points", "s3-4"),  # Y held 10, X held 30
    ],
)
def test_each_tie_break_separates_the_tied_pair(tie_break, first):
    rows = event_standings(FIXED, scoring="match_points", tie_breaks=[tie_break], by_side=True)
    assert rows[0]["key"] == first
    assert [row["rank"] for row in rows] == [1, 2, 3, 4]


def test_opponents_strength_is_the_sum_of_opponents_final_scores():
    rows = {r["key"]: r for r in event_standings(FIXED, scoring="match_points", tie_breaks=[],
                                                  by_side=True)}
    assert rows["s1-2"]["opponents_strength"] == 4
    assert rows["s3-4"]["opponents_strength"] == 2
    assert rows["s7-8"]["opponents_strength"] == 2


def test_wins_break_a_tie_between_a_win_and_a_loss_and_two_ties():
    # P=(1,2) beats Q 600-500 and loses to R 500-600: MP 2; S=(7,8) ties twice: MP 2; all 1100.
    games = [
        game(1, ((1, 2), 600, 0), ((3, 4), 500, 0)),
        game(2, ((1, 2), 500, 0), ((5, 6), 600, 0)),
        game(3, ((7, 8), 550, 0), ((9, 10), 550, 0)),
        game(4, ((7, 8), 550, 0), ((11, 12), 550, 0)),
    ]
    tied = event_standings(games, scoring="match_points", tie_breaks=[], by_side=True)
    assert {r["key"]: r["rank"] for r in tied}["s1-2"] == {r["key"]: r["rank"] for r in tied}["s7-8"]
    rows = event_standings(games, scoring="match_points", tie_breaks=["wins"], by_side=True)
    ranks = {r["key"]: r["rank"] for r in rows}
    assert ranks["s1-2"] < ranks["s7-8"]


def test_head_to_head_counts_only_games_among_the_tied_entrants():
    # X and Y tie on MP and total; X's only MP against Y; Y's against W. X ahead on h2h.
    rows = event_standings(FIXED, scoring="match_points", tie_breaks=["head_to_head", "wins"],
                           by_side=True)
    assert ranking(rows)[:2] == [("s1-2", 1), ("s3-4", 2)]


def test_rotating_partners_rank_each_player():
    # A=1 B=2 C=3 D=4. R1 A+C 1000 vs B+D 500; R2 A+B 700 vs C+D 700; R3 A+D 300 vs B+C 900.
    games = [
        game(1, ((1, 3), 1000, 0), ((2, 4), 500, 0)),
        game(2, ((1, 2), 700, 0), ((3, 4), 700, 0)),
        game(3, ((1, 4), 300, 0), ((2, 3), 900, 0)),
    ]
    rows = event_standings(games, scoring="match_points", tie_breaks=[], by_side=False,
                           names={1: "Ann", 2: "Ben", 3: "Cat", 4: "Dan"})
    table = [(r["name"], r["rank"], r["match_points"], r["total_points"]) for r in rows]
    assert table == [("Cat", 1, 5, 2600), ("Ben", 2, 3, 2100), ("Ann", 3, 3, 2000),
                     ("Dan", 4, 1, 1500)]
    totals = event_standings(games, scoring="total_points", tie_breaks=[], by_side=False)
    assert [r["key"] for r in totals] == ["p3", "p2", "p1", "p4"]


def test_ties_that_remain_share_a_rank_and_the_next_rank_skips():
    games = [
        game(1, ((1,), 500, 0), ((2,), 500, 0)),
        game(2, ((3,), 900, 0), ((4,), 100, 0)),
    ]
    rows = event_standings(games, scoring="total_points", tie_breaks=["wins"], by_side=False)
    assert [(r["key"], r["rank"]) for r in rows] == [("p3", 1), ("p1", 2), ("p2", 2), ("p4", 4)]


@pytest.mark.parametrize(
    ("margin", "vp"),
    [(0, 10), (249, 10), (250, 11), (-250, 9), (1500, 13), (-5000, 4), (12500, 20), (-99999, 0)],
)
def test_victory_point_scale(margin, vp):
    assert victory_points_for_margin(margin) == vp


def test_victory_points_scoring_uses_the_margin_bands():
    rows = event_standings(FIXED, scoring="victory_points", tie_breaks=[], by_side=True)
    vp = {r["key"]: r["victory_points"] for r in rows}
    # X: +100 -> 10, -300 -> 9; Y: -100 -> 10, +200 -> 10; Z: +300 -> 11; W: -200 -> 10
    assert vp == {"s1-2": 19, "s3-4": 20, "s5-6": 11, "s7-8": 10}
    assert rows[0]["key"] == "s3-4"


def test_a_table_of_three_sides_scores_each_against_the_best_other():
    rows = event_standings([game(1, ((1, 2), 900, 0), ((3, 4), 900, 0), ((5, 6), 100, 0))],
                           scoring="match_points", tie_breaks=[], by_side=True)
    mp = {r["key"]: r["match_points"] for r in rows}
    assert mp == {"s1-2": 1, "s3-4": 1, "s5-6": 0}
    assert {r["key"]: r["point_difference"] for r in rows}["s5-6"] == -800


def nights(*items):
    return [Night(e, k, (int(k[1:]),), s, t) for e, k, s, t in items]


def test_season_sum_average_best_n_and_minimum_attendance():
    data = nights(
        (1, "p1", 4, 1000), (2, "p1", 2, 900), (3, "p1", 6, 1200),
        (1, "p2", 5, 1100), (2, "p2", 5, 800),
        (3, "p3", 10, 2000),
    )
    summed = season_standings(data, aggregate="sum", best_n=None, min_attendance=2)
    assert [(r["key"], r["rank"], r["score"]) for r in summed] == [
        ("p1", 1, 12), ("p2", 2, 10), ("p3", None, 10)]
    best_two = season_standings(data, aggregate="sum", best_n=2, min_attendance=0)
    # All on 10; total points of the counted nights break it: p1 2200, p3 2000, p2 1900.
    assert [(r["key"], r["rank"], r["score"], r["counted_nights"]) for r in best_two] == [
        ("p1", 1, 10, 2), ("p3", 2, 10, 1), ("p2", 3, 10, 2)]
    average = season_standings(data, aggregate="average", best_n=None, min_attendance=0)
    assert [(r["key"], r["score"]) for r in average] == [("p3", 10), ("p2", 5), ("p1", 4)]

random_games = st.lists(
    st.tuples(st.permutations(range(1, 9)), st.integers(-500, 3000), st.integers(-500, 3000)),
    min_size=1, max_size=12,
)


@given(random_games)
def test_rank_is_one_plus_the_entrants_strictly_ahead(raw):
    games = [game(i, (tuple(order[:2]), a, 0), (tuple(order[2:4]), b, 0))
             for i, (order, a, b) in enumerate(raw)]
    rows = event_standings(games, scoring="total_points", tie_breaks=[], by_side=False)
    for row in rows:
        assert row["rank"] == 1 + sum(other["total_points"] > row["total_points"] for other in rows)
    assert sum(r["wins"] for r in rows) == sum(r["losses"] for r in rows)


@given(random_games, st.lists(st.sampled_from(
    ["head_to_head", "point_difference", "opponents_strength", "wins", "fewest_held_points"]),
    max_size=5))
def test_tie_breaks_only_reorder_within_equal_match_points(raw, tie_breaks):
    games = [game(i, (tuple(order[:2]), a, 0), (tuple(order[2:4]), b, 0))
             for i, (order, a, b) in enumerate(raw)]
    rows = event_standings(games, scoring="match_points", tie_breaks=tie_breaks, by_side=False)
    keys = [(r["match_points"], r["total_points"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    ranks = [r["rank"] for r in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1

"""The searching levels: legal moves only, one decision per view and seed, greedy's move unless
another is clearly better, and an answer to a partner's "may I go out?"."""

from __future__ import annotations

import random

import pytest

from handfoot import replay_log
from handfoot.moves import AskGoOut
from handfoot.players.levels import LEVELS, level
from handfoot.players.search import SearchPlayer
from handfoot.players.table import Table, answering_mate, play_game
from handfoot.players.view import view_of
from handfoot.simulate import greedy_turn_move

from .positions import positions, shuffle_hidden

SMALL = SearchPlayer("search-2", worlds=2)


@pytest.mark.parametrize(("preset", "players", "kw"), [
    ("classic", 4, {}), ("pagat", 4, {}), ("six-deck", 6, {"sides": 2}), ("canasta", 6, {"sides": 3}),
    ("eleven", 3, {}), ("classic", 2, {}), ("pagat", 4, {"individual": True}),
])  # fmt: skip
@pytest.mark.parametrize("seed", [1, 2])
def test_a_searching_player_plays_only_legal_moves(preset, players, kw, seed):
    game = play_game(Table.of(preset, players, [SMALL, level("greedy")], **kw), seed, rounds=1)
    report = replay_log(game.log)
    assert report.valid, report.error
    assert tuple(report.totals) == game.totals


def test_rollouts_cut_short_play_legal_games_too():
    short = SearchPlayer("search-short", worlds=2, turns=4)
    game = play_game(Table.of("classic", 4, [short, level("greedy")]), 5, rounds=1)
    assert replay_log(game.log).valid


def test_the_same_seed_gives_the_same_game():
    table = Table.of("classic", 4, [SMALL, level("random")])
    assert play_game(table, 4, rounds=1) == play_game(table, 4, rounds=1)


def test_club_and_expert_are_two_budgets_of_one_search():
    club, expert = LEVELS["club"], LEVELS["expert"]
    assert isinstance(club, SearchPlayer) and isinstance(expert, SearchPlayer)
    assert club.worlds < expert.worlds


def test_greedy_s_move_is_the_first_candidate():
    table = Table.of("classic", 4, [level("greedy")])
    for i, pos in enumerate(positions(table, 3)):
        if i % 6 == 0:
            assert SMALL.candidates(pos.state)[0] == greedy_turn_move(pos.state)


def test_a_clear_gain_is_taken_and_noise_is_not():
    assert SMALL._pick([[0, 500], [0, 520], [0, 480]]) == 1
    assert SMALL._pick([[0, 3000], [0, -2900], [0, 100]]) == 0
    assert SMALL._pick([[0, -50, 40], [0, -60, 45], [0, -40, 50]]) == 2


def _a_question():
    """A position where a greedy player on the foot asks its partner "may I go out?"."""
    table = Table.of("classic", 4, [level("greedy")])
    for seed in range(1, 30):
        for pos in positions(table, seed):
            if greedy_turn_move(pos.state) == AskGoOut("yes") and pos.state.asked is None:
                return pos
    raise AssertionError("no question in 30 seeds")


def test_a_partner_answers_the_question_from_its_own_view():
    pos = _a_question()
    asker = pos.state.turn
    mate = answering_mate(pos.state, asker)
    view = view_of(pos.state, mate, pos.memory, question_from=asker)
    answer = LEVELS["club"].choose(view, random.Random(3))
    assert answer in (AskGoOut("yes"), AskGoOut("no"))
    assert LEVELS["club"].choose(view, random.Random(3)) == answer
    hidden = shuffle_hidden(pos.state, mate, pos.memory, random.Random(8))
    assert view_of(hidden, mate, pos.memory, question_from=asker) == view

"""The greedy computer player plays like a person: rounds mostly end by going out."""

import pytest

from handfoot import replay_log
from handfoot.simulate import simulate_game


def _rounds(preset, seeds, players=4, sides=None):
    rounds = []
    for seed in seeds:
        report = replay_log(simulate_game(preset, players, sides=sides, seed=seed))
        assert report.valid, report.error
        rounds += report.rounds
    return rounds


@pytest.mark.parametrize(("preset", "least"), [("classic", 0.6), ("pagat", 0.5), ("six-deck", 0.6),
                                               ("canasta", 0.8), ("eleven", 0.8)])  # fmt: skip
def test_most_partnership_rounds_end_by_going_out(preset, least):
    rounds = _rounds(preset, range(10))
    share = sum(r.ended_by == "went_out" for r in rounds) / len(rounds)
    assert share >= least, f"{preset}: only {share:.0%} of rounds end by going out"


def test_classic_scores_look_like_real_games():
    rounds = [r for r in _rounds("classic", range(10)) if r.ended_by == "went_out"]
    for r in rounds:
        out_side = r.went_out_seat % len(r.sides)
        side = r.sides[out_side]
        # the side that went out has the books it needed and a positive, plausible score
        assert side.clean_books >= 2 and side.dirty_books >= 2 and side.wild_books >= 1
        assert 0 < side.score < 15_000
        assert side.went_out and side.going_out_bonus == 100


def test_greedy_keeps_wilds_for_the_wild_book():
    rounds = _rounds("classic", range(5))
    sides = [s for r in rounds for s in r.sides]
    assert sum(s.wild_books >= 1 for s in sides) >= len(sides) // 2


@pytest.mark.parametrize(("preset", "players", "least"), [("classic", 2, 0.4), ("six-deck", 3, 0.5)])
def test_a_player_alone_mostly_goes_out(preset, players, least):
    # alone, one player must make every book: greedy keeps cards on the foot to build them
    rounds = _rounds(preset, range(8), players=players)
    share = sum(r.ended_by == "went_out" for r in rounds) / len(rounds)
    assert share >= least, f"{preset}, {players} players: only {share:.0%} go out"

"""A seat's view holds only what that seat may know: every card it cannot see shuffled, the view
and every level's decision (same seed) stay the same; its determinized states are consistent."""

from __future__ import annotations

import random

import pytest

from handfoot.cards import NCARDS, PARSE, deck_counts
from handfoot.legal import legal_moves
from handfoot.players.levels import LEVELS, level
from handfoot.players.search import SearchPlayer
from handfoot.players.table import Table
from handfoot.players.view import view_of

from .positions import positions, shuffle_hidden

# the searching levels with a small budget: what they may read does not depend on it
DECIDERS = [LEVELS["random"], LEVELS["greedy"], SearchPlayer("search-3", worlds=3)]
CASES = [("classic", 4, 3), ("pagat", 4, 5), ("canasta", 6, 2), ("eleven", 3, 1), ("six-deck", 4, 8)]


@pytest.mark.parametrize(("preset", "players", "seed"), CASES)
def test_shuffling_what_a_seat_cannot_see_changes_neither_its_view_nor_any_decision(
    preset, players, seed
):
    table = Table.of(preset, players, [level("greedy")])
    shuffler = random.Random(seed)
    checked = 0
    for i, pos in enumerate(positions(table, seed)):
        if i % 5:
            continue
        seat = pos.state.turn
        view = view_of(pos.state, seat, pos.memory)
        other = view_of(shuffle_hidden(pos.state, seat, pos.memory, shuffler), seat, pos.memory)
        assert other == view
        for player in DECIDERS:
            first = player.choose(view, random.Random(99))
            assert player.choose(other, random.Random(99)) == first, player.name
        checked += 1
    assert checked >= 10


def test_a_shuffle_really_moves_hidden_cards():
    table = Table.of("classic", 4, [level("greedy")])
    pos = next(iter(positions(table, 1)))
    shuffled = shuffle_hidden(pos.state, 0, pos.memory, random.Random(1))
    assert shuffled.hands[0] == pos.state.hands[0]
    assert shuffled.hands[1:] != pos.state.hands[1:] or shuffled.stock != pos.state.stock


@pytest.mark.parametrize(("preset", "players", "seed"), CASES)
def test_a_determinized_state_holds_every_card_once_and_the_seat_s_own(preset, players, seed):
    table = Table.of(preset, players, [level("greedy")])
    for i, pos in enumerate(positions(table, seed)):
        if i % 9:
            continue
        seat = pos.state.turn
        view = view_of(pos.state, seat, pos.memory)
        guess = view.determinize(random.Random(i))
        total = [a + b for a, b in zip(guess.cards_conserved(), _red3s(guess), strict=True)]
        assert total == deck_counts(table.rules.deck_count(players))
        assert guess.hands[seat] == pos.state.hands[seat]
        assert guess.hand_n == pos.state.hand_n
        assert [len(f) for f in guess.feet] == [len(f) for f in pos.state.feet]
        assert len(guess.stock) == len(pos.state.stock) and guess.pile == pos.state.pile
        for other, known in enumerate(pos.memory.known_held):
            assert all(guess.hands[other][c] >= n for c, n in enumerate(known))
        assert legal_moves(guess) == legal_moves(pos.state)


def _red3s(state):
    """The laid red 3s as counts: a view does not know their suits, and takes hearts first."""
    counts = [0] * NCARDS
    laid = sum(state.red3)
    hearts = min(laid, state.rules.deck_count(state.players))
    counts[PARSE["3H"]], counts[PARSE["3D"]] = hearts, laid - hearts
    return counts


def test_the_view_is_immutable():
    table = Table.of("classic", 4, [level("greedy")])
    first = next(iter(positions(table, 2)))
    view = view_of(first.state, 0, first.memory)
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]
    assert isinstance(view.hand, tuple) and isinstance(view.pile, tuple)

"""What every seat at the table has seen besides the state itself: the cards a seat took with
the discard pile and may still hold.

The pile is always public (its first cards are turned face up, every other card enters it as a
discard), so the state's own pile says what is in it. Cards taken with it join a hand in plain
sight; a card of that kind leaving the hand (laid or discarded) lowers what is known, so the
counts stay a lower bound of what the seat holds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import IS_RED3, NCARDS, PARSE
from ..moves import Discard, Meld, Move, Pickup
from ..state import State

Counts = tuple[int, ...]  # count per card id


def _less(counts: Counts, cards: Iterable[int]) -> Counts:
    left = list(counts)
    for c in cards:
        if left[c]:
            left[c] -= 1
    return tuple(left)


def _more(counts: Counts, cards: Iterable[int]) -> Counts:
    more = list(counts)
    for c in cards:
        more[c] += 1
    return tuple(more)


def _cards_played(move: Move) -> list[int]:
    """The cards a move takes out of the hand."""
    if isinstance(move, Discard):
        return [PARSE[move.card]]
    if isinstance(move, Meld):
        return [PARSE[c] for item in move.items for c in item.cards]
    if isinstance(move, Pickup):
        return [PARSE[c] for c in move.pair] + [PARSE[c] for m in move.melds for c in m.cards]
    return []


@dataclass(frozen=True, slots=True)
class TableMemory:
    """Per seat, the cards seen going into its hand with the pile that it may still hold."""

    known_held: tuple[Counts, ...]

    @classmethod
    def empty(cls, players: int) -> TableMemory:
        return cls(tuple((0,) * NCARDS for _ in range(players)))

    def after(self, before: State, seat: int, move: Move) -> TableMemory:
        """The memory once `seat` has made `move` in the state `before` (not yet applied)."""
        known = _less(self.known_held[seat], _cards_played(move))
        if isinstance(move, Pickup):
            count = min(before.rules.pickup_count, len(before.pile))
            taken = before.pile[len(before.pile) - count : -1]  # the upcard goes to a meld
            if before.lay:  # red 3s taken are laid out at once
                taken = [c for c in taken if not IS_RED3[c]]
            known = _more(known, taken)
        seats = list(self.known_held)
        seats[seat] = known
        return TableMemory(tuple(seats))

    def after_round(self) -> TableMemory:
        return TableMemory.empty(len(self.known_held))

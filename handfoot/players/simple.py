"""The players that do not search: `random` (any legal move) and `greedy` (the simulator's)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import VALUE
from ..legal import legal_moves
from ..moves import AskGoOut, Draw, Move
from ..simulate import greedy_turn_move, partner_answer
from ..state import START
from .view import SeatView

YES, NO = AskGoOut("yes"), AskGoOut("no")


def held_points(view: SeatView) -> int:
    """The card values of the seat's own hand."""
    return sum(VALUE[c] * n for c, n in enumerate(view.hand))


@dataclass(frozen=True, slots=True)
class RandomPlayer:
    """Any legal move, drawn at random (it draws rather than stall when the stock runs out)."""

    name: str = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        if view.question_from is not None:
            return rng.choice((YES, NO))
        state = view.determinize(None)
        if state.phase == START and view.stock_size < view.rules.draw_count:
            return Draw()
        return rng.choice(legal_moves(state))


@dataclass(frozen=True, slots=True)
class GreedyPlayer:
    """The simulator's greedy player: builds toward the books to go out, takes good piles; as a
    partner, says yes unless its own hand would cost the side a lot."""

    name: str = "greedy"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        if view.question_from is not None:
            return AskGoOut(partner_answer(held_points(view), rng))
        return greedy_turn_move(view.determinize(None))

"""The one interface of a computer player."""

from __future__ import annotations

import random
from typing import Protocol

from ..moves import Move
from .view import SeatView


class Player(Protocol):
    """A computer player: from what its seat may know, a move.

    Called for the seat to act, it returns a legal move of that seat; `AskGoOut` (either answer)
    there means "may I go out?", and the partner's answer is what is played. Called with
    `view.question_from` set, it is that partner: it returns `AskGoOut("yes")` or
    `AskGoOut("no")`. Every random choice comes from `rng`, so a view and a seeded `rng` give
    one decision."""

    @property
    def name(self) -> str: ...

    def choose(self, view: SeatView, rng: random.Random) -> Move: ...

"""The searching levels: determinized Monte Carlo over a few coarse actions.

For each decision the player deals the cards it cannot see at random, consistently with its
view (`SeatView.determinize`), a fixed number of times (its budget, in iterations: a level plays
the same on any machine). On every such world it plays each candidate action, then the rest of
the round by greedy players, and keeps the action whose rounds end best for its side (its
round score less the best other side's). The candidates are coarse: take the pile or draw; ask
to go out or not; the cheapest few discards; before the side's first lay-down, lay down (greedy's
meld) or wait; as a partner, answer yes or no. All candidates meet the same worlds and the same
rollout seeds, so their difference is not the luck of the cards.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from statistics import fmean, stdev

from ..cards import IS_RED3, PARSE, RANK_OF, VALUE
from ..legal import discard_moves, pickup_moves
from ..moves import AskGoOut, Discard, Draw, Move, apply_move
from ..simulate import (
    ASK,
    can_finish_turn,
    discard_order,
    greedy_move,
    greedy_turn_move,
    partner_answer,
)
from ..state import START, State
from .simple import NO, YES, GreedyPlayer
from .view import SeatView

ROLLOUT_EVENTS = 3000  # a rollout's safety net; rounds end long before
ASKER_TRIES = 4  # worlds drawn per world kept when answering: the asker must be able to go out


@dataclass(frozen=True, slots=True)
class SearchPlayer:
    """Determinized Monte Carlo with greedy rollouts; `worlds` worlds a decision. Greedy's own
    move stands unless another candidate beats it on the same worlds by more than `z` standard
    errors of the paired differences: with few worlds the noise of a rollout (a round's score
    swings by thousands) would otherwise pick at random."""

    name: str
    worlds: int
    z: float = 1.645  # one-sided 95 %
    discards: int = 3  # discard candidates: the cheapest of distinct kinds
    turns: int | None = None  # turns a rollout plays after the candidate; None: the round

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        answering = view.question_from is not None
        if answering:
            candidates: list[Move] = [_greedy_answer(view, rng), YES, NO]
        else:
            candidates = self.candidates(view.determinize(None))
        candidates = _distinct(candidates)
        if len(candidates) == 1:
            return candidates[0]
        values = self._values(view, candidates, rng)
        if not values:
            return candidates[0]
        return candidates[self._pick(values)]

    def _values(self, view: SeatView, candidates: list[Move], rng: random.Random) -> list[list[int]]:
        """Per world kept, each candidate's rollout value (its side's margin at the round's end)."""
        answering = view.question_from is not None
        values: list[list[int]] = []
        for _ in range(self.worlds * (ASKER_TRIES if answering else 1)):
            world = view.determinize(rng)
            seed = rng.getrandbits(32)
            if answering and not can_finish_turn(world):
                continue  # the asker would not have asked with such a hand
            row = []
            for move in candidates:
                if isinstance(move, AskGoOut) and not answering:
                    move = AskGoOut(partner_reply(world, random.Random(seed)))
                rng_move = random.Random(seed)
                row.append(rollout(world.copy(), view.seat, move, rng_move, self.turns))
            values.append(row)
            if len(values) == self.worlds:
                break
        return values

    def _pick(self, values: list[list[int]]) -> int:
        """The candidate with the best mean gain over the first (greedy's), if that gain is
        clear of the noise; else the first."""
        best, best_gain = 0, 0.0
        for k in range(1, len(values[0])):
            gains = [row[k] - row[0] for row in values]
            gain = fmean(gains)
            noise = stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
            if gain > self.z * noise and gain > best_gain:
                best, best_gain = k, gain
        return best

    def candidates(self, state: State) -> list[Move]:
        """The coarse actions of the seat to act, greedy's own first. Melds are greedy's: where
        it lays down, the alternative searched is waiting (its cheapest discards)."""
        greedy = greedy_turn_move(state)
        if state.phase == START:
            if len(state.stock) < state.rules.draw_count:
                return [Draw()]
            return [greedy, Draw(), *pickup_moves(state)]
        moves: list[Move] = [greedy]
        if state.mates[state.turn] and state.asked is None and state.on_foot[state.turn]:
            moves.append(ASK)
        if isinstance(greedy, Discard) or not state.laid_down[state.side_of[state.turn]]:
            moves += _cheapest_kinds(state, self.discards)
        return moves


def _greedy_answer(view: SeatView, rng: random.Random) -> Move:
    return GreedyPlayer().choose(view, random.Random(rng.getrandbits(32)))


def _distinct(moves: list[Move]) -> list[Move]:
    return list(dict.fromkeys(moves))


def _cheapest_kinds(state: State, count: int) -> list[Move]:
    """The cheapest discards (greedy's order), one card of each rank (red and black 3s apart)."""
    seen: set[tuple[int, bool]] = set()
    out: list[Move] = []
    for move in discard_order(state, discard_moves(state)):
        card = PARSE[move.card]
        kind = (RANK_OF[card], IS_RED3[card])
        if kind not in seen:
            seen.add(kind)
            out.append(move)
        if len(out) == count:
            break
    return out


def partner_reply(world: State, rng: random.Random) -> str:
    """The answer a greedy partner gives in a world (its own hand's points decide)."""
    mates = world.mates[world.turn]
    return partner_answer(sum(VALUE[c] * n for m in mates for c, n in enumerate(world.hands[m])), rng)


def rollout(world: State, seat: int, move: Move, rng: random.Random, turns: int | None) -> int:
    """Play `move` in the world, then greedy for `turns` more turns or to the round's end: the
    seat's side's round score as it stands (cards held count against it) less the best other
    side's."""
    apply_move(world, world.turn, move)
    played = 0
    left = ROLLOUT_EVENTS if turns is None else turns
    while not world.over and played < ROLLOUT_EVENTS and left > 0:
        seat_now = world.turn
        apply_move(world, seat_now, greedy_move(world, rng))
        played += 1
        if world.turn != seat_now:
            left -= 1
    scores = world.round_scores()
    side = world.side_of[seat]
    return scores[side] - max(s for k, s in enumerate(scores) if k != side)

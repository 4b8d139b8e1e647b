"""Positions of seeded games, for the players' tests: every decision of a game played by the
given levels, with what the table had seen."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from handfoot.cards import IS_RED3
from handfoot.moves import apply_move
from handfoot.players.memory import TableMemory
from handfoot.players.table import Table, deal_rng, dealt_state, decide, seat_rng
from handfoot.simulate import deal_cards
from handfoot.state import State


@dataclass
class Position:
    state: State
    memory: TableMemory


def positions(table: Table, seed: int, round_no: int = 1) -> Iterator[Position]:
    """Each position of one round before the seat to act decides (a copy)."""
    players = len(table.seats)
    deal = deal_cards(table.rules, players, deal_rng(seed, round_no))
    state = dealt_state(table, round_no, players - 1, deal)
    rngs = [seat_rng(seed, round_no, s) for s in range(players)]
    memory = TableMemory.empty(players)
    scores = (0,) * table.nsides
    while not state.over:
        yield Position(state.copy(), memory)
        seat = state.turn
        move = decide(table, state, memory, scores, rngs)
        memory = memory.after(state, seat, move)
        apply_move(state, seat, move)


def shuffle_hidden(state: State, seat: int, memory: TableMemory, rng: random.Random) -> State:
    """The state with every card `seat` cannot see shuffled: other hands (but for the cards seen
    taken with the pile), the feet and the stock, each keeping its size. A seat that has played
    its first turn under `lay` gets no red 3 (it would have laid it out)."""
    s = state.copy()
    pool: list[int] = []
    kept: dict[int, list[int]] = {}
    for other in range(s.players):
        if other == seat:
            continue
        known = list(memory.known_held[other])
        kept[other] = []
        for c, n in enumerate(s.hands[other]):
            keep = min(n, known[c])
            kept[other] += [c] * keep
            pool += [c] * (n - keep)
    for foot in s.feet:
        pool += foot
    pool += s.stock
    while True:
        rng.shuffle(pool)
        if _fill(s, seat, kept, pool[:]):
            return s


def _fill(s: State, seat: int, kept: dict[int, list[int]], pool: list[int]) -> bool:
    for other, cards in kept.items():
        n = s.hand_n[other] - len(cards)
        hand = cards + [pool.pop() for _ in range(n)]
        if s.lay and s.started[other] and any(IS_RED3[c] for c in hand):
            return False
        counts = [0] * len(s.hands[other])
        for c in hand:
            counts[c] += 1
        s.hands[other] = counts
    for i, foot in enumerate(s.feet):
        s.feet[i] = [pool.pop() for _ in foot]
    s.stock = [pool.pop() for _ in range(len(s.stock))]
    return True

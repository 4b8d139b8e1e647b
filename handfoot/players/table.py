"""Whole games between computer players, written out as move logs.

The deals come from the seed alone (each round's shuffle from its own seed-only generator), never
from the players' choices: the same seed with the seats swapped deals the same cards, which is
what makes a duplicate match. Each seat's player draws its random choices from a generator of
its own, also seeded.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import PARSE
from ..errors import EngineError
from ..formats import LOG_FORMAT
from ..moves import AskGoOut, Draw, Move, apply_move
from ..replay import sides_for
from ..rules import RuleSet, rules_from_spec, rules_to_spec
from ..simulate import MAX_EVENTS, deal_cards
from ..state import State
from .base import Player
from .memory import TableMemory
from .view import view_of


class IllegalMove(Exception):
    """A player chose a move the engine refuses."""


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits where and how the game is played."""

    rules: RuleSet
    seats: tuple[Player, ...]  # one per seat
    nsides: int
    individual: bool

    @classmethod
    def of(
        cls, rules: Any, players: int, levels: Sequence[Player], sides: int | None = None,
        individual: bool = False,
    ) -> Table:
        """Seat i plays `levels[i % len(levels)]`."""
        play = "individual" if individual or players not in (4, 6) else "partnerships"
        nsides, _ = sides_for(players, play, sides)
        seats = tuple(levels[i % len(levels)] for i in range(players))
        return cls(rules_from_spec(rules), seats, nsides, play == "individual")


    @classmethod
    def by_side(
        cls, rules: Any, players: int, levels: Sequence[Player], sides: int | None = None,
        individual: bool = False,
    ) -> Table:
        """Every seat of side k plays `levels[k % len(levels)]`."""
        table = cls.of(rules, players, levels, sides, individual)
        seats = tuple(levels[(i % table.nsides) % len(levels)] for i in range(players))
        return cls(table.rules, seats, table.nsides, table.individual)


def deal_rng(seed: int, round_no: int) -> random.Random:
    return random.Random(f"handfoot deal {seed} round {round_no}")


def seat_rng(seed: int, round_no: int, seat: int) -> random.Random:
    return random.Random(f"handfoot player {seed} round {round_no} seat {seat}")


def answering_mate(state: State, seat: int) -> int:
    """The partner who answers "may I go out?": the next one clockwise."""
    return min(state.mates[seat], key=lambda m: (m - seat) % state.players)


def decide(
    table: Table, state: State, memory: TableMemory, scores: tuple[int, ...],
    rngs: list[random.Random],
) -> Move:
    seat = state.turn
    move = table.seats[seat].choose(view_of(state, seat, memory, scores), rngs[seat])
    if isinstance(move, AskGoOut) and state.mates[seat]:
        mate = answering_mate(state, seat)
        view = view_of(state, mate, memory, scores, question_from=seat)
        answer = table.seats[mate].choose(view, rngs[mate])
        if not isinstance(answer, AskGoOut):
            raise IllegalMove(f"seat {mate} ({table.seats[mate].name}) answered with {answer!r}")
        move = answer
    return move


def play_round(
    table: Table, state: State, seed: int, scores: tuple[int, ...]
) -> list[dict[str, Any]]:
    """Play the dealt `state` to its end; its events."""
    rngs = [seat_rng(seed, state.round_no, seat) for seat in range(state.players)]
    memory = TableMemory.empty(state.players)
    events: list[dict[str, Any]] = []
    while not state.over:
        seat = state.turn
        move = decide(table, state, memory, scores, rngs) if len(events) < MAX_EVENTS else Draw()
        memory = memory.after(state, seat, move)
        try:
            apply_move(state, seat, move)
        except EngineError as err:
            name = table.seats[seat].name
            raise IllegalMove(f"seat {seat} ({name}) played {move!r}: {err.message}") from err
        events.append(move.to_event(seat))
    return events


def dealt_state(table: Table, round_no: int, dealer: int, deal: dict[str, list[Any]]) -> State:
    def ids(cards: list[str]) -> list[int]:
        return [PARSE[c] for c in cards]

    return State.deal(
        table.rules, round_no, dealer, table.nsides,
        [ids(h) for h in deal["hands"]], [ids(f) for f in deal["feet"]],
        ids(deal["stock"]), ids(deal["discard"]),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class PlayedGame:
    log: dict[str, Any]
    totals: tuple[int, ...]  # per side


def play_game(table: Table, seed: int, rounds: int | None = None) -> PlayedGame:
    """One game; seat 0 plays first (the last seat deals round 1)."""
    players = len(table.seats)
    count = table.rules.rounds if rounds is None else min(rounds, table.rules.rounds)
    log: dict[str, Any] = {
        "format": LOG_FORMAT,
        "rules": rules_to_spec(table.rules),
        "seats": [f"p{i + 1} {p.name}" for i, p in enumerate(table.seats)],
        "play": "individual" if table.individual else "partnerships",
    }
    if not table.individual:
        log["sides"] = table.nsides
    log["rounds"] = []
    totals = (0,) * table.nsides
    for r in range(1, count + 1):
        dealer = (players - 1 + r - 1) % players
        deal = deal_cards(table.rules, players, deal_rng(seed, r))
        state = dealt_state(table, r, dealer, deal)
        events = play_round(table, state, seed, totals)
        log["rounds"].append({"round": r, "dealer": dealer, "deal": deal, "events": events})
        totals = tuple(a + b for a, b in zip(totals, state.round_scores(), strict=True))
    return PlayedGame(log, totals)

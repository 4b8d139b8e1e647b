"""Computer players and whole simulated games, written out as move logs."""

from __future__ import annotations

import random
from typing import Any

from .cards import (
    CARD_STR,
    IS_BLACK3,
    IS_RED3,
    IS_THREE,
    IS_WILD,
    KEY_OF,
    PARSE,
    VALUE,
    deck_counts,
)
from .legal import discard_moves, legal_moves, meld_moves, pickup_moves
from .moves import AskGoOut, Discard, Draw, Move, apply_move
from .replay import LOG_FORMAT, sides_for
from .rules import RuleSet, rules_from_spec, rules_to_spec
from .state import START, State

MAX_EVENTS = 20000  # per round; a safety net, games end long before


def _deal(rules: RuleSet, players: int, rng: random.Random) -> dict[str, list[Any]]:
    deck = [c for c, n in enumerate(deck_counts(rules.deck_count(players))) for _ in range(n)]
    rng.shuffle(deck)
    hs, fs = rules.hand_size, rules.foot_size
    hands = [deck[i * hs : (i + 1) * hs] for i in range(players)]
    rest = deck[players * hs :]
    feet = [rest[i * fs : (i + 1) * fs] for i in range(players)]
    stock = rest[players * fs :]
    forbidden = rules.upcard_forbidden
    discard = []
    # forbidden upcards stay in the pile, covered by the next card turned
    while stock:
        up = stock.pop(0)
        discard.append(up)
        bad = (
            ("wild" in forbidden and IS_WILD[up])
            or ("3" in forbidden and IS_THREE[up])
            or ("red3" in forbidden and IS_RED3[up])
        )
        if not bad:
            break

    def names(cards: list[int]) -> list[str]:
        return [CARD_STR[c] for c in cards]

    return {
        "hands": [names(h) for h in hands],
        "feet": [names(f) for f in feet],
        "stock": names(stock),
        "discard": names(discard),
    }


def _partner_answer(state: State, rng: random.Random) -> str:
    held = sum(
        VALUE[c] * n for m in state.mates[state.turn] for c, n in enumerate(state.hands[m]) if n
    )
    return "yes" if held < 150 or rng.random() < 0.3 else "no"


def _discard_choice(state: State, moves: list[Discard]) -> Discard:
    seat = state.turn
    side = state.side_of[seat]
    h = state.hands[seat]
    open_keys = state.open[side]

    def cost(d: Discard) -> tuple[int, int, int]:
        c = PARSE[d.card]
        if IS_BLACK3[c] or IS_THREE[c]:
            return (0, 0, 0)
        if IS_WILD[c]:
            return (3, VALUE[c], 0)
        k = KEY_OF[c]
        keep = 2 if k in open_keys else (1 if h[c] + sum(h[k * 4 : k * 4 + 4]) > 1 else 0)
        return (1 + keep, VALUE[c], 0)

    return min(moves, key=cost)


def greedy_move(state: State, rng: random.Random) -> Move:
    seat = state.turn
    if state.phase == START:
        if len(state.stock) >= state.rules.draw_count:
            picks = pickup_moves(state)
            if picks and len(state.pile) >= 3:
                return max(picks, key=lambda p: sum(len(m.cards) for m in p.melds))
        return Draw()
    if (
        state.on_foot[seat]
        and state.mates[seat]
        and state.rules.permission
        and state.asked is None
        and state.hand_n[seat] <= 4
    ):
        check = state.copy()
        check.asked = True
        if check.can_go_out(seat):
            return AskGoOut(_partner_answer(state, rng))
    melds = meld_moves(state)
    if melds:
        return max(melds, key=lambda m: sum(len(it.cards) for it in m.items))
    return _discard_choice(state, discard_moves(state))


def random_move(state: State, rng: random.Random) -> Move:
    moves = legal_moves(state)
    if state.phase == START and len(state.stock) < state.rules.draw_count:
        return Draw()
    return rng.choice(moves)


STRATEGIES = {"greedy": greedy_move, "random": random_move}


def play_round(
    rules: RuleSet, round_no: int, dealer: int, nsides: int, deal: dict[str, list[Any]],
    strategy: str, rng: random.Random,
) -> list[dict[str, Any]]:
    def ids(cards: list[str]) -> list[int]:
        return [PARSE[c] for c in cards]

    state = State.deal(
        rules, round_no, dealer, nsides,
        [ids(h) for h in deal["hands"]], [ids(f) for f in deal["feet"]],
        ids(deal["stock"]), ids(deal["discard"]),
    )  # fmt: skip
    choose = STRATEGIES[strategy]
    events: list[dict[str, Any]] = []
    while not state.over:
        move = choose(state, rng) if len(events) < MAX_EVENTS else Draw()
        seat = state.turn
        apply_move(state, seat, move)
        events.append(move.to_event(seat))
    return events


def simulate_game(
    rules: Any = "classic",
    players: int = 4,
    sides: int | None = None,
    seed: int = 0,
    rounds: int | None = None,
    individual: bool = False,
    strategy: str = "greedy",
) -> dict[str, Any]:
    """A complete legal move log; round 1 is dealt by the last seat so seat 0 starts."""
    ruleset = rules_from_spec(rules)
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    play = "individual" if individual or players not in (4, 6) else "partnerships"
    nsides, _ = sides_for(players, play, sides)
    rng = random.Random(seed)
    count = ruleset.rounds if rounds is None else min(rounds, ruleset.rounds)
    log: dict[str, Any] = {
        "format": LOG_FORMAT,
        "rules": rules_to_spec(ruleset),
        "seats": [f"p{i + 1}" for i in range(players)],
        "play": play,
    }
    if play == "partnerships":
        log["sides"] = nsides
    log["rounds"] = []
    for r in range(1, count + 1):
        dealer = (players - 1 + r - 1) % players
        deal = _deal(ruleset, players, rng)
        events = play_round(ruleset, r, dealer, nsides, deal, strategy, rng)
        log["rounds"].append({"round": r, "dealer": dealer, "deal": deal, "events": events})
    return log

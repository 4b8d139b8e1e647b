"""Computer players and whole simulated games, written out as move logs."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .cards import (
    CARD_STR,
    IS_BLACK3,
    IS_RED3,
    IS_THREE,
    IS_WILD,
    KEY_OF,
    MELD_KEY,
    PARSE,
    VALUE,
    WILD,
    deck_counts,
)
from .formats import LOG_FORMAT
from .legal import discard_moves, legal_moves, meld_candidates, meld_value, pickup_moves
from .moves import AskGoOut, Discard, Draw, Meld, MeldItem, Move, Pickup, apply_move
from .replay import sides_for
from .rules import RuleSet, rules_from_spec, rules_to_spec
from .state import START, Item, State

MAX_EVENTS = 20000  # per round; a safety net, games end long before
GO_OUT_HAND = 10  # a player on the foot with at most this many cards looks for going out
PILE_WORTH_TAKING = 3  # smallest pile the greedy player takes
ALONE_PILE = 1  # the same for a player alone
TO_FOOT_HAND = 4  # with this few cards in the hand, any meld toward the foot will do
KEEP_HAND = 8  # alone on the foot with books missing, keep this many cards unless a book closes
WILD_CARDS = tuple(c for c in range(len(IS_WILD)) if IS_WILD[c])


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


def partner_answer(held: int, rng: random.Random) -> str:
    """A partner says yes unless the cards it holds (`held` points) would cost the side a lot."""
    return "yes" if held < 150 or rng.random() < 0.3 else "no"


def deal_cards(rules: RuleSet, players: int, rng: random.Random) -> dict[str, list[Any]]:
    """One round's deal (hands, feet, stock, discard) as card names, shuffled by `rng`."""
    return _deal(rules, players, rng)


def _partner_answer(state: State, rng: random.Random) -> str:
    held = sum(
        VALUE[c] * n for m in state.mates[state.turn] for c, n in enumerate(state.hands[m]) if n
    )
    return partner_answer(held, rng)


def _discard_choice(state: State, moves: list[Discard]) -> Discard:
    return discard_order(state, moves)[0]


def discard_order(state: State, moves: list[Discard]) -> list[Discard]:
    """The discards from the cheapest to give away (3s, lone cards of low value) to the dearest
    (cards of open melds, wilds); among equals in the listing's order."""
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
        keep = 2 if k in open_keys else (1 if sum(h[k * 4 : k * 4 + 4]) > 1 else 0)
        return (1 + keep, VALUE[c], 0)

    return sorted(moves, key=cost)


def _books_needed(state: State, seat: int) -> tuple[int, int, int]:
    """Books (clean, dirty, wild) the seat's side still lacks for going out."""
    need = state.rules.books_to_go_out
    have = state.book_counts[state.side_of[seat]]
    return (
        max(need.clean - have[0], 0),
        max(need.dirty - have[1], 0),
        max(need.wild - have[2], 0),
    )


def _item_ok(state: State, item: MeldItem, needed: tuple[int, int, int]) -> bool:
    """Whether a meld item fits the plan toward the books needed to go out.

    Wild cards are kept for the wild meld while the side still needs a wild book; after that
    they may make dirty books, but a growing clean meld stays clean while clean books are
    still needed. Once the clean books are made, a meld one wild short of a book waits for
    that wild rather than becoming a spare clean book while a dirty one is missing.
    """
    key = MELD_KEY[item.rank]
    wilds = sum(IS_WILD[PARSE[c]] for c in item.cards)
    clean_needed, dirty_needed, wild_needed = needed
    rules = state.rules
    open_ = state.open[state.side_of[state.turn]]
    meld = open_.get(key)
    if (
        key != WILD and not wilds and dirty_needed and not clean_needed
        and meld is not None and not meld.wild
        and len(meld.cards) + len(item.cards) >= rules.book_size
        and any(state.hands[state.turn][c] for c in WILD_CARDS)
    ):
        return False  # a wild makes this the dirty book still needed, not a spare clean one
    if key == WILD or not wilds:
        return True
    if wild_needed and rules.wild_melds:
        # only wilds the wild meld cannot use, or one that finishes a dirty book still needed
        wild_meld = open_.get(WILD)
        room = rules.book_size - (len(wild_meld.cards) if wild_meld else 0)
        held = sum(state.hands[state.turn][c] for c in WILD_CARDS)
        finishes = meld is not None and len(meld.cards) + len(item.cards) == rules.book_size
        return wilds <= held - room or (finishes and dirty_needed > 0)
    if meld is None or not meld.wild:  # starting a dirty meld or dirtying a clean one
        if not dirty_needed and any(needed):
            return False
        if clean_needed and meld is not None and meld.nat >= 4:
            return False
    return True


def _cards_laid(move: Meld | Pickup) -> int:
    items = move.items if isinstance(move, Meld) else move.melds
    return sum(len(it.cards) for it in items) + (len(move.pair) if isinstance(move, Pickup) else 0)


def _plan_check(state: State) -> Callable[[Meld | Pickup], bool] | None:
    """Whether a move's items all fit the plan; None where any legal move will do: before the
    side's first lay-down (the minimum is hard enough to reach) and, with partners, when the last
    few cards of the hand can take the player to the foot."""
    seat = state.turn
    if not state.laid_down[state.side_of[seat]]:
        return None
    if state.mates[seat] and not state.on_foot[seat] and state.hand_n[seat] <= TO_FOOT_HAND:
        return None  # with partners; a player alone keeps its wilds for the books even then
    needed = _books_needed(state, seat)

    def fits(move: Meld | Pickup) -> bool:
        items = move.items if isinstance(move, Meld) else move.melds
        return all(_item_ok(state, it, needed) for it in items)

    return fits


def _planned(state: State, moves: list[Pickup]) -> list[Pickup]:
    """The moves that fit the plan (see `_plan_check`)."""
    fits = _plan_check(state)
    return moves if fits is None else [m for m in moves if fits(m)]


def _closes_book(state: State, move: Meld) -> bool:
    """Whether the move turns some meld into a book of a kind the side still needs."""
    open_ = state.open[state.side_of[state.turn]]
    size = state.rules.book_size
    needed = _books_needed(state, state.turn)
    for it in move.items:
        key = MELD_KEY[it.rank]
        meld = open_.get(key)
        if it.target_book or (len(meld.cards) if meld else 0) + len(it.cards) < size:
            continue
        if key == WILD:
            kind = 2
        else:
            kind = 1 if (meld and meld.wild) or any(IS_WILD[PARSE[c]] for c in it.cards) else 0
        if needed[kind]:
            return True
    return False


def _hand_check(state: State) -> Callable[[Meld], bool] | None:
    """Alone on the foot with books still missing, a player keeps enough cards to take the
    pile and to build the missing books, melding below that only to close a book; None
    where any meld will do."""
    seat = state.turn
    if state.mates[seat] or not state.on_foot[seat] or not any(_books_needed(state, seat)):
        return None
    hand = state.hand_n[seat]
    return lambda m: hand - _cards_laid(m) >= KEEP_HAND or _closes_book(state, m)


def _score(candidate: list[Item]) -> tuple[int, int]:
    """Most cards laid; among equals the fewest wilds (they are worth keeping), a wild meld's
    own cards not counted."""
    laid = wilds = 0
    for key, ids, _target in candidate:
        laid += len(ids)
        if key != WILD:
            wilds += sum(map(IS_WILD.__getitem__, ids))
    return laid, -wilds


def _best_meld(state: State, *checks: Callable[[Meld], bool] | None) -> Meld | None:
    """The best legal meld (see `_score`; among equals the first listed by `meld_moves`) that
    passes the checks, or None. The candidates are tried from the best down, so most of them
    are never put to the legality check the whole list would need."""
    seat = state.turn
    allowed = state.meld_allowed
    tests = [check for check in checks if check is not None]
    # sorted() is stable with reverse=True too: equal scores keep the listing's order
    for candidate in sorted(meld_candidates(state), key=_score, reverse=True):
        move = meld_value(candidate)
        if all(test(move) for test in tests) and allowed(seat, candidate):
            return move
    return None


def _finish_this_turn(state: State) -> bool:
    """Whether the seat to act can go out this turn by melding greedily and discarding the
    last card, supposing a partner says yes. Tried on a copy of the state."""
    seat = state.turn
    trial = state.copy()
    if trial.asked is None:
        trial.asked = True
    while not trial.over:
        best = _best_meld(trial)
        if best is None:
            break
        apply_move(trial, seat, best)
    return trial.over or (trial.hand_n[seat] == 1 and trial.can_go_out(seat))


def best_meld(state: State) -> Meld | None:
    """The meld laying the most cards (fewest wilds among equals), the plan toward the books
    aside; None when no meld is legal."""
    return _best_meld(state)


def can_finish_turn(state: State) -> bool:
    """Whether the seat to act can go out this turn with greedy melds, a partner saying yes."""
    return _finish_this_turn(state)


def _going_out(state: State) -> bool:
    """The seat to act is on its foot, has not been told no, and can go out this turn."""
    seat = state.turn
    if not state.on_foot[seat] or state.asked is False or state.hand_n[seat] > GO_OUT_HAND:
        return False
    if any(_books_needed(state, seat)) and state.hand_n[seat] < 3:
        return False  # too few cards left to make the books still missing
    return _finish_this_turn(state)


def _take_pile(state: State) -> Pickup | None:
    seat = state.turn
    if len(state.stock) < state.rules.draw_count:
        return None
    if state.on_foot[seat] and not any(_books_needed(state, seat)):
        # ready to go out: seven more cards would only delay it, unless they finish the round
        if state.mates[seat] or state.hand_n[seat] > GO_OUT_HAND:
            return None
        for pick in pickup_moves(state):
            trial = state.copy()
            apply_move(trial, seat, pick)
            if _finish_this_turn(trial):
                return pick
        return None
    picks = _planned(state, pickup_moves(state))
    least = PILE_WORTH_TAKING if state.mates[seat] else ALONE_PILE
    if not picks or len(state.pile) < least:
        return None
    return max(picks, key=_cards_laid)


ASK = AskGoOut("yes")  # greedy_turn_move's "may I go out?": the answer is the partner's


def greedy_move(state: State, rng: random.Random) -> Move:
    """A player who builds toward the going-out books, takes good piles and goes out."""
    move = greedy_turn_move(state)
    return AskGoOut(_partner_answer(state, rng)) if move is ASK else move


def greedy_turn_move(state: State) -> Move:
    """`greedy_move` reading only the seat's own cards and the table; asking a partner "may I go
    out?" is `ASK`, whose answer the partner gives."""
    seat = state.turn
    if state.phase == START:
        return _take_pile(state) or Draw()
    if _going_out(state):
        if state.mates[seat] and state.rules.permission and state.asked is None:
            return ASK
        best = _best_meld(state)
        if best is not None:
            return best
        return _discard_choice(state, discard_moves(state))
    best = _best_meld(state, _plan_check(state), _hand_check(state))
    if best is not None:
        return best
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
    first_dealer: int | None = None,
) -> dict[str, Any]:
    """A complete legal move log. Round 1 is dealt by `first_dealer` (by default the last seat,
    so seat 0 starts); the deal then passes to the left."""
    ruleset = rules_from_spec(rules)
    if first_dealer is None:
        first_dealer = players - 1
    if not 0 <= first_dealer < players:
        raise ValueError(f"first_dealer must be a seat from 0 to {players - 1}")
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
        dealer = (first_dealer + r - 1) % players
        deal = _deal(ruleset, players, rng)
        events = play_round(ruleset, r, dealer, nsides, deal, strategy, rng)
        log["rounds"].append({"round": r, "dealer": dealer, "deal": deal, "events": events})
    return log

"""Legal moves of the seat to act (a useful selection of melds, not every subset)."""

from __future__ import annotations

from .cards import CARD_STR, IS_RED3, KEY_OF, KEY_STR, MELD_KEY, PARSE, RANK_OF, WILD
from .errors import EngineError
from .moves import AskGoOut, Discard, Draw, Meld, MeldItem, Move, Pickup, apply_move
from .state import START, State

NATURAL_KEYS = (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)


def _works(state: State, move: Move) -> bool:
    trial = state.copy()
    try:
        apply_move(trial, state.turn, move)
    except EngineError:
        return False
    return True


def _by_key(state: State) -> tuple[dict[int, list[int]], list[int]]:
    naturals: dict[int, list[int]] = {}
    wilds: list[int] = []
    for c in state.hand_cards(state.turn):
        k = KEY_OF[c]
        if k == WILD:
            wilds.append(c)
        elif k >= 0:
            naturals.setdefault(k, []).append(c)
    return naturals, wilds


def _item(key: int, cards: list[int], book: bool = False) -> MeldItem:
    return MeldItem(KEY_STR[key], tuple(CARD_STR[c] for c in cards), book)


def meld_items(state: State) -> list[MeldItem]:
    """Single-item melds and additions worth trying with the current hand."""
    rules = state.rules
    side = state.side_of[state.turn]
    open_ = state.open[side]
    naturals, wilds = _by_key(state)
    items: list[MeldItem] = []
    for key in NATURAL_KEYS:
        nats = naturals.get(key, [])
        meld = open_.get(key)
        room = rules.book_size - (len(meld.cards) if meld else 0)
        if rules.book_growth == "naturals":
            room = max(room, len(nats))
        if meld is not None:
            if nats:
                items.append(_item(key, nats[:room]))
            if wilds:
                items.append(_item(key, wilds[:1]))
        elif len(nats) >= rules.min_meld_size:
            items.append(_item(key, nats[:room]))
        elif nats and wilds:
            need = rules.min_meld_size - len(nats)
            if 0 < need <= len(wilds):
                items.append(_item(key, nats + wilds[:need]))
        if nats and rules.book_growth == "naturals" and key in state.last_book[side]:
            items.append(_item(key, nats, True))
    if rules.wild_melds and wilds:
        meld = open_.get(WILD)
        room = rules.book_size - (len(meld.cards) if meld else 0)
        if meld is not None or len(wilds) >= rules.min_meld_size:
            items.append(_item(WILD, wilds[:room]))
    return items


def _bundle(state: State, items: list[MeldItem]) -> tuple[MeldItem, ...]:
    """Items of distinct ranks that together fit in the hand."""
    left = {CARD_STR[c]: n for c, n in enumerate(state.hands[state.turn]) if n}
    seen: set[str] = set()
    out = []
    for it in items:
        if it.rank in seen or it.target_book:
            continue
        need: dict[str, int] = {}
        for c in it.cards:
            need[c] = need.get(c, 0) + 1
        if any(left.get(c, 0) < n for c, n in need.items()):
            continue
        for c, n in need.items():
            left[c] -= n
        seen.add(it.rank)
        out.append(it)
    return tuple(out)


def _fits(hand: dict[int, int], items: tuple[MeldItem, ...], extra: tuple[str, ...]) -> bool:
    need: dict[int, int] = {}
    for c in [*extra, *(c for it in items for c in it.cards)]:
        need[PARSE[c]] = need.get(PARSE[c], 0) + 1
    return all(hand.get(c, 0) >= n for c, n in need.items())


def pickup_moves(state: State) -> list[Pickup]:
    rules = state.rules
    if not state.pile or state.frozen:
        return []
    up = state.pile[-1]
    key = KEY_OF[up]
    if key < 0:
        return []
    naturals, wilds = _by_key(state)
    pairs: list[tuple[str, ...]] = []
    if key == WILD:
        same = [c for c in wilds if RANK_OF[c] == RANK_OF[up]]
        pool = wilds if rules.wild_upcard == "any_wilds" else same
        if len(pool) >= 2:
            pairs.append((CARD_STR[pool[0]], CARD_STR[pool[1]]))
    else:
        nats = naturals.get(key, [])
        if len(nats) >= 2:
            pairs.append((CARD_STR[nats[0]], CARD_STR[nats[1]]))
    if rules.pickup_requires == "pair_or_meld" and state.open[state.side_of[state.turn]].get(key):
        pairs.append(())
    hand = {c: n for c, n in enumerate(state.hands[state.turn]) if n}
    moves: list[Pickup] = []
    for pair in pairs:
        moves.append(Pickup(pair, ()))
        others = tuple(it for it in _bundle(state, meld_items(state)) if MELD_KEY[it.rank] != key)
        if others and _fits(hand, others, pair):
            moves.append(Pickup(pair, others))
    return [m for m in moves if _works(state, m)]


def meld_moves(state: State) -> list[Meld]:
    items = meld_items(state)
    candidates: list[Meld] = []
    bundle = _bundle(state, items)
    if len(bundle) > 1:
        candidates.append(Meld(bundle))
    candidates.extend(Meld((it,)) for it in items)
    return [m for m in candidates if _works(state, m)]


def discard_moves(state: State) -> list[Discard]:
    h = state.hands[state.turn]
    moves = []
    for c, n in enumerate(h):
        if n and not (state.lay and IS_RED3[c]):
            d = Discard(CARD_STR[c])
            if state.on_foot[state.turn] and state.hand_n[state.turn] == 1 and not _works(state, d):
                continue
            moves.append(d)
    return moves


def legal_moves(state: State) -> list[Move]:
    """Every move listed is legal; a turn can always be finished with one of them."""
    if state.over:
        return []
    if state.phase == START:
        return [Draw(), *pickup_moves(state)]
    moves: list[Move] = list(meld_moves(state))
    if state.mates[state.turn] and state.asked is None:
        moves += [AskGoOut("yes"), AskGoOut("no")]
    moves += discard_moves(state)
    return moves

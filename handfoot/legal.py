"""Legal moves of the seat to act (a useful selection of melds, not every subset)."""

from __future__ import annotations

from functools import lru_cache
from itertools import compress

from .cards import CARD_STR, IS_RED3, KEY_OF, KEY_STR, NCARDS, RANK_OF, WILD
from .moves import AskGoOut, Discard, Draw, Meld, MeldItem, Move, Pickup, move_allowed
from .turn import START, TO_BOOK, Item

TYPE_CHECKING = False  # the state is only named here: it imports this module (stuck positions)
if TYPE_CHECKING:
    from .state import State

NATURAL_KEYS = (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
_DISCARDS = tuple(Discard(card) for card in CARD_STR)  # by card id


def _by_key(state: State) -> tuple[dict[int, list[int]], list[int]]:
    naturals: dict[int, list[int]] = {}
    wilds: list[int] = []
    h = state.hands[state.turn]
    for c in compress(range(NCARDS), h):  # the cards held, in order
        k = KEY_OF[c]
        if k == WILD:
            wilds += [c] * h[c]
        elif k >= 0:
            if k in naturals:
                naturals[k] += [c] * h[c]
            else:
                naturals[k] = [c] * h[c]
    return naturals, wilds


@lru_cache(maxsize=1 << 14)
def _item_value(key: int, ids: tuple[int, ...], target: int) -> MeldItem:
    return MeldItem(KEY_STR[key], tuple(map(CARD_STR.__getitem__, ids)), bool(target))


@lru_cache(maxsize=1 << 14)
def _one_item_meld(key: int, ids: tuple[int, ...], target: int) -> Meld:
    return Meld((_item_value(key, ids, target),))


# A hand offers the same few candidates turn after turn: the values are remembered rather than
# built again (they are immutable, and building them cost more than checking them).
def _item(item: Item) -> MeldItem:
    key, ids, target = item
    return _item_value(key, tuple(ids), target)


def meld_value(items: list[Item]) -> Meld:
    """The move of one of `meld_candidates`."""
    if len(items) == 1:
        key, ids, target = items[0]
        return _one_item_meld(key, tuple(ids), target)
    return Meld(tuple(map(_item, items)))


def meld_items(state: State) -> list[Item]:
    """Single-item melds and additions worth trying with the current hand, as the engine's
    (key, card ids, target) items."""
    rules = state.rules
    side = state.side_of[state.turn]
    open_ = state.open[side]
    naturals, wilds = _by_key(state)
    items: list[Item] = []
    book_size = rules.book_size
    grow_books = rules.book_growth == "naturals"
    for key in NATURAL_KEYS:
        nats = naturals.get(key)
        meld = open_.get(key)
        if nats is None:
            if meld is not None and wilds:
                items.append((key, wilds[:1], 0))
            continue
        room = book_size - (len(meld.cards) if meld else 0)
        if grow_books:
            room = max(room, len(nats))
        if meld is not None:
            items.append((key, nats[:room], 0))
            if wilds:
                items.append((key, wilds[:1], 0))
        elif len(nats) >= rules.min_meld_size:
            items.append((key, nats[:room], 0))
        elif wilds:
            need = rules.min_meld_size - len(nats)
            if 0 < need <= len(wilds):
                items.append((key, nats + wilds[:need], 0))
        if grow_books and key in state.last_book[side]:
            items.append((key, nats, TO_BOOK))
    if rules.wild_melds and wilds:
        meld = open_.get(WILD)
        room = book_size - (len(meld.cards) if meld else 0)
        if meld is not None or len(wilds) >= rules.min_meld_size:
            items.append((WILD, wilds[:room], 0))
    return items


def _bundle(state: State, items: list[Item]) -> list[Item]:
    """Items of distinct ranks that together fit in the hand."""
    left = state.hands[state.turn][:]
    seen: set[int] = set()
    out = []
    for item in items:
        key, ids, target = item
        if key in seen or target:
            continue
        for i, c in enumerate(ids):
            if not left[c]:
                for d in ids[:i]:
                    left[d] += 1
                break
            left[c] -= 1
        else:
            seen.add(key)
            out.append(item)
    return out


def _fits(hand: list[int], items: list[Item], extra: tuple[int, ...]) -> bool:
    left = hand[:]
    for c in [*extra, *(c for _key, ids, _target in items for c in ids)]:
        if not left[c]:
            return False
        left[c] -= 1
    return True


def pickup_moves(state: State) -> list[Pickup]:
    rules = state.rules
    if not state.pile or state.frozen:
        return []
    up = state.pile[-1]
    key = KEY_OF[up]
    if key < 0:
        return []
    naturals, wilds = _by_key(state)
    pairs: list[tuple[int, ...]] = []
    if key == WILD:
        same = [c for c in wilds if RANK_OF[c] == RANK_OF[up]]
        pool = wilds if rules.wild_upcard == "any_wilds" else same
        if len(pool) >= 2:
            pairs.append((pool[0], pool[1]))
    else:
        nats = naturals.get(key, [])
        if len(nats) >= 2:
            pairs.append((nats[0], nats[1]))
    if rules.pickup_requires == "pair_or_meld" and state.open[state.side_of[state.turn]].get(key):
        pairs.append(())
    hand = state.hands[state.turn]
    moves: list[Pickup] = []
    others = [it for it in _bundle(state, meld_items(state)) if it[0] != key] if pairs else []
    for pair in pairs:
        names = tuple(CARD_STR[c] for c in pair)
        moves.append(Pickup(names, ()))
        if others and _fits(hand, others, pair):
            moves.append(Pickup(names, tuple(_item(it) for it in others)))
    return [m for m in moves if move_allowed(state, state.turn, m)]


def meld_candidates(state: State) -> list[list[Item]]:
    """The melds `meld_moves` lists, as the engine's items and before the legality check: the
    bundle of distinct ranks, if there is one, then each single item."""
    items = meld_items(state)
    candidates: list[list[Item]] = []
    bundle = _bundle(state, items)
    if len(bundle) > 1:
        candidates.append(bundle)
    candidates.extend([it] for it in items)
    return candidates


def meld_moves(state: State) -> list[Meld]:
    seat = state.turn
    allowed = state.meld_allowed
    return [meld_value(c) for c in meld_candidates(state) if allowed(seat, c)]


def discard_moves(state: State) -> list[Discard]:
    seat = state.turn
    last_card = state.on_foot[seat] and state.hand_n[seat] == 1  # discarding it goes out
    moves = []
    for c, n in enumerate(state.hands[seat]):
        if n and not (state.lay and IS_RED3[c]):
            d = _DISCARDS[c]
            if not last_card or move_allowed(state, seat, d):
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

"""Moves as immutable values, parsed from and written back to log events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CARD_STR, KEY_STR, MELD_KEY, PARSE
from .errors import EngineError, ErrorCode, shown
from .events import (  # noqa: F401 - the field sets, re-exported: callers import them from here
    EVENT_FIELDS,
    MELD_ITEM_FIELDS,
    card_id,
    card_ids,
    check_event_fields,
    parse_items,
)
from .turn import TO_BOOK, Item

_bad = ErrorCode.BAD_FORMAT


@dataclass(frozen=True, slots=True)
class MeldItem:
    rank: str  # "4".."A", "T" or "wild"
    cards: tuple[str, ...]
    target_book: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"rank": self.rank, "cards": list(self.cards)}
        if self.target_book:
            d["target"] = "book"
        return d


@dataclass(frozen=True, slots=True)
class Draw:
    def to_event(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "type": "draw"}


@dataclass(frozen=True, slots=True)
class Pickup:
    pair: tuple[str, ...] = ()
    melds: tuple[MeldItem, ...] = ()

    def to_event(self, seat: int) -> dict[str, Any]:
        ev: dict[str, Any] = {"seat": seat, "type": "pickup", "pair": list(self.pair)}
        if self.melds:
            ev["melds"] = [m.to_dict() for m in self.melds]
        return ev


@dataclass(frozen=True, slots=True)
class Meld:
    items: tuple[MeldItem, ...]

    def to_event(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "type": "meld", "melds": [m.to_dict() for m in self.items]}


@dataclass(frozen=True, slots=True)
class AskGoOut:
    answer: str  # "yes" | "no"

    def to_event(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "type": "ask_go_out", "answer": self.answer}


@dataclass(frozen=True, slots=True)
class Discard:
    card: str

    def to_event(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "type": "discard", "card": self.card}


Move = Draw | Pickup | Meld | AskGoOut | Discard


def _item_values(raw: Any) -> tuple[MeldItem, ...]:
    return tuple(
        MeldItem(KEY_STR[key], tuple(CARD_STR[c] for c in ids), bool(target))
        for key, ids, target in parse_items(raw)
    )


def move_from_event(ev: Any) -> tuple[int, Move]:
    """A log event -> (seat, move); BAD_FORMAT for a bad shape or an unknown card."""
    if type(ev) is not dict:
        raise EngineError(_bad, "an event must be an object")
    seat = ev.get("seat")
    if type(seat) is not int:
        raise EngineError(_bad, "an event needs a whole-number seat")
    t = ev.get("type")
    check_event_fields(ev, t)
    if t == "draw":
        return seat, Draw()
    if t == "discard":
        return seat, Discard(CARD_STR[card_id(ev.get("card"), "discard")])
    if t == "meld":
        items = _item_values(ev.get("melds"))
        if not items:
            raise EngineError(_bad, "a meld event needs at least one meld")
        return seat, Meld(items)
    if t == "pickup":
        pair = tuple(CARD_STR[c] for c in card_ids(ev.get("pair", []), "pickup pair"))
        return seat, Pickup(pair, _item_values(ev.get("melds", [])))
    if t == "ask_go_out":
        answer = ev.get("answer")
        if answer not in ("yes", "no"):
            raise EngineError(_bad, "ask_go_out needs answer yes or no")
        return seat, AskGoOut(answer)
    raise EngineError(_bad, f"unknown event type {shown(t)}")


def _internal(items: tuple[MeldItem, ...]) -> list[Item]:
    return [
        (MELD_KEY[m.rank], [PARSE[c] for c in m.cards], TO_BOOK if m.target_book else 0)
        for m in items
    ]


def apply_move(state: Any, seat: int, move: Move) -> None:
    """Apply a move to a State (raises EngineError when illegal)."""
    if isinstance(move, Draw):
        state.draw(seat)
    elif isinstance(move, Discard):
        state.discard(seat, PARSE[move.card])
    elif isinstance(move, Meld):
        state.meld(seat, _internal(move.items))
    elif isinstance(move, Pickup):
        state.pickup(seat, [PARSE[c] for c in move.pair], _internal(move.melds))
    elif isinstance(move, AskGoOut):
        state.ask_go_out(seat, move.answer == "yes")
    else:
        raise EngineError(_bad, f"not a move: {move!r}")


def move_allowed(state: Any, seat: int, move: Move) -> bool:
    """Whether `apply_move(state, seat, move)` would be accepted; the state does not change."""
    if isinstance(move, Meld):
        return bool(state.meld_allowed(seat, _internal(move.items)))
    if isinstance(move, Pickup):
        return bool(state.pickup_allowed(seat, [PARSE[c] for c in move.pair], _internal(move.melds)))
    trial = state.copy()
    try:
        apply_move(trial, seat, move)
    except EngineError:
        return False
    return True

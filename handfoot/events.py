"""Reading log events: their fields, cards and meld items (what a replay needs of `moves`,
kept apart so that checking a log does not build the move classes)."""

from __future__ import annotations

from .cards import MELD_KEY, PARSE
from .errors import EngineError, ErrorCode, shown
from .turn import TO_BOOK, Item

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Any

_bad = ErrorCode.BAD_FORMAT


def card_id(text: Any, where: str) -> int:
    try:
        return PARSE[text]
    except (KeyError, TypeError):
        raise EngineError(_bad, f"{where}: {shown(text)} is not a card") from None


def card_ids(raw: Any, where: str) -> list[int]:
    if type(raw) is not list:
        raise EngineError(_bad, f"{where} must be a list of cards")
    try:
        return [PARSE[c] for c in raw]
    except (KeyError, TypeError):
        bad = next(c for c in raw if not isinstance(c, str) or c not in PARSE)
        raise EngineError(_bad, f"{where}: {shown(bad)} is not a card") from None


# The fields each event type may have (formats.md, "Events"); anything else is refused so that
# nothing unchecked is ever stored with a log.
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "draw": frozenset(("seat", "type")),
    "discard": frozenset(("seat", "type", "card")),
    "meld": frozenset(("seat", "type", "melds")),
    "pickup": frozenset(("seat", "type", "pair", "melds")),
    "ask_go_out": frozenset(("seat", "type", "answer")),
}
MELD_ITEM_FIELDS = frozenset(("rank", "cards", "target"))


def _unknown(kind: str, extra: Any) -> EngineError:
    names = ", ".join(sorted(repr(k) if isinstance(k, str) else str(k) for k in extra))
    return EngineError(_bad, f"{kind} has unknown field(s) {names}")


def check_event_fields(ev: dict[str, Any], t: Any) -> None:
    """BAD_FORMAT for an unknown event type or a field the event type does not have."""
    allowed = EVENT_FIELDS.get(t) if type(t) is str else None
    if allowed is None:
        raise EngineError(_bad, f"unknown event type {shown(t)}")
    extra = ev.keys() - allowed
    if extra:
        raise _unknown(f"a {t} event", extra)


def parse_items(raw: Any, where: str = "melds") -> list[Item]:
    """JSON meld items -> internal (key, card ids, target) tuples."""
    if type(raw) is not list:
        raise EngineError(_bad, f"{where} must be a list of melds")
    items: list[Item] = []
    for m in raw:
        try:
            cards = m["cards"]
            item = (MELD_KEY[m["rank"]], [PARSE[c] for c in cards], 0)
        except (KeyError, TypeError, AttributeError):
            items.append(_slow_item(m, where))
            continue
        # the common item: rank and cards only, a list of at least one card
        items.append(item if len(m) == 2 and item[1] and type(cards) is list
                     else _target_item(m, item, where))
    return items


def _target_item(m: dict[str, Any], item: Item, where: str) -> Item:
    """An item whose rank and cards were read, with a target or with something odd."""
    key, ids, _ = item
    target = m.get("target")
    if not ids or type(m["cards"]) is not list or len(m) != 2 + (target is not None):
        return _slow_item(m, where)
    if target is None:
        return item
    if target == "book":
        return key, ids, TO_BOOK
    raise EngineError(_bad, f"meld target must be \"book\", not {shown(target)}")


def _slow_item(m: Any, where: str) -> Item:
    """Find what is wrong with one meld item (always raises)."""
    if type(m) is not dict:
        raise EngineError(_bad, f"each of {where} must be an object with rank and cards")
    rank = m.get("rank")
    if not isinstance(rank, str) or rank not in MELD_KEY:
        raise EngineError(_bad, f"{shown(rank)} is not a meld rank (4..A, T or wild)")
    ids = card_ids(m.get("cards"), f"{where} cards")
    if not ids:
        raise EngineError(_bad, f"a meld of {rank} lists no cards")
    extra = m.keys() - MELD_ITEM_FIELDS
    if extra:
        raise _unknown(f"a meld of {rank}", extra)
    raise EngineError(_bad, f"{where} item {shown(m, 60)} is not a meld")

"""Hand-built logs for engine tests: choose some cards, the rest of the deck is filled in."""

from __future__ import annotations

from collections import Counter
from typing import Any

from handfoot.cards import CARD_STR, IS_NATURAL, PARSE, RANK_OF, deck_counts
from handfoot.rules import RuleSet, rules_from_spec
from handfoot.state import State


def _filler_order(counts: Counter) -> list[str]:
    """Naturals spread over ranks first (few accidental pairs), then 3s and wilds."""
    naturals = [c for c in range(53) if IS_NATURAL[c]]
    naturals.sort(key=lambda c: (c % 4, RANK_OF[c]))
    others = [c for c in range(53) if not IS_NATURAL[c]]
    out: list[str] = []
    while any(counts[CARD_STR[c]] for c in naturals):
        for c in naturals:
            if counts[CARD_STR[c]]:
                counts[CARD_STR[c]] -= 1
                out.append(CARD_STR[c])
    for c in others:
        out += [CARD_STR[c]] * counts[CARD_STR[c]]
    return out


def make_round(
    rules: Any = "classic",
    players: int = 4,
    hands: list[list[str]] | None = None,
    feet: list[list[str]] | None = None,
    stock_top: list[str] | None = None,
    discard: list[str] | None = None,
    events: list[dict[str, Any]] | None = None,
    round_no: int = 1,
    dealer: int | None = None,
) -> dict[str, Any]:
    rs = rules_from_spec(rules)
    hands = [list(h) for h in (hands or [[] for _ in range(players)])]
    hands += [[] for _ in range(players - len(hands))]
    feet = [list(f) for f in (feet or [[] for _ in range(players)])]
    feet += [[] for _ in range(players - len(feet))]
    stock_top = list(stock_top or [])
    discard = list(discard or ["9C"])
    left = Counter({CARD_STR[c]: n for c, n in enumerate(deck_counts(rs.deck_count(players)))})
    for group in (*hands, *feet, stock_top, discard):
        for c in group:
            left[c] -= 1
            assert left[c] >= 0, f"too many {c}"
    pool = _filler_order(left)
    for h in hands:
        while len(h) < rs.hand_size:
            h.append(pool.pop(0))
    for f in feet:
        while len(f) < rs.foot_size:
            f.append(pool.pop(0))
    return {
        "round": round_no,
        "dealer": (players - 1 + round_no - 1) % players if dealer is None else dealer,
        "deal": {"hands": hands, "feet": feet, "stock": stock_top + pool, "discard": discard},
        "events": list(events or []),
    }


def make_log(
    rules: Any = "classic", players: int = 4, rounds: list | None = None, **kw: Any
) -> dict:
    log: dict[str, Any] = {
        "format": "hand-and-foot-log/1",
        "rules": rules,
        "seats": [f"p{i}" for i in range(players)],
    }
    if "play" in kw:
        log["play"] = kw.pop("play")
    if "sides" in kw:
        log["sides"] = kw.pop("sides")
    log["rounds"] = rounds if rounds is not None else [make_round(rules, players, **kw)]
    return log


def ev(seat: int, type_: str, **fields: Any) -> dict[str, Any]:
    return {"seat": seat, "type": type_, **fields}


def meld(seat: int, *items: tuple) -> dict[str, Any]:
    out = []
    for it in items:
        d = {"rank": it[0], "cards": list(it[1])}
        if len(it) > 2:
            d["target"] = it[2]
        out.append(d)
    return ev(seat, "meld", melds=out)


def draw(seat: int) -> dict[str, Any]:
    return ev(seat, "draw")


def discard(seat: int, card: str) -> dict[str, Any]:
    return ev(seat, "discard", card=card)


# House rules under which a four-player deal leaves one card in the stock, so the first draw
# ends the round (3 decks = 162 cards: 4 x (20 + 20) dealt, one upcard, one in the stock).
STOCK_OUT = {"decks": 3, "hand_size": 20, "foot_size": 20}


# The worked example of rules.md (round 2, classic): 3855 / 615.
WORKED_SHEET = {
    "format": "hand-and-foot-sheet/1",
    "rules": "classic",
    "round": 2,
    "ended_by": "went_out",
    "sides": [
        {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "red_threes": 1,
         "table_points": 555, "held_points": 0, "went_out": True},
        {"clean_books": 1, "dirty_books": 0, "wild_books": 0, "red_threes": 1,
         "table_points": 220, "held_points": 205, "went_out": False},
    ],
}


def state_from_deal(rules: RuleSet, dealer: int, nsides: int, deal: dict[str, Any]) -> State:
    """Round 1 on the table from a deal of card names (a log's `deal`, or `simulate._deal`'s)."""

    def ids(cards: list[str]) -> list[int]:
        return [PARSE[c] for c in cards]

    return State.deal(rules, 1, dealer, nsides, [ids(h) for h in deal["hands"]],
                      [ids(f) for f in deal["feet"]], ids(deal["stock"]), ids(deal["discard"]))

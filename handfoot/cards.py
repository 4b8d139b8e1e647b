"""Cards as small ints with precomputed property tables.

A card id is rank_index * 4 + suit_index (ranks "A23456789TJQK", suits "SHDC");
the joker is 52. Meld keys are natural rank indexes (0 = A, 3..12 = 4..K) or WILD.
"""

from __future__ import annotations

from functools import lru_cache

from .errors import EngineError, ErrorCode, shown

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = 52
NCARDS = 53
WILD = 13  # meld key of a wild meld

CARD_STR: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS) + ("JK",)
PARSE: dict[str, int] = {s: i for i, s in enumerate(CARD_STR)}
PARSE.update({"10" + s: RANKS.index("T") * 4 + j for j, s in enumerate(SUITS)})

RANK_OF: tuple[int, ...] = tuple(i // 4 for i in range(52)) + (WILD,)
IS_WILD: tuple[bool, ...] = tuple(i == JOKER or RANK_OF[i] == 1 for i in range(NCARDS))
IS_THREE: tuple[bool, ...] = tuple(i != JOKER and RANK_OF[i] == 2 for i in range(NCARDS))
IS_NATURAL: tuple[bool, ...] = tuple(not IS_WILD[i] and not IS_THREE[i] for i in range(NCARDS))
IS_RED3: tuple[bool, ...] = tuple(IS_THREE[i] and SUITS[i % 4] in "HD" for i in range(NCARDS))
IS_BLACK3: tuple[bool, ...] = tuple(IS_THREE[i] and not IS_RED3[i] for i in range(NCARDS))
# meld key a card belongs to: its rank for naturals, WILD for wilds, -1 for 3s
KEY_OF: tuple[int, ...] = tuple(
    WILD if IS_WILD[i] else (-1 if IS_THREE[i] else RANK_OF[i]) for i in range(NCARDS)
)


def _value(i: int) -> int:
    if i == JOKER:
        return 50
    r = RANKS[RANK_OF[i]]
    if r in "2A":
        return 20
    if r in "KQJT98":
        return 10
    if r in "7654":
        return 5
    return 0  # 3s: their value depends on the rule set


VALUE: tuple[int, ...] = tuple(_value(i) for i in range(NCARDS))

# meld rank words of the log ("4".."A", "T", "wild") -> meld key
MELD_KEY: dict[str, int] = {r: RANKS.index(r) for r in "A456789TJQK"}
MELD_KEY["10"] = RANKS.index("T")
MELD_KEY["wild"] = WILD
KEY_STR: dict[int, str] = {v: k for k, v in MELD_KEY.items() if k != "10"}
KEY_NAME: dict[int, str] = {
    k: ("wild cards" if k == WILD else ("10" if v == "T" else v) + "s") for k, v in KEY_STR.items()
}


def parse_card(text: object) -> int:
    """Card string -> id, or BAD_FORMAT."""
    card = PARSE.get(text) if isinstance(text, str) else None
    if card is None:
        raise EngineError(ErrorCode.BAD_FORMAT, f"{shown(text)} is not a card")
    return card


def card_str(card: int) -> str:
    return CARD_STR[card]


def normalise(text: str) -> str:
    return CARD_STR[parse_card(text)]


def rank_of(text: str) -> str:
    c = parse_card(text)
    return "JK" if c == JOKER else RANKS[RANK_OF[c]]


def suit_of(text: str) -> str | None:
    c = parse_card(text)
    return None if c == JOKER else SUITS[c % 4]


def is_wild(text: str) -> bool:
    return IS_WILD[parse_card(text)]


def is_natural(text: str) -> bool:
    return IS_NATURAL[parse_card(text)]


def is_red_three(text: str) -> bool:
    return IS_RED3[parse_card(text)]


def is_black_three(text: str) -> bool:
    return IS_BLACK3[parse_card(text)]


def card_value(text: str) -> int:
    """Card value per rules.md (3s: 0 here; their penalties come from the rule set)."""
    return VALUE[parse_card(text)]


def held_values(red_three_penalty: int, black_three_penalty: int) -> list[int]:
    """Value of each card id when still held at the end of a round."""
    return list(held_value_table(red_three_penalty, black_three_penalty))


@lru_cache(maxsize=64)  # bounded: house rules give up to 5,001 x 5,001 pairs
def held_value_table(red_three_penalty: int, black_three_penalty: int) -> tuple[int, ...]:
    """`held_values` as a shared tuple (computed once per pair of penalties)."""
    vals = list(VALUE)
    for i in range(NCARDS):
        if IS_RED3[i]:
            vals[i] = red_three_penalty
        elif IS_BLACK3[i]:
            vals[i] = black_three_penalty
    return tuple(vals)


@lru_cache(maxsize=16)  # bounded: a house rule's deck count is at most 12
def sorted_deck(decks: int) -> tuple[int, ...]:
    """Every card id of `decks` decks in ascending order."""
    return tuple(c for c, n in enumerate(deck_counts(decks)) for _ in range(n))


def deck_counts(decks: int) -> list[int]:
    """Multiset of `decks` full decks (52 cards + 2 jokers each), as counts per card id."""
    counts = [decks] * NCARDS
    counts[JOKER] = 2 * decks
    return counts


def full_deck(decks: int) -> list[str]:
    return [CARD_STR[i] for i, n in enumerate(deck_counts(decks)) for _ in range(n)]

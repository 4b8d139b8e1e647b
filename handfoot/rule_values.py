"""The shapes a house rule's value takes (`ParamKind`), and the values of more than a number or
a word: book counts (`BookCounts`) and the word `decks` takes besides a number.

Below both `rules` (which declares every house rule with one of these kinds) and `overrides`
(which reads an override of each kind from its JSON shape): neither imports the other's way
round through here. Plain and quick to import: checking a log of a preset needs these.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

PLAYERS_PLUS_ONE = "players+1"  # the word `decks` takes besides a number
BOOK_KINDS = ("clean", "dirty", "wild")


class ParamKind(StrEnum):
    """The JSON shape of a house rule's value."""

    NUMBER = "number"  # a whole number in minimum..maximum
    NUMBER_OR_NONE = "number_or_none"  # the same, or null (no limit)
    DECKS = "decks"  # a whole number in minimum..maximum, or "players+1"
    WORD = "word"  # one of `words`
    YES_NO = "yes_no"  # true or false
    NUMBER_LIST = "number_list"  # min_items..max_items whole numbers, each in minimum..maximum
    WORD_SET = "word_set"  # a list of distinct `words` (possibly empty)
    BOOK_COUNTS = "book_counts"  # {"clean", "dirty", "wild"}, each in minimum..maximum


@dataclass(frozen=True, slots=True)
class BookCounts:
    """Counts of clean, dirty and wild books (books to go out, book bonuses)."""

    clean: int = 0
    dirty: int = 0
    wild: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"clean": self.clean, "dirty": self.dirty, "wild": self.wild}

    def total(self) -> int:
        return self.clean + self.dirty + self.wild

"""Reading a rules spec's house-rule overrides, and a house rule as forms, documents and
schemas see it (`ParameterInfo`, its range in rules.md's words).

The words of the word parameters are declared here as `Literal` types (`RuleSet`'s annotations
name them; `rules.parameter_table` reads the words from them). `rules.rules_from_spec` reads a
spec's overrides here (`read_overrides`, BAD_RULES naming the parameter and its range), given the
table of house rules: this module imports neither `rules` nor `parameters`, so the imports point
one way. Imported only when overrides are read or a word set is written: checking a log of a
preset (the command line's `check`) neither compiles this nor imports `typing`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeGuard, get_args

from .errors import EngineError, ErrorCode, shown
from .rule_values import PLAYERS_PLUS_ONE, BookCounts, ParamKind

N = ParamKind

# The words of the word parameters (RuleSet's annotations name them).
PickupRequires = Literal["pair", "pair_or_meld"]
WildUpcard = Literal["same_wild", "any_wilds", "frozen"]
BookGrowth = Literal["closed", "naturals"]
WildRatio = Literal["double", "more", "two_naturals"]
RedThrees = Literal["lay", "hold"]
PartnerCondition = Literal["played_foot", "in_foot", "none"]
UpcardWord = Literal["wild", "red3", "3"]
UPCARD_WORDS: tuple[str, ...] = get_args(UpcardWord)  # in the order a log lists them


# ----- a house rule's metadata ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParameterInfo:
    """One house rule as a form, a document or a schema needs it.

    `value` is the preset's value in its JSON shape (as an override would give it); `words`
    lists the allowed words of a WORD or WORD_SET parameter (for DECKS: "players+1"); numbers,
    list entries and book counts lie in `minimum`..`maximum`; a NUMBER_LIST has
    `min_items`..`max_items` entries; `parts` names the counts of a BOOK_COUNTS object.
    """

    name: str
    description: str
    kind: ParamKind
    value: Any
    minimum: int | None = None
    maximum: int | None = None
    words: tuple[str, ...] = ()
    min_items: int | None = None
    max_items: int | None = None
    parts: tuple[str, ...] = ()
    note: str = ""

    @property
    def range_text(self) -> str:
        """The range as rules.md words it: '1\u201320', 'none or 0\u201310', 'pair or pair_or_meld'."""
        return _range_text(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "kind": str(self.kind),
            "value": self.value,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "words": list(self.words),
            "min_items": self.min_items,
            "max_items": self.max_items,
            "parts": list(self.parts),
            "note": self.note,
            "range": self.range_text,
        }


def _span(lo: int | None, hi: int | None) -> str:
    return f"{lo:,}" if lo == hi else f"{lo:,}\u2013{hi:,}"


def _words_text(words: tuple[str, ...], last: str = "or") -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def _range_text(p: ParameterInfo) -> str:
    kind = p.kind
    if kind is N.NUMBER:
        text = _span(p.minimum, p.maximum)
    elif kind is N.NUMBER_OR_NONE:
        text = f"none or {_span(p.minimum, p.maximum)}"
    elif kind is N.DECKS:
        text = f"{_span(p.minimum, p.maximum)} or {PLAYERS_PLUS_ONE}"
    elif kind is N.WORD:
        text = _words_text(p.words)
    elif kind is N.YES_NO:
        text = "true or false"
    elif kind is N.NUMBER_LIST:
        text = f"{_span(p.min_items, p.max_items)} entries, each {_span(p.minimum, p.maximum)}"
    elif kind is N.WORD_SET:
        text = f"any of {_words_text(p.words, 'and')}, each at most once"
    else:  # BOOK_COUNTS
        text = f"each of {_words_text(p.parts, 'and')} {_span(p.minimum, p.maximum)}"
    return f"{text} ({p.note})" if p.note else text


def words_of(hint: Any) -> tuple[str, ...]:
    """The words of a Literal (or of the Literal inside a frozenset[...])."""
    args = get_args(hint)
    if args and all(isinstance(a, str) for a in args):
        return tuple(args)
    return next((w for a in args if (w := words_of(a))), ())


# ----- reading overrides ---------------------------------------------------------------------


def _bad(message: str) -> EngineError:
    return EngineError(ErrorCode.BAD_RULES, message)


def _is_int(v: object) -> TypeGuard[int]:
    return type(v) is int


def _within(n: int, lo: int | None, hi: int | None) -> bool:
    """lo <= n <= hi (every number, list and book-count parameter has both bounds)."""
    return (lo is None or lo <= n) and (hi is None or n <= hi)


def _shown(value: Any) -> str:
    return shown(value)


def _out_of_range(p: ParameterInfo, value: Any, name: str | None = None) -> EngineError:
    return _bad(f"house rule {name or p.name} must be {p.range_text}, not {_shown(value)}")


def _number(p: ParameterInfo, value: Any, name: str | None = None) -> int:
    if not _is_int(value) or not _within(value, p.minimum, p.maximum):
        raise _bad(
            f"house rule {name or p.name} must be a whole number from {p.minimum:,} to "
            f"{p.maximum:,}, not {_shown(value)}"
        )
    return value


def _number_list(p: ParameterInfo, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not _within(len(value), p.min_items, p.max_items):
        raise _out_of_range(p, value)
    return tuple(_number(p, v, f"{p.name} entry") for v in value)


def _word_set(p: ParameterInfo, value: Any) -> frozenset[str]:
    if (
        not isinstance(value, list | tuple)
        or any(type(v) is not str or v not in p.words for v in value)
        or len(set(value)) != len(value)
    ):
        raise _out_of_range(p, value)
    return frozenset(value)


def _book_counts(p: ParameterInfo, value: Any) -> BookCounts:
    # all three are required (as in the published schema): a missing one must not quietly
    # become 0 (a book_bonus of {"wild": 1000} would wipe out the clean and dirty bonuses)
    if not isinstance(value, dict) or set(value) != set(p.parts):
        raise _bad(
            f"house rule {p.name} must be an object with clean, dirty and wild counts "
            f"(all three, each {_span(p.minimum, p.maximum)}), not {_shown(value)}"
        )
    return BookCounts(**{k: _number(p, value[k], f"{p.name}.{k}") for k in p.parts})


def _override_value(p: ParameterInfo, value: Any) -> Any:
    """Convert one override from its JSON shape, raising BAD_RULES naming the parameter."""
    kind = p.kind
    if kind is N.NUMBER:
        return _number(p, value)
    if kind is N.NUMBER_OR_NONE:
        if value is not None and (not _is_int(value) or not _within(value, p.minimum, p.maximum)):
            raise _bad(
                f"house rule {p.name} must be null (no limit) or a whole number from "
                f"{p.minimum} to {p.maximum}, not {_shown(value)}"
            )
        return value
    if kind is N.DECKS:
        if value == PLAYERS_PLUS_ONE:
            return None
        if not _is_int(value) or not _within(value, p.minimum, p.maximum):
            raise _bad(
                f"house rule decks must be a whole number from {p.minimum} to {p.maximum} or "
                f"{PLAYERS_PLUS_ONE!r}, not {_shown(value)}"
            )
        return value
    if kind is N.WORD:
        if type(value) is not str or value not in p.words:
            raise _out_of_range(p, value)
        return value
    if kind is N.YES_NO:
        if type(value) is not bool:
            raise _bad(f"house rule {p.name} must be true or false, not {_shown(value)}")
        return value
    if kind is N.NUMBER_LIST:
        return _number_list(p, value)
    if kind is N.WORD_SET:
        return _word_set(p, value)
    return _book_counts(p, value)


def read_overrides(
    overrides: dict[Any, Any], table: dict[str, ParameterInfo], fixed: dict[str, str]
) -> dict[str, Any]:
    """The changes a spec's `overrides` make, each converted from its JSON shape: BAD_RULES for
    a name that is not one of `table`'s house rules (saying why for one of the `fixed` rules)
    or a value out of its range."""
    changes = {}
    for name, value in overrides.items():
        info = table.get(name) if type(name) is str else None
        if info is None:
            if name in fixed:
                raise _bad(f"house rule {name} cannot be changed: {fixed[name]}")
            raise _bad(f"unknown house rule {_shown(name)}")
        changes[name] = _override_value(info, value)
    return changes

"""Rule sets: every parameter of rules.md as one frozen dataclass, plus the five presets.

Each field of `RuleSet` carries its own description, kind and range (rules.md, "Ranges of house
rules") in its dataclass metadata. That one declaration is the single source for:

- checking house-rule overrides (`rules_from_spec`, BAD_RULES naming the parameter and range),
- the `overrides` part of the published JSON Schemas (`overrides_schema`),
- forms and docs (`rule_parameters(preset)`: one `ParameterInfo` per house rule).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cache
from typing import Any, Literal, TypeGuard, get_args, get_type_hints

from .errors import EngineError, ErrorCode, shown

PickupRequires = Literal["pair", "pair_or_meld"]
WildUpcard = Literal["same_wild", "any_wilds", "frozen"]
BookGrowth = Literal["closed", "naturals"]
WildRatio = Literal["double", "more", "two_naturals"]
RedThrees = Literal["lay", "hold"]
PartnerCondition = Literal["played_foot", "in_foot", "none"]
UpcardWord = Literal["wild", "red3", "3"]
PLAYERS_PLUS_ONE = "players+1"  # the word `decks` takes besides a number
BOOK_KINDS = ("clean", "dirty", "wild")

MAX_DECKS = 12  # the top of the `decks` range; also the most a "players+1" table may use
MAX_PLAYERS = 12  # seats at one table (a log's seats, a sheet's players)


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


class _Spec:
    """What a RuleSet field's metadata says about it (see `_rule`); only read, never changed.

    A plain class, not a dataclass: building a dataclass costs the command line's start."""

    __slots__ = ("description", "kind", "minimum", "maximum", "min_items", "max_items",
                 "overridable", "note")

    def __init__(
        self,
        description: str,
        kind: ParamKind,
        minimum: int | None = None,
        maximum: int | None = None,
        min_items: int | None = None,
        max_items: int | None = None,
        overridable: bool = True,
        note: str = "",  # a constraint tying it to other parameters, in words
    ) -> None:
        self.description = description
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.min_items = min_items
        self.max_items = max_items
        self.overridable = overridable
        self.note = note


def _rule(
    description: str,
    kind: ParamKind,
    minimum: int | None = None,
    maximum: int | None = None,
    **more: Any,
) -> Any:
    """A RuleSet field (no default) carrying its description, kind and range."""
    return field(metadata={"rule": _Spec(description, kind, minimum, maximum, **more)})


N = ParamKind


@dataclass(frozen=True, slots=True)
class BookCounts:
    clean: int = 0
    dirty: int = 0
    wild: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"clean": self.clean, "dirty": self.dirty, "wild": self.wild}

    def total(self) -> int:
        return self.clean + self.dirty + self.wild


@dataclass(frozen=True, slots=True)
class RuleSet:
    preset: str
    decks: int | None = _rule(  # None: players + 1
        "Decks shuffled together (52 cards and 2 jokers each), or one more than the players.",
        N.DECKS,
        1,
        MAX_DECKS,
        note="there must be enough cards to deal every hand and foot plus the upcard",
    )
    hand_size: int = _rule("Cards dealt to each player's hand.", N.NUMBER, 1, 20)
    foot_size: int = _rule("Cards dealt to each player's foot.", N.NUMBER, 1, 20)
    upcard_forbidden: frozenset[UpcardWord] = _rule(
        "Cards that may not start the discard pile (wild: 2s and jokers; red3; 3: any 3).",
        N.WORD_SET,
    )
    draw_count: int = _rule("Cards drawn from the stock each turn.", N.NUMBER, 1, 3)
    pickup_count: int = _rule(
        "Cards taken from the discard pile (fewer if the pile is smaller).", N.NUMBER, 1, 20
    )
    pickup_min_pile: int = _rule(
        "Cards the discard pile must hold before it may be taken.", N.NUMBER, 1, 20
    )
    pickup_requires: PickupRequires = _rule(
        "What taking the pile needs: pair (two naturals from the hand matching the upcard) or "
        "pair_or_meld (that, or adding the upcard to the side's open meld of its rank).",
        N.WORD,
    )
    wild_upcard: WildUpcard = _rule(
        "A wild on top of the pile: same_wild (two 2s take a 2, two jokers a joker), any_wilds "
        "(any two wilds) or frozen (a discarded wild freezes the pile for the round).",
        N.WORD,
    )
    min_meld_size: int = _rule(
        "Cards needed to start a meld.", N.NUMBER, 1, 7, note="at most book_size"
    )
    book_size: int = _rule("Cards that make a meld a book.", N.NUMBER, 3, 15)
    book_growth: BookGrowth = _rule(
        "Whether a book may grow: closed (nothing may be added) or naturals (natural cards of "
        "its rank may still be added, never wilds).",
        N.WORD,
    )
    max_wilds: int | None = _rule(
        "Most wild cards in a natural meld (none: no limit).", N.NUMBER_OR_NONE, 0, 10
    )
    wild_ratio: WildRatio = _rule(
        "Naturals needed beside wilds in a meld: double (naturals at least twice the wilds), "
        "more (more naturals than wilds) or two_naturals (at least two naturals).",
        N.WORD,
    )
    wild_melds: bool = _rule(
        "Whether melds of wild cards only are allowed (they become wild books).", N.YES_NO
    )
    open_melds_per_rank: int = _rule(
        "Unfinished melds of one rank a side may hold (always 1).",
        N.NUMBER,
        1,
        1,
        overridable=False,
    )
    meld_minimums: tuple[int, ...] = _rule(
        "Least card value of each side's first lay-down, one number per round.",
        N.NUMBER_LIST,
        0,
        1000,
        min_items=1,
        max_items=8,
        note="one entry per round",
    )
    first_meld_needs_clean: bool = _rule(
        "Whether the first lay-down must contain a meld without wilds (or a wild meld).", N.YES_NO
    )
    red_threes: RedThrees = _rule(
        "Red 3s: lay (laid out at once and replaced from the stock) or hold (a dead card, only "
        "discarded).",
        N.WORD,
    )
    replace_foot_red_threes: bool = _rule(
        "Whether red 3s found in a foot are replaced from the stock.", N.YES_NO
    )
    red_three_bonus: int = _rule("Points for each red 3 laid out.", N.NUMBER, 0, 5000)
    red_three_penalty: int = _rule(
        "Points lost for each red 3 still held at the end (hand or unplayed foot).",
        N.NUMBER,
        0,
        5000,
    )
    black_three_penalty: int = _rule(
        "Points lost for each black 3 still held at the end.", N.NUMBER, 0, 5000
    )
    books_to_go_out: BookCounts = _rule(
        "Finished books a side needs before a player may go out (clean, dirty, wild).",
        N.BOOK_COUNTS,
        0,
        10,
        note="at least one book in all",
    )
    partner_condition: PartnerCondition = _rule(
        "What each teammate must have done before a player goes out: played_foot (picked up "
        "the foot and finished a turn from it), in_foot (is playing from the foot) or none.",
        N.WORD,
    )
    permission: bool = _rule(
        'Whether a player must ask a teammate "may I go out?" and get a yes.', N.YES_NO
    )
    book_bonus: BookCounts = _rule(
        "Points for each clean, dirty and wild book.", N.BOOK_COUNTS, 0, 5000
    )
    going_out_bonus: int = _rule("Points for the side that goes out.", N.NUMBER, 0, 5000)
    rounds: int = _rule(
        "Rounds (deals) in a game.",
        N.NUMBER,
        1,
        8,
        note="meld_minimums has one entry per round; given alone, the preset's minimums are "
        "cut short or their last one repeated",
    )

    def deck_count(self, players: int) -> int:
        return players + 1 if self.decks is None else self.decks

    def wilds_allowed(self, naturals: int) -> int:
        """Most wilds a natural meld with `naturals` naturals may hold."""
        if self.wild_ratio == "double":
            w = naturals // 2
        elif self.wild_ratio == "more":
            w = max(naturals - 1, 0)
        else:  # two_naturals
            w = 1 << 30 if naturals >= 2 else 0
        if self.max_wilds is not None and w > self.max_wilds:
            w = self.max_wilds
        return w

    def wilds_ok(self, naturals: int, wilds: int) -> bool:
        return wilds <= self.wilds_allowed(naturals)

    def min_naturals_for(self, size: int) -> int:
        """Fewest naturals a legal natural meld of `size` cards can have."""
        for n in range(size + 1):
            if self.wilds_ok(n, size - n):
                return n
        return size

    def meld_minimum(self, round_no: int) -> int:
        i = min(max(round_no, 1), len(self.meld_minimums)) - 1
        return self.meld_minimums[i]


_CLASSIC = RuleSet(
    preset="classic",
    decks=None,
    hand_size=13,
    foot_size=13,
    upcard_forbidden=frozenset({"wild", "red3"}),
    draw_count=2,
    pickup_count=7,
    pickup_min_pile=1,
    pickup_requires="pair",
    wild_upcard="same_wild",
    min_meld_size=3,
    book_size=7,
    book_growth="closed",
    max_wilds=2,
    wild_ratio="double",
    wild_melds=True,
    open_melds_per_rank=1,
    meld_minimums=(50, 90, 120, 150),
    first_meld_needs_clean=False,
    red_threes="lay",
    replace_foot_red_threes=True,
    red_three_bonus=100,
    red_three_penalty=100,
    black_three_penalty=5,
    books_to_go_out=BookCounts(2, 2, 1),
    partner_condition="played_foot",
    permission=True,
    book_bonus=BookCounts(500, 300, 1500),
    going_out_bonus=100,
    rounds=4,
)

PRESETS: dict[str, RuleSet] = {
    "classic": _CLASSIC,
    "pagat": replace(
        _CLASSIC,
        preset="pagat",
        pickup_requires="pair_or_meld",
        max_wilds=None,
        wild_ratio="more",
        red_three_penalty=500,
        books_to_go_out=BookCounts(1, 1, 1),
    ),
    "six-deck": replace(
        _CLASSIC,
        preset="six-deck",
        decks=6,
        wild_upcard="any_wilds",
        book_growth="naturals",
        max_wilds=3,
        wild_ratio="two_naturals",
        first_meld_needs_clean=True,
        replace_foot_red_threes=False,
        books_to_go_out=BookCounts(7, 0, 1),
        partner_condition="in_foot",
        permission=False,
    ),
    "canasta": replace(
        _CLASSIC,
        preset="canasta",
        upcard_forbidden=frozenset({"wild", "3"}),
        pickup_count=5,
        wild_upcard="frozen",
        book_growth="naturals",
        max_wilds=None,
        wild_ratio="more",
        wild_melds=False,
        meld_minimums=(60, 90, 120, 150),
        red_threes="hold",
        red_three_bonus=0,
        red_three_penalty=300,
        black_three_penalty=100,
        books_to_go_out=BookCounts(1, 2, 0),
        partner_condition="none",
        permission=False,
        book_bonus=BookCounts(500, 300, 0),
    ),
    "eleven": replace(
        _CLASSIC,
        preset="eleven",
        hand_size=11,
        foot_size=11,
        upcard_forbidden=frozenset({"wild", "3"}),
        pickup_count=8,
        pickup_min_pile=8,
        pickup_requires="pair_or_meld",
        book_growth="naturals",
        max_wilds=None,
        wild_ratio="more",
        wild_melds=False,
        red_threes="hold",
        red_three_bonus=0,
        red_three_penalty=500,
        black_three_penalty=0,
        books_to_go_out=BookCounts(1, 1, 0),
        partner_condition="none",
        permission=False,
        book_bonus=BookCounts(500, 300, 0),
    ),
}

# Parameters of rules.md that are fixed by the mechanics and so refused as overrides, with why.
FIXED_RULES: dict[str, str] = {
    "open_melds_per_rank": "a side holds at most one unfinished meld of each rank",
    "black_three_blocks": (
        "a 3 on top of the discard pile always blocks it, since 3s can never be melded"
    ),
}


# ----- parameter metadata -------------------------------------------------------------------


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


def _words_of(hint: Any) -> tuple[str, ...]:
    """The words of a Literal (or of the Literal inside a frozenset[...])."""
    args = get_args(hint)
    if args and all(isinstance(a, str) for a in args):
        return tuple(args)
    return next((w for a in args if (w := _words_of(a))), ())


@cache
def _parameter_table() -> dict[str, ParameterInfo]:
    """Every overridable parameter with its metadata (values from classic)."""
    hints = get_type_hints(RuleSet)
    table: dict[str, ParameterInfo] = {}
    for f in fields(RuleSet):
        spec: _Spec | None = f.metadata.get("rule")
        if spec is None or not spec.overridable:
            continue
        words = _words_of(hints[f.name]) if spec.kind in (N.WORD, N.WORD_SET) else ()
        if spec.kind is N.DECKS:
            words = (PLAYERS_PLUS_ONE,)
        table[f.name] = ParameterInfo(
            name=f.name,
            description=spec.description,
            kind=spec.kind,
            value=_json_value(f.name, getattr(_CLASSIC, f.name)),
            minimum=spec.minimum,
            maximum=spec.maximum,
            words=words,
            min_items=spec.min_items,
            max_items=spec.max_items,
            parts=BOOK_KINDS if spec.kind is N.BOOK_COUNTS else (),
            note=spec.note,
        )
    return table


def rule_parameters(preset: str | RuleSet = "classic") -> list[ParameterInfo]:
    """Every house rule a club may override, in rules.md order, with `value` taken from
    `preset` (a preset name or a RuleSet). BAD_RULES for an unknown preset name."""
    rules = rules_from_spec(preset)
    return [
        replace(info, value=_json_value(name, getattr(rules, name)))
        for name, info in _parameter_table().items()
    ]


def rule_parameter(name: str) -> ParameterInfo:
    """One house rule's metadata (value from classic); KeyError if `name` is not one."""
    return _parameter_table()[name]


PARAMETERS: tuple[str, ...] = tuple(f.name for f in fields(RuleSet) if f.name != "preset")


# ----- the JSON Schema of the overrides ------------------------------------------------------


def _number_schema(lo: int | None, hi: int | None) -> dict[str, Any]:
    return {"type": "integer", "minimum": lo, "maximum": hi}


def _parameter_schema(p: ParameterInfo) -> dict[str, Any]:
    kind = p.kind
    if kind is N.NUMBER:
        schema = _number_schema(p.minimum, p.maximum)
    elif kind is N.NUMBER_OR_NONE:
        schema = {"type": ["integer", "null"], "minimum": p.minimum, "maximum": p.maximum}
    elif kind is N.DECKS:
        schema = {"oneOf": [_number_schema(p.minimum, p.maximum), {"const": PLAYERS_PLUS_ONE}]}
    elif kind is N.WORD:
        schema = {"enum": list(p.words)}
    elif kind is N.YES_NO:
        schema = {"type": "boolean"}
    elif kind is N.NUMBER_LIST:
        schema = {
            "type": "array",
            "items": _number_schema(p.minimum, p.maximum),
            "minItems": p.min_items,
            "maxItems": p.max_items,
        }
    elif kind is N.WORD_SET:
        schema = {"type": "array", "items": {"enum": list(p.words)}, "uniqueItems": True}
    else:  # BOOK_COUNTS
        schema = {
            "type": "object",
            "required": list(p.parts),
            "additionalProperties": False,
            "properties": {k: _number_schema(p.minimum, p.maximum) for k in p.parts},
        }
    return {"description": f"{p.description} Range: {p.range_text}.", **schema}


def overrides_schema() -> dict[str, Any]:
    """The `overrides` object of the published JSON Schemas, built from the RuleSet fields."""
    return {
        "type": "object",
        "additionalProperties": False,
        "description": "House rules: parameters of rules.md, each within its range.",
        "properties": {p.name: _parameter_schema(p) for p in _parameter_table().values()},
    }


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


def _check(rules: RuleSet) -> RuleSet:
    """The ranges that tie parameters together."""
    if len(rules.meld_minimums) != rules.rounds:
        raise _bad(
            f"meld_minimums has {len(rules.meld_minimums)} numbers but the game has "
            f"{rules.rounds} rounds"
        )
    if rules.book_size < rules.min_meld_size:
        raise _bad(
            f"min_meld_size must be at most book_size: book_size {rules.book_size} is smaller "
            f"than min_meld_size {rules.min_meld_size}"
        )
    if not rules.books_to_go_out.total():
        raise _bad("books_to_go_out must ask for at least one book in all")
    return rules


def _changes(overrides: dict[Any, Any]) -> dict[str, Any]:
    table = _parameter_table()
    changes = {}
    for name, value in overrides.items():
        info = table.get(name) if type(name) is str else None
        if info is None:
            if name in FIXED_RULES:
                raise _bad(f"house rule {name} cannot be changed: {FIXED_RULES[name]}")
            raise _bad(f"unknown house rule {_shown(name)}")
        changes[name] = _override_value(info, value)
    return changes


def rules_from_spec(spec: Any) -> RuleSet:
    """A preset name or {"preset": ..., "overrides": {...}} -> RuleSet, else BAD_RULES."""
    if isinstance(spec, RuleSet):
        return spec
    if type(spec) is str:
        if spec not in PRESETS:
            raise _bad(f"unknown rule preset {_shown(spec)}; known: {', '.join(PRESETS)}")
        return PRESETS[spec]
    if not isinstance(spec, dict):
        raise _bad("rules must be a preset name or an object with preset and overrides")
    extra = set(spec) - {"preset", "overrides"}
    if extra:
        raise _bad(f"rules has unknown field(s): {', '.join(sorted(map(_shown, extra)))}")
    preset = spec.get("preset", "classic")
    if type(preset) is not str:
        raise _bad(f"rules preset must be a preset name, not {_shown(preset)}")
    base = rules_from_spec(preset)
    overrides = spec.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise _bad("rules overrides must be an object of parameter: value")
    changes = _changes(overrides)
    if "rounds" in changes and "meld_minimums" not in changes:
        # a single house rule (rules.md): more or fewer rounds keep the preset's minimums,
        # cut to the rounds played or extended with the last one
        mins = base.meld_minimums
        n = changes["rounds"]
        changes["meld_minimums"] = mins[:n] + (mins[-1],) * (n - len(mins))
    return _check(replace(base, **changes)) if changes else base


def _json_value(name: str, value: Any) -> Any:
    if name == "decks" and value is None:
        return PLAYERS_PLUS_ONE
    if isinstance(value, BookCounts):
        return value.to_dict()
    if isinstance(value, frozenset):
        return sorted(value, key=get_args(UpcardWord).index)
    if isinstance(value, tuple):
        return list(value)
    return value


def rules_to_dict(rules: RuleSet) -> dict[str, Any]:
    """Every parameter with its JSON-shaped value (decks None shown as "players+1")."""
    out: dict[str, Any] = {"preset": rules.preset}
    for name in PARAMETERS:
        out[name] = _json_value(name, getattr(rules, name))
    return out


def rules_to_spec(rules: RuleSet) -> str | dict[str, Any]:
    """The shortest log `rules` value that gives this rule set back."""
    base = PRESETS.get(rules.preset, _CLASSIC)
    if rules == base:
        return base.preset
    mine, theirs = rules_to_dict(rules), rules_to_dict(base)
    overrides = {k: v for k, v in mine.items() if k != "preset" and theirs[k] != v}
    return {"preset": base.preset, "overrides": overrides}


OVERRIDABLE: tuple[str, ...] = tuple(_parameter_table())  # the house rules, in rules.md order


# --- the parts of a side's round score ----------------------------------------------------------


class PartKind(StrEnum):
    """What a part of a side's round score holds."""

    COUNT = "count"  # a small whole number (books, red 3s): the sheet's +/- steppers
    POINTS = "points"  # card points (a whole number)
    YES_NO = "yes_no"  # true or false


@dataclass(frozen=True, slots=True)
class ScoringPart:
    """One part of a side's round score: its name (the sheet's and the report's field, the
    stored column), how the table calls it, its kind and the range a scorer may write.
    `entered` parts are written on the sheet; the others the engine works out from the rules."""

    name: str
    words: str
    kind: PartKind
    minimum: int = 0
    maximum: int = 0
    entered: bool = True
    short: str = ""  # a worked-out part's name in the sum a SCORE_MISMATCH message shows

    @property
    def default(self) -> bool | int:
        """Its value where a sheet or a stored report leaves it out (a part added later)."""
        return False if self.kind == PartKind.YES_NO else 0


COUNT_MAX = 99  # the most books or red 3s a scorer may write for one side of one round
POINTS_MAX = 100_000  # the most card points


def _entered(name: str, words: str, kind: PartKind) -> ScoringPart:
    maximum = {PartKind.COUNT: COUNT_MAX, PartKind.POINTS: POINTS_MAX}.get(kind, 1)
    return ScoringPart(name, words, kind, 0, maximum)


def _worked_out(name: str, words: str, short: str) -> ScoringPart:
    return ScoringPart(name, words, PartKind.POINTS, entered=False, short=short)


# The one list of a side's round score parts, in the order the engine's report gives them
# (formats.md, "Score sheet"). The sheet form, the table's words, the figures two entries must
# agree on, the stored `RoundResult` columns, the results API and the score objects are derived
# from it (CONTRIBUTING.md, "Adding a house rule or a scoring part").
SIDE_PARTS: tuple[ScoringPart, ...] = (
    _entered("clean_books", "Clean books", PartKind.COUNT),
    _entered("dirty_books", "Dirty books", PartKind.COUNT),
    _entered("wild_books", "Wild books", PartKind.COUNT),
    _entered("red_threes", "Red 3s", PartKind.COUNT),
    _worked_out("red_three_points", "Points for red 3s", "red 3s"),
    _entered("table_points", "Points on the table", PartKind.POINTS),
    _entered("held_points", "Points left in hand", PartKind.POINTS),
    _worked_out("going_out_bonus", "Going out bonus", "going out"),
    _entered("went_out", "Went out", PartKind.YES_NO),
)
ENTERED_PARTS: tuple[ScoringPart, ...] = tuple(p for p in SIDE_PARTS if p.entered)
PARTS_BY_NAME: dict[str, ScoringPart] = {p.name: p for p in SIDE_PARTS}

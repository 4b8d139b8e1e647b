"""Rule sets: every parameter of rules.md as one frozen dataclass, plus the five presets."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import EngineError, ErrorCode


@dataclass(frozen=True, slots=True)
class BookCounts:
    clean: int = 0
    dirty: int = 0
    wild: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"clean": self.clean, "dirty": self.dirty, "wild": self.wild}


@dataclass(frozen=True, slots=True)
class RuleSet:
    preset: str
    decks: int | None  # None: players + 1
    hand_size: int
    foot_size: int
    upcard_forbidden: frozenset[str]  # of "wild", "red3", "3"
    draw_count: int
    pickup_count: int
    pickup_min_pile: int
    pickup_requires: str  # "pair" | "pair_or_meld"
    wild_upcard: str  # "same_wild" | "any_wilds" | "frozen"
    black_three_blocks: bool
    min_meld_size: int
    book_size: int
    book_growth: str  # "closed" | "naturals"
    max_wilds: int | None
    wild_ratio: str  # "double" | "more" | "two_naturals"
    wild_melds: bool
    open_melds_per_rank: int
    meld_minimums: tuple[int, ...]
    first_meld_needs_clean: bool
    red_threes: str  # "lay" | "hold"
    replace_foot_red_threes: bool
    red_three_bonus: int
    red_three_penalty: int
    black_three_penalty: int
    books_to_go_out: BookCounts
    partner_condition: str  # "played_foot" | "in_foot" | "none"
    permission: bool
    book_bonus: BookCounts
    going_out_bonus: int
    rounds: int

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
    black_three_blocks=True,
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

PARAMETERS: tuple[str, ...] = tuple(f.name for f in fields(RuleSet) if f.name != "preset")

_INTS = {
    "hand_size": 1,
    "foot_size": 1,
    "draw_count": 1,
    "pickup_count": 1,
    "pickup_min_pile": 1,
    "min_meld_size": 1,
    "book_size": 1,
    "going_out_bonus": 0,
    "red_three_bonus": 0,
    "red_three_penalty": 0,
    "black_three_penalty": 0,
    "rounds": 1,
}
_WORDS = {
    "pickup_requires": ("pair", "pair_or_meld"),
    "wild_upcard": ("same_wild", "any_wilds", "frozen"),
    "book_growth": ("closed", "naturals"),
    "wild_ratio": ("double", "more", "two_naturals"),
    "red_threes": ("lay", "hold"),
    "partner_condition": ("played_foot", "in_foot", "none"),
}
_BOOLS = (
    "black_three_blocks",
    "wild_melds",
    "first_meld_needs_clean",
    "replace_foot_red_threes",
    "permission",
)
_UPCARD_WORDS = ("wild", "red3", "3")


def _bad(message: str) -> EngineError:
    return EngineError(ErrorCode.BAD_RULES, message)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(name: str, value: Any, least: int) -> int:
    if not _is_int(value):
        raise _bad(f"house rule {name} must be a whole number, not {value!r}")
    if value < least:
        raise _bad(f"house rule {name} must be at least {least}, not {value}")
    return value


def _book_counts(name: str, value: Any) -> BookCounts:
    # all three are required (as in the published schema): a missing one must not quietly
    # become 0 (a book_bonus of {"wild": 1000} would wipe out the clean and dirty bonuses)
    if not isinstance(value, dict) or set(value) != {"clean", "dirty", "wild"}:
        raise _bad(
            f"house rule {name} must be an object with clean, dirty and wild counts "
            f"(all three), not {value!r}"
        )
    return BookCounts(**{k: _int(f"{name}.{k}", value[k], 0) for k in ("clean", "dirty", "wild")})


def _override_value(name: str, value: Any) -> Any:
    """Convert one override from its JSON shape, raising BAD_RULES naming the parameter."""
    if name in _INTS:
        return _int(name, value, _INTS[name])
    if name in _WORDS:
        if value not in _WORDS[name]:
            raise _bad(f"house rule {name} must be one of {', '.join(_WORDS[name])}, not {value!r}")
        return value
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise _bad(f"house rule {name} must be true or false, not {value!r}")
        return value
    if name == "decks":
        return None if value == "players+1" else _int(name, value, 1)
    if name == "max_wilds":
        return None if value is None else _int(name, value, 0)
    if name == "meld_minimums":
        if not isinstance(value, list | tuple) or not value:
            raise _bad("house rule meld_minimums must be a list of numbers, one per round")
        return tuple(_int(name, v, 0) for v in value)
    if name == "upcard_forbidden":
        if not isinstance(value, list | tuple) or any(v not in _UPCARD_WORDS for v in value):
            raise _bad("house rule upcard_forbidden must be a list of wild, red3 and 3")
        return frozenset(value)
    if name in ("books_to_go_out", "book_bonus"):
        return _book_counts(name, value)
    if name == "open_melds_per_rank":
        # not an override in formats.md or the published schema: melds always go to the one
        # open meld of their rank, so any other value would be silently ignored
        raise _bad(
            "house rule open_melds_per_rank cannot be changed: a side holds at most one "
            "unfinished meld of each rank"
        )
    raise _bad(f"unknown house rule {name!r}")


def _check(rules: RuleSet) -> RuleSet:
    if len(rules.meld_minimums) != rules.rounds:
        raise _bad(
            f"meld_minimums has {len(rules.meld_minimums)} numbers but the game has "
            f"{rules.rounds} rounds"
        )
    if rules.book_size < rules.min_meld_size:
        raise _bad(
            f"book_size {rules.book_size} is smaller than min_meld_size {rules.min_meld_size}"
        )
    if rules.pickup_count < 1:
        raise _bad("pickup_count must be at least 1")
    return rules


def rules_from_spec(spec: Any) -> RuleSet:
    """A preset name or {"preset": ..., "overrides": {...}} -> RuleSet, else BAD_RULES."""
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise _bad(f"unknown rule preset {spec!r}; known: {', '.join(PRESETS)}")
        return PRESETS[spec]
    if not isinstance(spec, dict):
        raise _bad("rules must be a preset name or an object with preset and overrides")
    extra = set(spec) - {"preset", "overrides"}
    if extra:
        raise _bad(f"rules has unknown field(s): {', '.join(sorted(map(str, extra)))}")
    base = rules_from_spec(spec.get("preset", "classic"))
    overrides = spec.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise _bad("rules overrides must be an object of parameter: value")
    changes = {}
    for name, value in overrides.items():
        if name not in PARAMETERS:
            raise _bad(f"unknown house rule {name!r}")
        changes[name] = _override_value(name, value)
    if "rounds" in changes and "meld_minimums" not in changes:
        # a single house rule (rules.md): more or fewer rounds keep the preset's minimums,
        # cut to the rounds played or extended with the last one
        mins = base.meld_minimums
        n = changes["rounds"]
        changes["meld_minimums"] = mins[:n] + (mins[-1],) * (n - len(mins))
    return _check(replace(base, **changes)) if changes else base


def _json_value(value: Any) -> Any:
    if isinstance(value, BookCounts):
        return value.to_dict()
    if isinstance(value, frozenset):
        return sorted(value, key=_UPCARD_WORDS.index)
    if isinstance(value, tuple):
        return list(value)
    return value


def rules_to_dict(rules: RuleSet) -> dict[str, Any]:
    """Every parameter with its JSON-shaped value (decks None shown as "players+1")."""
    out: dict[str, Any] = {"preset": rules.preset}
    for name in PARAMETERS:
        value = getattr(rules, name)
        out[name] = "players+1" if name == "decks" and value is None else _json_value(value)
    return out


def rules_to_spec(rules: RuleSet) -> str | dict[str, Any]:
    """The shortest log `rules` value that gives this rule set back."""
    base = PRESETS.get(rules.preset, _CLASSIC)
    if rules == base:
        return base.preset
    mine, theirs = rules_to_dict(rules), rules_to_dict(base)
    overrides = {k: v for k, v in mine.items() if k != "preset" and theirs[k] != v}
    return {"preset": base.preset, "overrides": overrides}

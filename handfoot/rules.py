"""Rule sets: every parameter of rules.md as one frozen dataclass, plus the five presets.

Each field of `RuleSet` carries its own description, kind and range (rules.md, "Ranges of house
rules") in its dataclass metadata. That one declaration is the single source for:

- checking house-rule overrides (`rules_from_spec`, BAD_RULES naming the parameter and range),
- the `overrides` part of the published JSON Schemas (`parameters.overrides_schema`),
- forms and docs (`parameters.rule_parameters(preset)`: one `ParameterInfo` per house rule).

The metadata (`parameter_table`) and the reading of overrides come from `handfoot.overrides`
(with the `Literal` types of the word parameters), imported on first use: a log of a preset
needs none of it. The imports point one way: `rule_values` (the kinds and shapes of a house
rule's value) below `rules` and `overrides`; `overrides` imports neither `rules` nor
`parameters`; `parameters` (forms and schemas) builds on both.

Long on purpose: every house rule is one declared field, and the presets and checks that tie
them together belong beside the declarations.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cache

from .errors import EngineError, ErrorCode, shown
from .rule_values import BOOK_KINDS as BOOK_KINDS
from .rule_values import PLAYERS_PLUS_ONE as PLAYERS_PLUS_ONE
from .rule_values import BookCounts as BookCounts
from .rule_values import ParamKind as ParamKind

TYPE_CHECKING = False  # typing is not imported at run time: checking a log does not need it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    # the words of the word parameters, for their annotations
    from .overrides import (
        BookGrowth,
        ParameterInfo,
        PartnerCondition,
        PickupRequires,
        RedThrees,
        UpcardWord,
        WildRatio,
        WildUpcard,
    )

MAX_DECKS = 12  # the top of the `decks` range; also the most a "players+1" table may use
MAX_PLAYERS = 12  # seats at one table (a log's seats, a sheet's players)


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
class RuleSet:
    """One rule set: a preset's name and every parameter of rules.md (a docstring also spares
    the dataclass working out its 30-field signature as its __doc__ at import)."""

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
    concealed_going_out_bonus: int = _rule(
        "Points more for the side whose player goes out concealed: without having laid anything "
        "down earlier in the round (0: no such bonus).",
        N.NUMBER,
        0,
        5000,
    )
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
    concealed_going_out_bonus=0,
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


PARAMETERS: tuple[str, ...] = tuple(f.name for f in fields(RuleSet) if f.name != "preset")


# ----- reading rules ------------------------------------------------------------------------


def _bad(message: str) -> EngineError:
    return EngineError(ErrorCode.BAD_RULES, message)


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


def rules_from_spec(spec: Any) -> RuleSet:
    """A preset name or {"preset": ..., "overrides": {...}} -> RuleSet, else BAD_RULES."""
    if isinstance(spec, RuleSet):
        return spec
    if type(spec) is str:
        if spec not in PRESETS:
            raise _bad(f"unknown rule preset {shown(spec)}; known: {', '.join(PRESETS)}")
        return PRESETS[spec]
    if not isinstance(spec, dict):
        raise _bad("rules must be a preset name or an object with preset and overrides")
    extra = set(spec) - {"preset", "overrides"}
    if extra:
        raise _bad(f"rules has unknown field(s): {', '.join(sorted(map(shown, extra)))}")
    preset = spec.get("preset", "classic")
    if type(preset) is not str:
        raise _bad(f"rules preset must be a preset name, not {shown(preset)}")
    base = rules_from_spec(preset)
    overrides = spec.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise _bad("rules overrides must be an object of parameter: value")
    # imported here: a preset's name needs none of it (nor `typing`, which it imports)
    from .overrides import read_overrides

    changes = read_overrides(overrides, parameter_table(), FIXED_RULES)
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
        from .overrides import UPCARD_WORDS  # imported here: a preset's log writes no word set

        return sorted(value, key=UPCARD_WORDS.index)
    if isinstance(value, tuple):
        return list(value)
    return value


@cache
def parameter_table() -> dict[str, ParameterInfo]:
    """Every house rule with its metadata (`overrides.ParameterInfo`, the value from classic),
    in rules.md order; built on first use (a log of a preset needs none of it)."""
    from typing import get_type_hints

    from . import overrides

    hints = get_type_hints(RuleSet, localns=vars(overrides))  # the Literal words are there
    table: dict[str, ParameterInfo] = {}
    for f in fields(RuleSet):
        spec: _Spec | None = f.metadata.get("rule")
        if spec is None or not spec.overridable:
            continue
        words = overrides.words_of(hints[f.name]) if spec.kind in (N.WORD, N.WORD_SET) else ()
        table[f.name] = overrides.ParameterInfo(
            name=f.name,
            description=spec.description,
            kind=spec.kind,
            value=_json_value(f.name, getattr(_CLASSIC, f.name)),
            minimum=spec.minimum,
            maximum=spec.maximum,
            words=(PLAYERS_PLUS_ONE,) if spec.kind is N.DECKS else words,
            min_items=spec.min_items,
            max_items=spec.max_items,
            parts=BOOK_KINDS if spec.kind is N.BOOK_COUNTS else (),
            note=spec.note,
        )
    return table


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


# the house rules, in rules.md order
OVERRIDABLE: tuple[str, ...] = tuple(
    f.name for f in fields(RuleSet) if (spec := f.metadata.get("rule")) and spec.overridable
)


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
    `entered` parts are written on the sheet; the others the engine works out from the rules:
    `counts` (an entered part) times what the house rule `rule` pays for one (`rate`, when the
    rule's value is not simply the points: a book's kind, red 3s only where they are laid; a
    yes/no part counts as one when yes)."""

    name: str
    words: str
    kind: PartKind
    minimum: int = 0
    maximum: int = 0
    entered: bool = True
    short: str = ""  # its name in the sum a SCORE_MISMATCH message shows
    adds: int = 0  # in the side's score: 1 added, -1 taken away, 0 not at all (counts, yes/no)
    counts: str = ""  # a worked-out part: the entered part it pays for
    rule: str = ""  # a worked-out part: the house rule (a RuleSet field) that gives it points
    rate: Callable[[RuleSet], int] | None = None  # points for one; None: the rule's value
    book: str = ""  # a book bonus: the kind of book (the report's "books")
    only_with: str = ""  # a yes/no part that only a side with this yes/no part may have
    # an entered part: other words a spreadsheet's column header may use for it, besides its
    # name written with spaces ("clean books"); a results import recognises them in any case
    headers: tuple[str, ...] = ()

    @property
    def default(self) -> bool | int:
        """Its value where a sheet or a stored report leaves it out (a part added later)."""
        return False if self.kind == PartKind.YES_NO else 0

    def pays(self, rules: RuleSet) -> int:
        """A worked-out part's points for one of what it `counts`, under `rules`."""
        return self.rate(rules) if self.rate is not None else int(getattr(rules, self.rule))


COUNT_MAX = 99  # the most books or red 3s a scorer may write for one side of one round
POINTS_MAX = 100_000  # the most card points


def _entered(
    name: str,
    words: str,
    kind: PartKind,
    adds: int = 0,
    short: str = "",
    only_with: str = "",
    headers: tuple[str, ...] = (),
) -> ScoringPart:
    """A part a scorer writes; `adds` and `short` for points that count in the score as they
    are (the cards laid down, the cards held)."""
    maximum = {PartKind.COUNT: COUNT_MAX, PartKind.POINTS: POINTS_MAX}.get(kind, 1)
    return ScoringPart(
        name, words, kind, 0, maximum, short=short, adds=adds, only_with=only_with,
        headers=headers,
    )


def _worked_out(
    name: str,
    words: str,
    short: str,
    counts: str,
    rule: str,
    rate: Callable[[RuleSet], int] | None = None,
    book: str = "",
) -> ScoringPart:
    """A part the engine works out: `counts` times what `rule` pays for one (added)."""
    return ScoringPart(
        name, words, PartKind.POINTS, entered=False, short=short, adds=1, counts=counts,
        rule=rule, rate=rate, book=book,
    )


def _laid_red_three_bonus(rules: RuleSet) -> int:
    """Red 3s score their bonus only where they are laid out (held ones are in the hand)."""
    return rules.red_three_bonus if rules.red_threes == "lay" else 0


# The one list of a side's round score parts, in the order the engine's report gives them
# (formats.md, "Score sheet"). The sheet form, the table's words, the figures two entries must
# agree on, the stored `RoundResult` columns, the results API, the score objects and their
# scoring (exact and fast) are derived from it (CONTRIBUTING.md, "Adding a house rule or a
# scoring part").
SIDE_PARTS: tuple[ScoringPart, ...] = (
    _entered("clean_books", "Clean books", PartKind.COUNT,
             headers=("clean", "naturals", "natural books", "red books")),
    _entered("dirty_books", "Dirty books", PartKind.COUNT,
             headers=("dirty", "black books", "mixed books")),
    _entered("wild_books", "Wild books", PartKind.COUNT, headers=("wild", "wilds")),
    _entered("red_threes", "Red 3s", PartKind.COUNT,
             headers=("red 3s", "red 3", "red3s", "red3", "reds")),
    _worked_out("red_three_points", "Points for red 3s", "red 3s", "red_threes",
                "red_three_bonus", _laid_red_three_bonus),
    _entered("table_points", "Points on the table", PartKind.POINTS, adds=1, short="cards",
             headers=("points on table", "points on the table", "card points", "laid",
                      "meld points", "cards")),
    _entered("held_points", "Points left in hand", PartKind.POINTS, adds=-1, short="held",
             headers=("held", "penalty", "in hand", "left in hand", "points held")),
    _worked_out("going_out_bonus", "Going out bonus", "going out", "went_out", "going_out_bonus"),
    _entered("went_out", "Went out", PartKind.YES_NO, headers=("out", "going out", "wentout")),
    _worked_out("concealed_bonus", "Concealed going out bonus", "concealed",
                "went_out_concealed", "concealed_going_out_bonus"),
    _entered("went_out_concealed", "Went out concealed", PartKind.YES_NO, only_with="went_out"),
)
# The bonus of each kind of book: part of a side's score (the report's "books"), not a field of
# its own in the report, the sheet or the stored columns.
BOOK_BONUSES: tuple[ScoringPart, ...] = (
    _worked_out("clean_bonus", "Clean book bonus", "books", "clean_books", "book_bonus",
                lambda rules: rules.book_bonus.clean, "clean"),
    _worked_out("dirty_bonus", "Dirty book bonus", "books", "dirty_books", "book_bonus",
                lambda rules: rules.book_bonus.dirty, "dirty"),
    _worked_out("wild_bonus", "Wild book bonus", "books", "wild_books", "book_bonus",
                lambda rules: rules.book_bonus.wild, "wild"),
)
ENTERED_PARTS: tuple[ScoringPart, ...] = tuple(p for p in SIDE_PARTS if p.entered)
# every field of a side's score (`report.SideScore`)
SCORE_PARTS: tuple[ScoringPart, ...] = (*SIDE_PARTS, *BOOK_BONUSES)
WORKED_OUT_PARTS: tuple[ScoringPart, ...] = tuple(p for p in SCORE_PARTS if not p.entered)
PARTS_BY_NAME: dict[str, ScoringPart] = {p.name: p for p in SCORE_PARTS}
# the house rules that only give points (changing one changes no play, only the scores)
SCORING_RULES: frozenset[str] = frozenset(p.rule for p in WORKED_OUT_PARTS)


def parts_paid(rules: RuleSet) -> tuple[ScoringPart, ...]:
    """The parts a scorer writes but a detail of another yes/no part (`only_with`, such as a
    concealed going out) that no house rule of these pays for: the sheet form's boxes."""
    unpaid = {part.counts for part in WORKED_OUT_PARTS
              if PARTS_BY_NAME[part.counts].only_with and not part.pays(rules)}
    return tuple(part for part in ENTERED_PARTS if part.name not in unpaid)


def parts_scored(rules: RuleSet) -> tuple[ScoringPart, ...]:
    """The parts a scorer writes that these rules can score, in the sheet's order: wild books
    only where melds of wilds are allowed, laid red 3s only where red 3s are laid (held ones are
    in the points left in hand), a detail of another yes/no part (`only_with`, such as a
    concealed going out) only where a house rule pays for it. A printed sheet has a box for each
    of these and no other."""
    unscored = set()
    if not rules.wild_melds:
        unscored.add("wild_books")
    if rules.red_threes != "lay":
        unscored.add("red_threes")
    return tuple(part for part in parts_paid(rules) if part.name not in unscored)

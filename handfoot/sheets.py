"""Score sheets (formats.md, "Score sheet"): compute a round's scores and reject sheets
that cannot have happened under the rule set.

`check_sheet` never raises: every problem becomes a `GameReport` with `valid` false and an
`EngineError` carrying one of the codes of formats.md. The structure (fields, types, ranges:
every number fits a 32-bit column) is checked by the published JSON Schema through a compiled
validator (`schemas.validate_sheet_structure`); this module keeps only the checks that need the
rule set. Everything that depends only on the rule set is computed once per rule set (LRU).

Long on purpose: the sheet's checks run in one pass with one set of per-rule-set tables; the
fast path for plain sheets and the general path share them. Both score from the declaration of
the parts (`rules.SCORE_PARTS`): the exact path through `scoring.side_score`, the fast path
through a side loop generated from the declaration (`plain_sides_source`), so a new part keeps
the fast path on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any

from .errors import EngineError, ErrorCode
from .formats import SHEET_FORMAT
from .jsontext import parse_document
from .report import GameReport, RoundReport, SideScore, with_score_parts
from .rules import (
    BOOK_BONUSES,
    ENTERED_PARTS,
    MAX_DECKS,
    PRESETS,
    SCORE_PARTS,
    SIDE_PARTS,
    WORKED_OUT_PARTS,
    PartKind,
    RuleSet,
    ScoringPart,
    rules_from_spec,
)
from .scoring import side_score

# One standard deck: 52 cards + 2 jokers.
DECK_WILDS = 6  # four 2s and two jokers
DECK_TWOS = 4
DECK_NATURALS = 44  # 4 to A, four suits
DECK_RED_THREES = 2
# Card value of every card of one deck that can be laid down (wilds and naturals; 3s never
# can): jokers 2x50, 2s 4x20, aces 4x20, 8-K 24x10, 4-7 16x5.
DECK_MELDABLE_VALUE = 2 * 50 + 4 * 20 + 4 * 20 + 24 * 10 + 16 * 5  # 580

CHEAPEST_NATURAL = 5  # a 4, 5, 6 or 7
CHEAPEST_WILD = 20  # a 2

# The numbers a scorer writes for each side of a round (the sheet's side fields but `went_out`),
# from the one declaration of the score's parts.
# Their totals over all sides are what the checks against the decks read.
SIDE_NUMBER_FIELDS = tuple(p.name for p in ENTERED_PARTS if p.kind != PartKind.YES_NO)
# yes/no parts that only a side with another yes/no part may have (`ScoringPart.only_with`)
_DETAILS = tuple(p for p in ENTERED_PARTS if p.only_with)


@with_score_parts
class SheetSideScore(SideScore):
    """A side's score from a sheet that also carries a `cut_bonus` (added to the score); every
    field by keyword, so the cut bonus can never land in a part's field."""

    cut_bonus: int = 0

    @property
    def score(self) -> int:
        # two-argument super(): the zero-argument form fails in a slots dataclass
        return super(SheetSideScore, self).score + self.cut_bonus  # noqa: UP008 - as said

    def to_dict(self) -> dict[str, Any]:
        out = SideScore.to_dict(self)
        out["score"] = self.score
        out["cut_bonus"] = self.cut_bonus
        return out


@dataclass(frozen=True, slots=True)
class SheetLimits:
    """What a sheet check needs from a rule set, computed once per rule set."""

    rules: RuleSet
    name: str  # how messages name the rule set
    min_clean_points: int
    min_dirty_points: int | None  # None: no dirty book is possible under these rules
    min_wild_points: int
    min_dirty_naturals: int | None
    need_text: str  # "2 clean, 2 dirty and 1 wild book"
    # what each worked-out part pays for one (`rules.WORKED_OUT_PARTS`, in that order; the fast
    # path's scoring)
    bonus: tuple[int, ...]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _books_text(clean: int, dirty: int, wild: int) -> str:
    """'2 clean, 2 dirty and 1 wild book' (types with a zero count left out)."""
    counts = [(n, kind) for n, kind in ((clean, "clean"), (dirty, "dirty"), (wild, "wild")) if n]
    if not counts:
        return "no books"
    text = _join([f"{n} {kind}" for n, kind in counts])
    return text + (" book" if counts[-1][0] == 1 else " books")


def cheapest_dirty_book(rules: RuleSet) -> tuple[int, int] | None:
    """(fewest naturals, least card value) of a legal dirty book, or None if none is legal.

    A dirty book holds at least one wild and reaches `book_size`; the wilds are counted at the
    cheapest wild (a 2, 20) and the naturals at the cheapest natural (5). Melds can grow past
    `book_size` in one action, so every size is considered through the wild count.
    """
    size = rules.book_size
    fewest: int | None = None
    cheapest: int | None = None
    for wilds in range(1, 4 * size + 1):
        if rules.max_wilds is not None and wilds > rules.max_wilds:
            break
        naturals = max(size - wilds, 1)
        # Legal meld sizes grow with the naturals; a bounded search is enough.
        while naturals <= 4 * size and not rules.wilds_ok(naturals, wilds):
            naturals += 1
        if naturals > 4 * size:
            continue
        value = naturals * CHEAPEST_NATURAL + wilds * CHEAPEST_WILD
        fewest = naturals if fewest is None else min(fewest, naturals)
        cheapest = value if cheapest is None else min(cheapest, value)
    if fewest is None or cheapest is None:
        return None
    return fewest, cheapest


@lru_cache(maxsize=256)
def sheet_limits(rules: RuleSet) -> SheetLimits:
    """The per-rule-set constants of the sheet checks (an LRU cache: rule sets are bounded, but
    anyone may send one, so the cache must not grow with them)."""
    dirty = cheapest_dirty_book(rules)
    need = rules.books_to_go_out
    name = (
        rules.preset if PRESETS.get(rules.preset) == rules else f"{rules.preset} (with house rules)"
    )
    return SheetLimits(
        rules=rules,
        name=name,
        min_clean_points=rules.book_size * CHEAPEST_NATURAL,
        min_dirty_points=None if dirty is None else dirty[1],
        min_wild_points=rules.book_size * CHEAPEST_WILD,
        min_dirty_naturals=None if dirty is None else dirty[0],
        need_text=_books_text(need.clean, need.dirty, need.wild),
        bonus=tuple(part.pays(rules) for part in WORKED_OUT_PARTS),
    )


@lru_cache(maxsize=256)
def _limits_for_key(key: str) -> SheetLimits:
    """`sheet_limits` of a rules spec given as a preset name or as the JSON text of a rules
    object (only valid specs are cached: a BAD_RULES error is raised, not stored)."""
    spec = key if key in PRESETS else json.loads(key)
    return sheet_limits(rules_from_spec(spec))


def _limits_for_spec(spec: Any) -> SheetLimits:
    """rules_from_spec + sheet_limits, cached by preset name (and by override text)."""
    if type(spec) is str:
        if spec not in PRESETS:
            rules_from_spec(spec)  # raises BAD_RULES
        return _limits_for_key(spec)
    if type(spec) is dict:
        try:
            key = json.dumps(spec, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            key = None
        if key is not None:
            return _limits_for_key(key)
    return sheet_limits(rules_from_spec(spec))


def _bad_format(message: str, round_no: int | None = None) -> EngineError:
    return EngineError(ErrorCode.BAD_FORMAT, message, round_no, None)


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value[:40])
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return str(value)


@dataclass(slots=True)
class _Side:
    """One side of a sheet: every part a scorer writes (`ENTERED_PARTS`) by name, the score
    written down (None when left out) and the sheet's cut bonus."""

    figures: dict[str, Any]
    score: int | None
    cut_bonus: int

    def __getitem__(self, name: str) -> Any:
        return self.figures[name]


def _side(side: dict[str, Any]) -> _Side:
    """One side's figures from a side the schema has accepted (whole floats become ints)."""
    numbers = {name: side.get(name, 0) for name in SIDE_NUMBER_FIELDS}
    cut, score = side.get("cut_bonus", 0), side.get("score")
    # 5.0 is a whole number too (JSON does not tell them apart): a float anywhere makes the sum
    # a float, which is cheaper to test than each figure
    if type(sum(numbers.values()) + cut) is float or type(score) is float:
        numbers = {name: int(value) for name, value in numbers.items()}
        cut, score = int(cut), None if score is None else int(score)
    figures = {
        # a yes/no part the sheet leaves out is no (a part added later is optional in the schema)
        part.name: side.get(part.name, part.default)
        if part.kind == PartKind.YES_NO
        else numbers[part.name]
        for part in ENTERED_PARTS
    }
    return _Side(figures, score, cut)


@dataclass(slots=True)
class _Sheet:
    """A score sheet whose structure the schema has accepted, read with its rule set."""

    round_no: int
    limits: SheetLimits
    ended_by: str
    sides: list[_Side]
    players: int
    decks: int
    totals: dict[str, int]  # each of `SIDE_NUMBER_FIELDS` over all sides


def _read(doc: Any, rules: RuleSet | None) -> _Sheet:
    """Structure (the published schema), rule set, round and table of a sheet (`rules`, when
    given, is its rule set already parsed)."""
    if type(doc) is not dict:
        raise _bad_format(f"A score sheet should be a JSON object, not {_describe(doc)}.")
    from .schemas import sheet_structure_ok, validate_sheet_structure  # the exact path only

    try:
        ok = sheet_structure_ok()(doc)
    except ValueError:  # not JSON data (nested too deeply): validate_sheet_structure words it
        ok = False
    if not ok:
        raise validate_sheet_structure(doc) or _bad_format("The sheet is not JSON data.")
    round_no = int(doc["round"])
    try:
        limits = sheet_limits(rules) if rules is not None else _limits_for_spec(doc["rules"])
    except EngineError as err:  # BAD_RULES
        raise err.located(round_no, None) from None
    rules = limits.rules
    if round_no > rules.rounds:
        raise _bad_format(
            f"This sheet is for round {round_no}, but a {limits.name} game has {rules.rounds} rounds.",
            round_no,
        )
    sides = [_side(raw) for raw in doc["sides"]]
    totals = {name: sum(sd[name] for sd in sides) for name in SIDE_NUMBER_FIELDS}
    n_sides = len(sides)
    players = int(doc.get("players", 2 * n_sides))
    if players % n_sides:
        raise EngineError(
            ErrorCode.BAD_SEATS,
            f"{players} players cannot be split into {n_sides} equal sides.",
            round_no,
        )
    decks = rules.deck_count(players)
    if decks > MAX_DECKS:
        raise EngineError(
            ErrorCode.BAD_SEATS,
            f"{players} players would need {decks} decks; a game uses at most {MAX_DECKS}.",
            round_no,
        )
    return _Sheet(round_no, limits, doc["ended_by"], sides, players, decks, totals)


def _check_going_out(sheet: _Sheet) -> None:
    sides, limits, round_no = sheet.sides, sheet.limits, sheet.round_no
    out = [i for i, s in enumerate(sides, 1) if s["went_out"]]
    if sheet.ended_by != "went_out":
        if out:
            raise EngineError(
                ErrorCode.SHEET_GOING_OUT,
                f"The round ended when the stock ran out, but side {out[0]} is marked went_out; "
                "nobody goes out when the stock runs out.",
                round_no,
            )
        return
    if len(out) != 1:
        if not out:
            msg = "The round ended with a player going out, but no side is marked went_out."
        else:
            msg = f"Sides {_join([str(i) for i in out])} are all marked went_out; only one side can go out."
        raise EngineError(ErrorCode.SHEET_GOING_OUT, msg, round_no)
    i = out[0]
    went = sides[i - 1]
    clean, dirty, wild = went["clean_books"], went["dirty_books"], went["wild_books"]
    need = limits.rules.books_to_go_out
    if clean < need.clean or dirty < need.dirty or wild < need.wild:
        raise EngineError(
            ErrorCode.SHEET_GOING_OUT,
            f"Side {i} went out but has only {_books_text(clean, dirty, wild)}; {limits.name} needs "
            f"{limits.need_text} to go out.",
            round_no,
        )
    if sheet.players == len(sides) and went["held_points"]:
        raise EngineError(
            ErrorCode.SHEET_GOING_OUT,
            f"Side {i} is one player who went out and so holds no cards, but its "
            f"held_points are {went['held_points']}.",
            round_no,
        )
    _check_details(sheet)


def _check_details(sheet: _Sheet) -> None:
    """A yes/no part that only a side with another yes/no part may have (`only_with`)."""
    for part in _DETAILS:
        for i, side in enumerate(sheet.sides, 1):
            if side[part.name] and not side[part.only_with]:
                raise EngineError(
                    ErrorCode.SHEET_GOING_OUT,
                    f"Side {i} is marked {part.name} but not {part.only_with}.",
                    sheet.round_no,
                )


def _first_with(sides: list[_Side], name: str) -> int:
    """The 1-based number of the first side whose figure `name` is not zero."""
    return next(i for i, s in enumerate(sides, 1) if s[name])


def _check_books(sheet: _Sheet) -> None:
    sides, limits, round_no, decks = sheet.sides, sheet.limits, sheet.round_no, sheet.decks
    rules = limits.rules
    totals = sheet.totals
    clean_all, dirty_all, wild_all = (
        totals["clean_books"],
        totals["dirty_books"],
        totals["wild_books"],
    )
    problem = None
    if wild_all and not rules.wild_melds:
        i = _first_with(sides, "wild_books")
        problem = (
            f"Side {i} shows {_plural(sides[i - 1]['wild_books'], 'wild book')}, but {limits.name} "
            "does not allow melds of wild cards only."
        )
    elif dirty_all and limits.min_dirty_naturals is None:
        i = _first_with(sides, "dirty_books")
        problem = (
            f"Side {i} shows {_plural(sides[i - 1]['dirty_books'], 'dirty book')}, but {limits.name} "
            "allows no wild card in a natural meld."
        )
    elif (wilds := wild_all * rules.book_size + dirty_all) > DECK_WILDS * decks:
        problem = (
            f"The sides show {_plural(wild_all, 'wild book')} and "
            f"{_plural(dirty_all, 'dirty book')} together, which need at least {wilds} wild "
            f"cards (2s and jokers), but {_plural(decks, 'deck')} hold only {DECK_WILDS * decks}."
        )
    elif (
        naturals := clean_all * rules.book_size + dirty_all * (limits.min_dirty_naturals or 0)
    ) > DECK_NATURALS * decks:
        problem = (
            f"The sides show {_plural(clean_all, 'clean book')} and "
            f"{_plural(dirty_all, 'dirty book')} together, which need at least {naturals} "
            f"natural cards (4 to A), but {_plural(decks, 'deck')} hold only "
            f"{DECK_NATURALS * decks}."
        )
    if problem:
        raise EngineError(ErrorCode.SHEET_BOOKS, problem, round_no)


def _check_red_threes(sheet: _Sheet) -> None:
    sides, limits, decks = sheet.sides, sheet.limits, sheet.decks
    red_all = sheet.totals["red_threes"]
    if not red_all:
        return
    if limits.rules.red_threes != "lay":
        i = _first_with(sides, "red_threes")
        raise EngineError(
            ErrorCode.SHEET_RED_THREES,
            f"Side {i} shows {_plural(sides[i - 1]['red_threes'], 'red 3')} laid out, but under "
            f"{limits.name} red 3s are held like any dead card; count them in held_points.",
            sheet.round_no,
        )
    if red_all > DECK_RED_THREES * decks:
        raise EngineError(
            ErrorCode.SHEET_RED_THREES,
            f"The sides show {red_all} red 3s together, but {_plural(decks, 'deck')} hold only "
            f"{DECK_RED_THREES * decks}.",
            sheet.round_no,
        )


def _check_points(sheet: _Sheet) -> None:
    limits, decks = sheet.limits, sheet.decks
    min_dirty = limits.min_dirty_points or 0
    for i, sd in enumerate(sheet.sides, 1):
        clean, dirty, wild = sd["clean_books"], sd["dirty_books"], sd["wild_books"]
        least = clean * limits.min_clean_points + dirty * min_dirty + wild * limits.min_wild_points
        if sd["table_points"] < least:
            raise EngineError(
                ErrorCode.SHEET_POINTS,
                f"Side {i} has {_books_text(clean, dirty, wild)}, which hold cards worth at least "
                f"{least} points, but its table_points are only {sd['table_points']}.",
                sheet.round_no,
            )
    table_all = sheet.totals["table_points"]
    if table_all > DECK_MELDABLE_VALUE * decks:
        raise EngineError(
            ErrorCode.SHEET_POINTS,
            f"The sides laid down {table_all} points of cards together, but the cards of "
            f"{_plural(decks, 'deck')} that can be laid down are worth only "
            f"{DECK_MELDABLE_VALUE * decks}.",
            sheet.round_no,
        )


def _scores(sheet: _Sheet) -> list[SideScore]:
    """Each side's score and its parts; SCORE_MISMATCH where a written score differs."""
    rules = sheet.limits.rules
    scored: list[SideScore] = []
    for i, side in enumerate(sheet.sides, 1):
        given, cut = side.score, side.cut_bonus
        s = side_score(rules, **side.figures)
        if cut:
            s = _with_cut(s, cut)
        if given is not None and given != s.score:
            raise EngineError(
                ErrorCode.SCORE_MISMATCH,
                f"Side {i}'s score is written as {given}, but its figures give {s.score} "
                f"({_score_sum(s, cut)}).",
                sheet.round_no,
            )
        scored.append(s)
    return scored


def _with_cut(s: SideScore, cut: int) -> SheetSideScore:
    return SheetSideScore(**s.parts(), cut_bonus=cut)


def _check(doc: Any, rules: RuleSet | None) -> RoundReport:
    sheet = _read(doc, rules)
    _check_going_out(sheet)
    _check_books(sheet)
    _check_red_threes(sheet)
    _check_points(sheet)
    return RoundReport(sheet.round_no, sheet.ended_by, None, _scores(sheet), [])


def _score_sum(s: SideScore, cut: int) -> str:
    """ "books 2300 + red 3s 100 + cards 555 + going out 100 - held 0": the books, then in the
    declared order (`SIDE_PARTS`) each part that adds (a worked-out one where not zero), the
    cut, and the parts taken away."""
    parts = [f"books {sum(getattr(s, p.name) for p in BOOK_BONUSES)}"]
    for part in SIDE_PARTS:
        value = getattr(s, part.name)
        if part.adds > 0 and (part.entered or value):
            parts.append(f"{part.short} {value}")
    if cut:
        parts.append(f"cut {cut}")
    taken = [f" - {p.short} {getattr(s, p.name)}" for p in SCORE_PARTS if p.adds < 0]
    return " + ".join(parts) + "".join(taken)


def _given_round(doc: Any) -> int | None:
    if type(doc) is not dict:
        return None
    given = doc.get("round")
    if type(given) is float and given.is_integer():
        given = int(given)
    return given if type(given) is int and given >= 1 else None


def check_sheet(sheet: dict[str, Any] | str | bytes, rules: RuleSet | None = None) -> GameReport:
    """Check one score sheet and compute its scores. Never raises.

    `rules`, when given, is the sheet's rule set already parsed (the caller has matched it with
    the sheet's `rules`), so it is not parsed again.

    Returns a GameReport of kind "sheet": when valid, `rounds` holds the sheet's one round and
    `totals` its scores; when not, `error` holds the first problem found (its `round` is the
    sheet's round when that could be read, its `event` null). An unexpected exception inside
    the engine is logged and reported as INTERNAL_ERROR.
    """
    doc: Any = sheet
    try:
        if type(sheet) is not dict and isinstance(sheet, str | bytes | bytearray):
            doc = parse_document(sheet)
        plain = plain_check(doc, rules)
        if plain is None:
            rnd = _check(doc, rules)
            plain = rnd, rnd.scores
        rnd, totals = plain
        return GameReport("sheet", True, None, [rnd], [], totals)
    except EngineError as err:
        if err.round is None:
            err.round = _given_round(doc)
        return GameReport("sheet", False, err)
    except Exception:  # a bug in the engine: reported as such (never as the user's mistake)
        import logging  # imported late: only an engine fault logs (the command line starts faster)

        logging.getLogger(__name__).exception("engine: unexpected exception while checking a score sheet")
        return GameReport("sheet", False, EngineError.internal("score sheet"))


# --- the fast path: a plainly well-formed, valid sheet in one pass -------------------------------

_OPTIONAL = ("score", "cut_bonus")  # a side's fields that are not parts
_TOP_REQUIRED = ("format", "rules", "round", "ended_by", "sides")
_read_top = itemgetter(*_TOP_REQUIRED)
_SHAPE_WORDS = frozenset(("type", "minimum", "maximum", "multipleOf", "description"))
_TYPES = frozenset(("integer", "boolean"))
# the keywords the fast path mirrors for each top-level field (`rules`: any value, as the
# run-time validator has it; `rules_from_spec` judges it)
_TOP_WORDS = {
    "format": frozenset(("const", "description")),
    "rules": None,
    "round": _SHAPE_WORDS - {"multipleOf"},
    "ended_by": frozenset(("enum", "description")),
    "players": _SHAPE_WORDS - {"multipleOf"},
    "sides": frozenset(("type", "minItems", "maxItems", "items", "description")),
}

_Number = tuple[int, int, int]  # least, most, multiple of
# What the side loop found: each side's score and parts, the scores, the side that went out
# (None when none did; the last one when several did), how many went out, and the totals of all
# sides' numbers (`SIDE_NUMBER_FIELDS`).
_Sides = tuple[list[SideScore], list[int], SideScore | None, int, dict[str, int]]
_SideLoop = Callable[["PlainSide", SheetLimits, list[Any]], "_Sides | None"]


@dataclass(frozen=True, slots=True)
class PlainSide:
    """What the published sheet schema allows in a side, for the fast path: the parts it
    requires (the others, parts added later, may be left out), `went_out` and every other yes/no
    part a boolean, the numbers integers, `_OPTIONAL` not required."""

    required: tuple[str, ...]  # in the declared order
    counts: int  # the most of each count (books, red 3s), from 0 in whole numbers
    points: tuple[int, int]  # the most and the multiple of every points part, from 0
    score: tuple[int, int]  # the least and the most of a written score, in whole numbers
    cut: tuple[int, int]  # the most and the multiple of a cut bonus, from 0
    # the greatest 2**k - 1 within `counts`: the fast path takes counts up to it (one above,
    # such as 600 books, is left to the exact path), so that a side's counts are tested at once
    # on their bits
    count_bits: int
    loop: _SideLoop  # `plain_sides_source` of `required`, compiled


@dataclass(frozen=True, slots=True)
class PlainShape:
    """What the published sheet schema allows, read once from it for the fast path."""

    rounds: tuple[int, int]
    players: tuple[int, int]
    ended_by: tuple[str, ...]
    sides: tuple[int, int]
    side: PlainSide


def _number_shape(prop: dict[str, Any]) -> _Number:
    return int(prop["minimum"]), int(prop["maximum"]), int(prop.get("multipleOf", 1))


def _side_props(defs: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """Each property of a side, references followed; None if one holds a keyword the fast
    path does not mirror."""
    props = {}
    for name, prop in defs["side"]["properties"].items():
        while "$ref" in prop:
            prop = defs[prop["$ref"].rsplit("/", 1)[1]]
        if not prop.keys() <= _SHAPE_WORDS or prop["type"] not in _TYPES:
            return None
        props[name] = prop
    return props


def _one_shape(numbers: dict[str, _Number], kind: PartKind) -> _Number | None:
    """The one shape all parts of `kind` share, or None."""
    shapes = {numbers.get(part.name) for part in ENTERED_PARTS if part.kind == kind}
    shape = shapes.pop() if shapes else (0, 0, 1)
    return None if shapes else shape


def _kinds_match(props: dict[str, dict[str, Any]]) -> bool:
    """Every part's property has its kind's JSON type, and the others are numbers."""
    boolean = {part.name for part in ENTERED_PARTS if part.kind == PartKind.YES_NO}
    return all((prop["type"] == "boolean") == (name in boolean) for name, prop in props.items())


def _plain_side_shape(defs: dict[str, Any]) -> PlainSide | None:
    """`PlainSide`, or None when the schema's sides are not shaped as the fast path expects."""
    side, props = defs["side"], _side_props(defs)
    entered = [part.name for part in ENTERED_PARTS]
    if (
        props is None
        or not set(side["required"]) <= set(entered)
        or props.keys() != {*entered, *_OPTIONAL}
        or not _kinds_match(props)
    ):
        return None
    numbers = {n: _number_shape(p) for n, p in props.items() if p["type"] == "integer"}
    counts, points = _one_shape(numbers, PartKind.COUNT), _one_shape(numbers, PartKind.POINTS)
    score, cut = numbers.get("score"), numbers.get("cut_bonus")
    if (
        counts is None or counts[0] != 0 or counts[2] != 1
        or points is None or points[0] != 0
        or score is None or score[2] != 1
        or cut is None or cut[0] != 0
    ):
        return None
    required = tuple(name for name in entered if name in side["required"])
    return PlainSide(required, counts[1], points[1:], score[:2], cut[1:],
                     _bits_within(counts[1]), plain_sides(required))


def _bits_within(most: int) -> int:
    """The greatest 2**k - 1 that is at most `most` (0 or more)."""
    return (1 << (most + 1).bit_length() - 1) - 1


@lru_cache(maxsize=1)
def plain_shape() -> PlainShape | None:
    """The schema's limits for the fast path; None (every sheet takes the exact path) when the
    schema holds anything the fast path does not mirror exactly."""
    from .schemas import load_schema

    schema = load_schema("score_sheet")
    props, defs = schema["properties"], schema["$defs"]
    side = _plain_side_shape(defs)
    if (
        side is None
        or schema.get("additionalProperties") is not False
        or defs["side"].get("additionalProperties") is not False
        or props.keys() != _TOP_WORDS.keys()
        or set(schema["required"]) != set(_TOP_REQUIRED)  # and "players" optional
        or any(words is not None and not props[name].keys() <= words
               for name, words in _TOP_WORDS.items())
        or props["format"]["const"] != SHEET_FORMAT
        or props["sides"]["items"] != {"$ref": "#/$defs/side"}
    ):
        return None
    sides = props["sides"]
    return PlainShape(
        rounds=_number_shape(props["round"])[:2],
        players=_number_shape(props["players"])[:2],
        ended_by=tuple(props["ended_by"]["enum"]),
        sides=(int(sides["minItems"]), int(sides["maxItems"])),
        side=side,
    )


_N_TOP = len(_TOP_REQUIRED)


def plain_check(doc: Any, rules: RuleSet | None = None) -> tuple[RoundReport, list[int]] | None:
    """The round and the scores of a sheet that is plainly well formed and valid, checked in
    one pass without the schema's validator; None for anything else, which the exact path
    (`_check`) then checks and words. It must never accept what the exact path refuses, nor
    report anything else for what it accepts (tests compare the two on many mutated sheets).

    One function but for the side loop (`PlainSide.loop`): this runs for every sheet checked,
    and each call saved is a few per cent of it. In order: the sheet's own fields (the schema's
    shape with plain values), its rule set, its sides, then the round, the seats, going out and
    the totals of all sides against the decks (`_read`, `_check_going_out`, `_check_books`,
    `_check_red_threes`, `_check_points`)."""
    shape = plain_shape()
    if shape is None or type(doc) is not dict:
        return None
    try:
        form, spec, rnd, ended_by, sides = _read_top(doc)
    except KeyError:  # a field left out
        return None
    size = len(doc)
    if not (
        type(rnd) is int and shape.rounds[0] <= rnd <= shape.rounds[1]
        and form == SHEET_FORMAT
        and ended_by in shape.ended_by
        and type(sides) is list and shape.sides[0] <= len(sides) <= shape.sides[1]
    ):
        return None
    n = len(sides)
    if size == _N_TOP:  # no players: two a side, which any number of sides keeps in range
        players = 2 * n
    elif size == _N_TOP + 1 and "players" in doc:
        players = doc["players"]
        if type(players) is not int or not shape.players[0] <= players <= shape.players[1]:
            return None
    else:  # a field of another name
        return None
    try:
        if rules is not None:
            limits = sheet_limits(rules)
        elif type(spec) is str and spec in PRESETS:  # the common case, as _limits_for_spec
            limits = _limits_for_key(spec)
        else:
            limits = _limits_for_spec(spec)
    except EngineError:  # BAD_RULES: the exact path words it
        return None
    scored = shape.side.loop(shape.side, limits, sides)
    if scored is None:
        return None
    sides_scored, scores, went, outs, totals = scored
    rules = limits.rules
    decks = players + 1 if rules.decks is None else rules.decks  # RuleSet.deck_count
    need = rules.books_to_go_out
    book = rules.book_size
    clean, dirty, wild = totals["clean_books"], totals["dirty_books"], totals["wild_books"]
    red = totals["red_threes"]
    if (
        rnd > rules.rounds or players % n or decks > MAX_DECKS
        # going out: nobody when the stock ran out, else one side, with the books it needs and,
        # if it is one player, nothing held
        or (outs if ended_by != "went_out" else outs != 1 or went is None
            or went.clean_books < need.clean or went.dirty_books < need.dirty
            or went.wild_books < need.wild or (players == n and went.held_points))
        # all sides together, against the rules and the decks
        or (wild and not rules.wild_melds) or (dirty and limits.min_dirty_naturals is None)
        or (red and (rules.red_threes != "lay" or red > DECK_RED_THREES * decks))
        or wild * book + dirty > DECK_WILDS * decks
        or clean * book + dirty * (limits.min_dirty_naturals or 0) > DECK_NATURALS * decks
        or totals["table_points"] > DECK_MELDABLE_VALUE * decks
    ):
        return None
    return RoundReport(rnd, ended_by, None, sides_scored, []), scores


# --- the fast path's side loop, generated from the declaration of the parts -----------------

# The sheet's own rules on one side that the loop checks as it goes, in its terms (the parts by
# name, `min_*` from `SheetLimits`): the table points the books hold at least (`_check_points`).
_SIDE_RULES = (
    "table_points >= clean_books * min_clean + dirty_books * min_dirty + wild_books * min_wild",
)
# the names the loop's own code uses, which no part may take
_LOOP_NAMES = frozenset((
    "shape", "limits", "sides", "side", "scored", "scores", "went", "outs", "size", "cut",
    "given", "score", "s", "count_bits", "points", "multiple", "least_score", "most_score",
    "most_cut", "cut_multiple", "min_clean", "min_dirty", "min_wild", "read_required", "new",
    "SideScore", "SheetSideScore",
))  # fmt: skip


def _part_test(part: ScoringPart) -> str:
    """The loop's test of one part's type and, for points, its range."""
    name = part.name
    if part.kind == PartKind.YES_NO:
        test = f"type({name}) is bool"
        return test + (f" and ({part.only_with} or not {name})" if part.only_with else "")
    if part.kind == PartKind.POINTS:
        return f"type({name}) is int and 0 <= {name} <= points and not {name} % multiple"
    return f"type({name}) is int"


def _read_parts(required: tuple[str, ...]) -> list[str]:
    """The loop's lines that read a side's parts: the required ones at once (a KeyError: one
    left out), each other one (a part added later) if it is there, else its default."""
    read = ", ".join(required) + ("," if len(required) > 1 else "")  # one: itemgetter's value
    lines = ["try:", f"    {read} = read_required(side)",
             "except KeyError:  # a part left out", "    return None",
             f"size = len(side) - {len(required)}  # the fields besides the required parts"]
    for part in ENTERED_PARTS:
        if part.name not in required:
            lines += [f"if {part.name!r} in side:", f"    {part.name} = side[{part.name!r}]",
                      "    size -= 1", "else:", f"    {part.name} = {part.default!r}"]
    return lines


def plain_sides_source(required: tuple[str, ...]) -> str:
    """The source of the fast path's side loop for sides that must hold the parts `required`:
    each side's score when every side has the schema's shape with plain values (ints, booleans),
    keeps the sheet's rules on one side (`_SIDE_RULES`) and matches the score written down, if
    any (SCORE_MISMATCH); else None. Generated (as `dataclasses` generates `__init__`) so that
    each part is a local name: one loop, no row kept, this runs for every side of every sheet.
    Scores are worked out as `scoring.side_score` and `SideScore.score` do, from the rule set's
    `SheetLimits.bonus`."""
    names = [part.name for part in SCORE_PARTS]
    clash = _LOOP_NAMES.intersection(names)
    if clash or not all(name.isidentifier() for name in names):
        raise ValueError(f"parts the side loop cannot name: {sorted(clash)}")
    numbers = [part.name for part in ENTERED_PARTS if part.kind != PartKind.YES_NO]
    counts = [part.name for part in ENTERED_PARTS if part.kind == PartKind.COUNT]
    tests = [_part_test(part) for part in ENTERED_PARTS]
    if counts:  # ints: all of them are from 0 to 2**k - 1 when the bits of them all are
        tests.append(f"0 <= {' | '.join(counts)} <= count_bits")
    tests += _SIDE_RULES
    pays = [f"pay_{part.name}" for part in WORKED_OUT_PARTS]
    added = " + ".join(part.name for part in SCORE_PARTS if part.adds > 0)
    taken = "".join(f" - {part.name}" for part in SCORE_PARTS if part.adds < 0)
    # built field by field (by name, never by position): a call with a keyword per field
    # costs three times as much, and a SideScore's __init__ does nothing else
    fields = [f"s.{name} = {name}" for name in names]
    head = [
        "def _plain_sides(shape, limits, sides):",
        "    count_bits, (points, multiple) = shape.count_bits, shape.points",
        "    least_score, most_score = shape.score",
        "    most_cut, cut_multiple = shape.cut",
        "    min_clean, min_wild = limits.min_clean_points, limits.min_wild_points",
        "    min_dirty = limits.min_dirty_points or 0",
        f"    {', '.join(pays)}, = limits.bonus",
        "    scored = []",
        "    scores = []",
        "    went = None",
        "    outs = 0",
        *(f"    total_{name} = 0" for name in numbers),
        "    for side in sides:",
        "        if type(side) is not dict:",
        "            return None",
    ]
    body = [
        *_read_parts(required),
        "if not (",
        *(f"    {'and ' if i else ''}{test}" for i, test in enumerate(tests)),
        "):",
        "    return None",
        *(f"{part.name} = {part.counts} * pay_{part.name}" for part in WORKED_OUT_PARTS),
        f"score = {added}{taken}",
        "if not size:  # neither a score nor a cut bonus",
        "    s = new(SideScore)",
        "else:",
        "    cut = 0",
        "    if 'cut_bonus' in side:",
        "        cut = side['cut_bonus']",
        "        if type(cut) is not int or not 0 <= cut <= most_cut or cut % cut_multiple:",
        "            return None",
        "        score += cut",
        "        size -= 1",
        "    if 'score' in side:",
        "        given = side['score']",
        "        if type(given) is not int or given != score or not least_score <= given <= most_score:",
        "            return None",
        "        size -= 1",
        "    if size:  # a field of another name",
        "        return None",
        "    if cut:",
        "        s = new(SheetSideScore)",
        "        s.cut_bonus = cut",
        "    else:",
        "        s = new(SideScore)",
        *fields,
        "scored.append(s)",
        "scores.append(score)",
        "if went_out:",
        "    outs += 1",
        "    went = s",
        *(f"total_{name} += {name}" for name in numbers),
    ]
    totals = ", ".join(f"{name!r}: total_{name}" for name in numbers)
    tail = [f"    return scored, scores, went, outs, {{{totals}}}"]
    return "\n".join([*head, *(f"        {line}" for line in body), *tail]) + "\n"


@lru_cache(maxsize=2)
def plain_sides(required: tuple[str, ...]) -> _SideLoop:
    """`plain_sides_source(required)`, compiled."""
    namespace: dict[str, Any] = {
        "SideScore": SideScore,
        "SheetSideScore": SheetSideScore,
        "read_required": itemgetter(*required),
        "new": object.__new__,
    }
    exec(compile(plain_sides_source(required), "<handfoot.sheets side loop>", "exec"), namespace)  # noqa: S102  # nosec B102 - our own source, generated from the part declaration (no input reaches it)
    loop: _SideLoop = namespace["_plain_sides"]
    return loop

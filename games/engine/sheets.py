"""Score sheets (formats.md, "Score sheet"): compute a round's scores and reject sheets
that cannot have happened under the rule set.

`check_sheet` never raises: every problem becomes a `GameReport` with `valid` false and an
`EngineError` carrying one of the codes of formats.md. It is written for speed (about ten
microseconds a sheet): the structure is checked by hand here rather than through the JSON
Schema (which describes the same structure and is kept in step by tests), and everything
that depends only on the rule set is computed once per rule set.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .errors import EngineError, ErrorCode
from .formats import SHEET_FORMAT
from .report import GameReport, RoundReport, SideScore
from .rules import PRESETS, RuleSet, rules_from_spec
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

_COUNT_FIELDS = ("clean_books", "dirty_books", "wild_books", "red_threes")
_POINT_FIELDS = ("table_points", "held_points")
# The numbers a scorer writes for each side of a round (the sheet's side fields but `went_out`).
SIDE_NUMBER_FIELDS = (*_COUNT_FIELDS, *_POINT_FIELDS)
_REQUIRED = (*SIDE_NUMBER_FIELDS, "went_out")
_SIDE_FIELDS = frozenset((*_REQUIRED, "score", "cut_bonus"))
_TOP_FIELDS = frozenset(("format", "rules", "round", "ended_by", "sides", "players"))
_TOP_REQUIRED = ("format", "rules", "round", "ended_by", "sides")
_ENDINGS = ("went_out", "stock_out")


@dataclass(slots=True)
class SheetSideScore(SideScore):
    """A side's score from a sheet that also carries a `cut_bonus` (added to the score)."""

    cut_bonus: int = 0

    @property
    def score(self) -> int:  # type: ignore[override]
        return SideScore.score.fget(self) + self.cut_bonus  # type: ignore[attr-defined]

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
    name = rules.preset if PRESETS.get(rules.preset) == rules else f"{rules.preset} (with house rules)"
    return SheetLimits(
        rules=rules,
        name=name,
        min_clean_points=rules.book_size * CHEAPEST_NATURAL,
        min_dirty_points=None if dirty is None else dirty[1],
        min_wild_points=rules.book_size * CHEAPEST_WILD,
        min_dirty_naturals=None if dirty is None else dirty[0],
        need_text=_books_text(need.clean, need.dirty, need.wild),
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
        except (TypeError, ValueError):
            key = None
        if key is not None:
            return _limits_for_key(key)
    return sheet_limits(rules_from_spec(spec))


def _bad_format(message: str, round_no: int | None = None) -> EngineError:
    return EngineError(ErrorCode.BAD_FORMAT, message, round_no, None)


def _whole(value: Any) -> int | None:
    """The value as an int if it is a whole JSON number (5 or 5.0, never true/false)."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return str(value)


SideTuple = tuple[int, int, int, int, int, int, bool, int | None, int]


def _side(side: Any, i: int, round_no: int) -> SideTuple:
    """One side's fields; a fast path for the usual well-formed side, else `_side_fields`."""
    if type(side) is dict:
        try:
            c = side["clean_books"]
            d = side["dirty_books"]
            w = side["wild_books"]
            r = side["red_threes"]
            t = side["table_points"]
            h = side["held_points"]
            out = side["went_out"]
        except KeyError:
            return _side_fields(side, i, round_no)
        if (
            type(c) is int and type(d) is int and type(w) is int and type(r) is int
            and type(t) is int and type(h) is int and type(out) is bool
            and c >= 0 and d >= 0 and w >= 0 and r >= 0 and t >= 0 and h >= 0
            and not t % 5 and not h % 5
        ):
            n = len(side)
            if n == 7:
                return c, d, w, r, t, h, out, None, 0
            if n == 7 + ("score" in side) + ("cut_bonus" in side):
                score = side.get("score")
                cut = side.get("cut_bonus", 0)
                if (score is None and "score" not in side or type(score) is int) and (
                    type(cut) is int and cut >= 0 and not cut % 5
                ):
                    return c, d, w, r, t, h, out, score, cut
    return _side_fields(side, i, round_no)


def _count_field(side: dict, name: str, where: str, round_no: int) -> int:
    """A side's whole, non-negative number `name` (slow path, with messages)."""
    v = side.get(name)
    if type(v) is not int:
        if name not in side:
            raise _bad_format(f"{where} is missing {name}.", round_no)
        w = _whole(v)
        if w is None:
            raise _bad_format(f"{where}: {name} should be a whole number, not {_describe(v)}.", round_no)
        v = w
    if v < 0:
        raise _bad_format(f"{where}: {name} cannot be negative ({v}).", round_no)
    return v


def _side_fields(side: Any, i: int, round_no: int) -> SideTuple:
    """Validate one side's fields (slow path, with messages): (clean, dirty, wild, red3, table,
    held, went_out, score or None, cut_bonus). `i` is the 1-based side number in messages."""
    where = f"Side {i}"
    if type(side) is not dict:
        raise _bad_format(f"{where} should be an object of numbers, not {_describe(side)}.", round_no)
    values = [_count_field(side, name, where, round_no) for name in _COUNT_FIELDS]
    for name in _POINT_FIELDS:
        v = _count_field(side, name, where, round_no)
        if v % 5:
            raise _bad_format(
                f"{where}: {name} is {v}, but every card is worth a multiple of 5 points.", round_no
            )
        values.append(v)
    went_out = side.get("went_out")
    if type(went_out) is not bool:
        if "went_out" not in side:
            raise _bad_format(f"{where} is missing went_out (true or false).", round_no)
        raise _bad_format(f"{where}: went_out should be true or false, not {_describe(went_out)}.", round_no)
    score: int | None = None
    cut = 0
    if len(side) != 7:
        extra = side.keys() - _SIDE_FIELDS
        if extra:
            raise _bad_format(
                f"{where} has unknown field(s): {', '.join(sorted(map(str, extra)))}.", round_no
            )
        if "score" in side:
            score = _whole(side["score"])
            if score is None:
                raise _bad_format(
                    f"{where}: score should be a whole number, not {_describe(side['score'])}.", round_no
                )
        if "cut_bonus" in side:
            c = _whole(side["cut_bonus"])
            if c is None or c < 0 or c % 5:
                raise _bad_format(
                    f"{where}: cut_bonus should be a whole number of points, at least 0 and a "
                    f"multiple of 5, not {_describe(side['cut_bonus'])}.",
                    round_no,
                )
            cut = c
    return (*values, went_out, score, cut)  # type: ignore[return-value]


def _check(doc: Any) -> RoundReport:
    if type(doc) is not dict:
        raise _bad_format(f"A score sheet should be a JSON object, not {_describe(doc)}.")
    if len(doc) != 5 + ("players" in doc):
        extra = doc.keys() - _TOP_FIELDS
        if extra:
            raise _bad_format(f"The sheet has unknown field(s): {', '.join(sorted(map(str, extra)))}.")
    # With no unknown field, the right number of fields means every required one is there.
    for name in _TOP_REQUIRED:
        if name not in doc:
            extra = doc.keys() - _TOP_FIELDS
            also = f" (it has the unknown field(s) {', '.join(sorted(map(str, extra)))})" if extra else ""
            raise _bad_format(f"The sheet is missing {name}{also}.")
    fmt = doc["format"]
    if fmt != SHEET_FORMAT:
        raise _bad_format(f"Unknown format {_describe(fmt)}; a score sheet has format {SHEET_FORMAT!r}.")
    round_no = _whole(doc["round"])
    if round_no is None or round_no < 1:
        raise _bad_format(f"round should be a round number (1, 2, ...), not {_describe(doc['round'])}.")
    try:
        limits = _limits_for_spec(doc["rules"])
    except EngineError as err:  # BAD_RULES
        raise err.located(round_no, None) from None
    rules = limits.rules
    if round_no > rules.rounds:
        raise _bad_format(
            f"This sheet is for round {round_no}, but a {limits.name} game has {rules.rounds} rounds.",
            round_no,
        )
    ended_by = doc["ended_by"]
    if ended_by not in _ENDINGS or type(ended_by) is not str:
        raise _bad_format(
            f"ended_by should be 'went_out' or 'stock_out', not {_describe(ended_by)}.", round_no
        )
    raw_sides = doc["sides"]
    if type(raw_sides) is not list or len(raw_sides) < 2:
        raise _bad_format("sides should list at least two sides, in seat order.", round_no)
    n_sides = len(raw_sides)
    if "players" in doc:
        players = _whole(doc["players"])
        if players is None or players < 2:
            raise _bad_format(
                f"players should be the number of players at the table, not {_describe(doc['players'])}.",
                round_no,
            )
        if players % n_sides:
            raise EngineError(
                ErrorCode.BAD_SEATS,
                f"{players} players cannot be split into {n_sides} equal sides.",
                round_no,
            )
    else:
        players = 2 * n_sides

    sides = [_side(side, i, round_no) for i, side in enumerate(raw_sides, 1)]

    # --- SHEET_GOING_OUT
    out = [i for i, s in enumerate(sides, 1) if s[6]]
    if ended_by == "went_out":
        if len(out) != 1:
            if not out:
                msg = "The round ended with a player going out, but no side is marked went_out."
            else:
                msg = (
                    f"Sides {_join([str(i) for i in out])} are all marked went_out; "
                    "only one side can go out."
                )
            raise EngineError(ErrorCode.SHEET_GOING_OUT, msg, round_no)
        i = out[0]
        clean, dirty, wild = sides[i - 1][:3]
        need = rules.books_to_go_out
        if clean < need.clean or dirty < need.dirty or wild < need.wild:
            raise EngineError(
                ErrorCode.SHEET_GOING_OUT,
                f"Side {i} went out but has only {_books_text(clean, dirty, wild)}; {limits.name} needs "
                f"{limits.need_text} to go out.",
                round_no,
            )
        if players == n_sides and sides[i - 1][5]:
            raise EngineError(
                ErrorCode.SHEET_GOING_OUT,
                f"Side {i} is one player who went out and so holds no cards, but its "
                f"held_points are {sides[i - 1][5]}.",
                round_no,
            )
    elif out:
        raise EngineError(
            ErrorCode.SHEET_GOING_OUT,
            f"The round ended when the stock ran out, but side {out[0]} is marked went_out; "
            "nobody goes out when the stock runs out.",
            round_no,
        )

    decks = rules.deck_count(players)

    # --- SHEET_BOOKS
    clean_all = dirty_all = wild_all = red_all = table_all = 0
    for sd in sides:
        clean_all += sd[0]
        dirty_all += sd[1]
        wild_all += sd[2]
        red_all += sd[3]
        table_all += sd[4]
    if wild_all and not rules.wild_melds:
        i = next(i for i, s in enumerate(sides, 1) if s[2])
        raise EngineError(
            ErrorCode.SHEET_BOOKS,
            f"Side {i} shows {_plural(sides[i - 1][2], 'wild book')}, but {limits.name} "
            "does not allow melds of wild cards only.",
            round_no,
        )
    if dirty_all and limits.min_dirty_naturals is None:
        i = next(i for i, s in enumerate(sides, 1) if s[1])
        raise EngineError(
            ErrorCode.SHEET_BOOKS,
            f"Side {i} shows {_plural(sides[i - 1][1], 'dirty book')}, but {limits.name} "
            "allows no wild card in a natural meld.",
            round_no,
        )
    wilds_needed = wild_all * rules.book_size + dirty_all
    if wilds_needed > DECK_WILDS * decks:
        raise EngineError(
            ErrorCode.SHEET_BOOKS,
            f"The sides show {_plural(wild_all, 'wild book')} and {_plural(dirty_all, 'dirty book')} "
            f"together, which need at least {wilds_needed} wild cards (2s and jokers), but "
            f"{_plural(decks, "deck")} hold only {DECK_WILDS * decks}.",
            round_no,
        )
    naturals_needed = clean_all * rules.book_size + dirty_all * (limits.min_dirty_naturals or 0)
    if naturals_needed > DECK_NATURALS * decks:
        raise EngineError(
            ErrorCode.SHEET_BOOKS,
            f"The sides show {_plural(clean_all, 'clean book')} and {_plural(dirty_all, 'dirty book')} "
            f"together, which need at least {naturals_needed} natural cards (4 to A), but "
            f"{_plural(decks, "deck")} hold only {DECK_NATURALS * decks}.",
            round_no,
        )

    # --- SHEET_RED_THREES
    if red_all:
        if rules.red_threes != "lay":
            i = next(i for i, s in enumerate(sides, 1) if s[3])
            raise EngineError(
                ErrorCode.SHEET_RED_THREES,
                f"Side {i} shows {_plural(sides[i - 1][3], 'red 3')} laid out, but under "
                f"{limits.name} red 3s are held like any dead card; count them in held_points.",
                round_no,
            )
        if red_all > DECK_RED_THREES * decks:
            raise EngineError(
                ErrorCode.SHEET_RED_THREES,
                f"The sides show {red_all} red 3s together, but {_plural(decks, "deck")} hold only "
                f"{DECK_RED_THREES * decks}.",
                round_no,
            )

    # --- SHEET_POINTS
    min_dirty = limits.min_dirty_points or 0
    for i, sd in enumerate(sides, 1):
        clean, dirty, wild = sd[0], sd[1], sd[2]
        least = clean * limits.min_clean_points + dirty * min_dirty + wild * limits.min_wild_points
        if sd[4] < least:
            raise EngineError(
                ErrorCode.SHEET_POINTS,
                f"Side {i} has {_books_text(clean, dirty, wild)}, which hold cards worth at least "
                f"{least} points, but its table_points are only {sd[4]}.",
                round_no,
            )
    if table_all > DECK_MELDABLE_VALUE * decks:
        raise EngineError(
            ErrorCode.SHEET_POINTS,
            f"The sides laid down {table_all} points of cards together, but the cards of "
            f"{_plural(decks, "deck")} that can be laid down are worth only {DECK_MELDABLE_VALUE * decks}.",
            round_no,
        )

    # --- scores and SCORE_MISMATCH
    scored: list[SideScore] = []
    for i, (clean, dirty, wild, red, table, held, went_out, given, cut) in enumerate(sides, 1):
        s = side_score(rules, clean, dirty, wild, red, table, held, went_out)
        if cut:
            s = SheetSideScore(
                s.clean_books, s.dirty_books, s.wild_books, s.clean_bonus, s.dirty_bonus,
                s.wild_bonus, s.red_threes, s.red_three_points, s.table_points, s.held_points,
                s.going_out_bonus, s.went_out, cut,
            )
        if given is not None and given != s.score:
            raise EngineError(
                ErrorCode.SCORE_MISMATCH,
                f"Side {i}'s score is written as {given}, but its figures give {s.score} "
                f"({_score_sum(s, cut)}).",
                round_no,
            )
        scored.append(s)
    return RoundReport(round_no, ended_by, None, scored, [])


def _score_sum(s: SideScore, cut: int) -> str:
    parts = [f"books {s.clean_bonus + s.dirty_bonus + s.wild_bonus}"]
    if s.red_three_points:
        parts.append(f"red 3s {s.red_three_points}")
    parts.append(f"cards {s.table_points}")
    if s.going_out_bonus:
        parts.append(f"going out {s.going_out_bonus}")
    if cut:
        parts.append(f"cut {cut}")
    return " + ".join(parts) + f" - held {s.held_points}"


def check_sheet(sheet: dict[str, Any] | str | bytes) -> GameReport:
    """Check one score sheet and compute its scores. Never raises.

    Returns a GameReport of kind "sheet": when valid, `rounds` holds the sheet's one round and
    `totals` its scores; when not, `error` holds the first problem found (its `round` is the
    sheet's round when that could be read, its `event` null).
    """
    doc: Any = None
    try:
        if type(sheet) is dict:
            doc = sheet
        elif isinstance(sheet, str | bytes | bytearray):
            try:
                doc = json.loads(sheet)
            except (ValueError, RecursionError) as exc:
                raise _bad_format(f"The sheet is not valid JSON: {exc}.") from None
        else:
            doc = sheet
        rnd = _check(doc)
        return GameReport("sheet", True, None, [rnd], [], [s.score for s in rnd.sides])
    except EngineError as err:
        if err.round is None and type(doc) is dict:
            given = _whole(doc.get("round"))
            if given is not None and given >= 1:
                err.round = given
        return GameReport("sheet", False, err)
    except Exception as exc:  # never raise: anything unforeseen is a malformed sheet
        return GameReport(
            "sheet", False, EngineError(ErrorCode.BAD_FORMAT, f"The sheet could not be read: {exc}.")
        )

"""The state of one round and the rules for changing it.

One mutable object with a cheap `copy()`. Melds are immutable once built (a change
builds a new TableMeld), so copies share them. All legality checks live in the action
methods; each raises EngineError (without position; the caller adds it).

Long on purpose: `State` is one class whose actions share its arrays and the fast paths of the
checks (the simulator's and the replay's hot loop); split across modules, every action would
reach back into the others' private helpers, and mypyc compiles it as one unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import sumprod

from .cards import (
    CARD_STR,
    IS_BLACK3,
    IS_RED3,
    IS_THREE,
    IS_WILD,
    KEY_NAME,
    KEY_OF,
    NCARDS,
    PARSE,
    RANK_OF,
    VALUE,
    WILD,
    held_value_table,
)
from .errors import EngineError, ErrorCode
from .report import RoundReport, SeatFacts, SideScore
from .rules import RuleSet
from .scoring import side_score
from .turn import START as START
from .turn import TAKEN as TAKEN
from .turn import TO_BOOK as TO_BOOK
from .turn import Item as Item

TYPE_CHECKING = False  # typing is not imported at run time: checking a log does not need it
if TYPE_CHECKING:
    from typing import Literal

E = ErrorCode
CLEAN, DIRTY, WILDBOOK = 0, 1, 2
KIND_NAME = ("clean", "dirty", "wild")
R3H, R3D = PARSE["3H"], PARSE["3D"]

# per-seat fact counters (indexes into State.facts[seat])
F_TURNS, F_FOOT_TURN, F_PICKUPS, F_PICKED, F_STARTED, F_LAID = range(6)
F_WILDS_DIRTY, F_BLACK3, F_FIRST_LAY, F_RED3 = range(6, 10)
N_FACTS = 10


class TableMeld:
    """A meld or book on the table (not the `moves.Meld` move); never changed after creation.

    Without __slots__ on purpose: CPython 3.13 builds an instance of a plain class in one
    specialised step, but one with __slots__ through the generic call (a replay builds one
    per meld; without slots a replay takes 2.5 % fewer instructions)."""

    def __init__(self, key: int, cards: list[int], nat: int, wild: int, kind: int | None) -> None:
        self.key = key
        self.cards = cards
        self.nat = nat
        self.wild = wild
        self.kind = kind  # None while open, else CLEAN / DIRTY / WILDBOOK

    def __repr__(self) -> str:
        cards = " ".join(CARD_STR[c] for c in self.cards)
        kind = "open" if self.kind is None else KIND_NAME[self.kind]
        return f"TableMeld({KEY_NAME[self.key]}, {kind}: {cards})"


# meld items checked by a fast path, their cards taken from the hand: (the melds they make,
# built but not yet on the table; cards laid; their value; melds started; wilds added to
# natural melds)
_Laid = tuple[list[TableMeld], int, int, int, int]


def _give_back(h: list[int], items: Sequence[Item]) -> None:
    """Return the cards of checked items to the hand counts `h`."""
    for _key, ids, _target in items:
        for c in ids:
            h[c] += 1


class _Entry:
    """A meld being changed inside one action, before it is committed."""

    __slots__ = ("key", "base", "book_index", "added", "nat", "wild", "kind")

    def __init__(self, key: int, base: TableMeld | None, book_index: int | None) -> None:
        self.key = key
        self.base = base
        self.book_index = book_index
        self.added: list[int] = []
        self.nat = base.nat if base else 0
        self.wild = base.wild if base else 0
        self.kind = base.kind if base else None

    def size(self) -> int:
        return (len(self.base.cards) if self.base else 0) + len(self.added)

    def build(self) -> TableMeld:
        cards = self.base.cards + self.added if self.base else self.added
        return TableMeld(self.key, cards, self.nat, self.wild, self.kind)


class _Plan:
    __slots__ = (
        "hand", "open", "books", "changed_books", "value", "laid", "starts", "wilds_dirty",
        "book_delta",
    )  # fmt: skip

    def __init__(self, hand: list[int]) -> None:
        self.hand = hand
        self.open: dict[int, _Entry | None] = {}
        self.books: dict[int, _Entry] = {}  # newest book of each rank touched by the action
        self.changed_books: list[_Entry] = []  # every book made or grown, in order
        self.value = 0
        self.laid = 0
        self.starts = 0
        self.wilds_dirty = 0
        self.book_delta = [0, 0, 0]


@lru_cache(maxsize=64)  # bounded: 2 to 12 players in at most 6 sides
def _seating(n: int, nsides: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Each seat's side and partners, shared by every round (and copy) of such a table."""
    side_of = tuple(i % nsides for i in range(n))
    mates = tuple(tuple(j for j in range(n) if j != i and j % nsides == i % nsides) for i in range(n))
    return side_of, mates


def _err(code: ErrorCode, message: str) -> EngineError:
    return EngineError(code, message)


class State:
    __slots__ = (
        "rules", "round_no", "players", "nsides", "side_of", "mates", "dealer",
        "stock", "pile", "frozen", "hands", "hand_n", "feet", "on_foot", "played_foot",
        "started", "open", "books", "last_book", "book_counts", "table_points", "red3",
        "laid_down", "turn", "phase", "asked", "over", "ended_by", "went_out_seat", "facts",
        "lay",
    )  # fmt: skip

    # Every slot, declared for the type checker (`deal` and `copy` fill them without __init__).
    rules: RuleSet
    lay: bool
    round_no: int
    players: int
    nsides: int
    side_of: tuple[int, ...]
    mates: tuple[tuple[int, ...], ...]
    dealer: int
    stock: list[int]  # top last
    pile: list[int]  # top last
    frozen: bool
    hands: list[list[int]]  # per seat: count of each card id
    hand_n: list[int]
    feet: list[list[int]]
    on_foot: list[bool]
    played_foot: list[bool]
    started: list[bool]
    open: list[dict[int, TableMeld]]  # per side: the open meld of each key
    books: list[list[TableMeld]]
    last_book: list[dict[int, int]]  # per side: key -> index of its newest book in books
    book_counts: list[list[int]]  # per side: clean, dirty, wild
    table_points: list[int]
    red3: list[int]
    laid_down: list[bool]
    turn: int
    phase: int
    asked: bool | None
    over: bool
    ended_by: str | None
    went_out_seat: int | None
    facts: list[list[int]]

    @classmethod
    def deal(
        cls,
        rules: RuleSet,
        round_no: int,
        dealer: int,
        nsides: int,
        hands: Sequence[Sequence[int]],
        feet: Sequence[Sequence[int]],
        stock: Sequence[int],
        discard: Sequence[int],
    ) -> State:
        """A new round from dealt card ids (stock top first, discard bottom first)."""
        s = cls()
        n = len(hands)
        s.rules = rules
        s.lay = rules.red_threes == "lay"
        s.round_no = round_no
        s.players = n
        s.nsides = nsides
        s.side_of, s.mates = _seating(n, nsides)
        s.dealer = dealer
        s.stock = list(reversed(stock))
        s.pile = list(discard)
        s.frozen = False
        s.hands = []
        for h in hands:
            counts = [0] * NCARDS
            for c in h:
                counts[c] += 1
            s.hands.append(counts)
        s.hand_n = [len(h) for h in hands]
        s.feet = [list(f) for f in feet]
        s.on_foot = [False] * n
        s.played_foot = [False] * n
        s.started = [False] * n
        s.open = [{} for _ in range(nsides)]
        s.books = [[] for _ in range(nsides)]
        s.last_book = [{} for _ in range(nsides)]
        s.book_counts = [[0, 0, 0] for _ in range(nsides)]
        s.table_points = [0] * nsides
        s.red3 = [0] * nsides
        s.laid_down = [False] * nsides
        s.turn = (dealer + 1) % n
        s.phase = START
        s.asked = None
        s.over = False
        s.ended_by = None
        s.went_out_seat = None
        s.facts = [[0, -1, 0, 0, 0, 0, 0, 0, -1, 0] for _ in range(n)]
        s._begin_turn()
        return s

    def copy(self) -> State:
        s = State()
        s.rules = self.rules
        s.lay = self.lay
        s.round_no = self.round_no
        s.players = self.players
        s.nsides = self.nsides
        s.side_of = self.side_of
        s.mates = self.mates
        s.dealer = self.dealer
        s.stock = self.stock[:]
        s.pile = self.pile[:]
        s.frozen = self.frozen
        s.hands = [h[:] for h in self.hands]
        s.hand_n = self.hand_n[:]
        s.feet = [f[:] for f in self.feet]
        s.on_foot = self.on_foot[:]
        s.played_foot = self.played_foot[:]
        s.started = self.started[:]
        s.open = [dict(d) for d in self.open]
        s.books = [b[:] for b in self.books]
        s.last_book = [dict(d) for d in self.last_book]
        s.book_counts = [b[:] for b in self.book_counts]
        s.table_points = self.table_points[:]
        s.red3 = self.red3[:]
        s.laid_down = self.laid_down[:]
        s.turn = self.turn
        s.phase = self.phase
        s.asked = self.asked
        s.over = self.over
        s.ended_by = self.ended_by
        s.went_out_seat = self.went_out_seat
        s.facts = [f[:] for f in self.facts]
        return s

    # ----- queries -------------------------------------------------------------

    def hand_cards(self, seat: int) -> list[int]:
        return [c for c, n in enumerate(self.hands[seat]) for _ in range(n)]

    def upcard(self) -> int | None:
        return self.pile[-1] if self.pile else None

    def can_go_out(self, seat: int, extra: Sequence[int] = (0, 0, 0)) -> bool:
        return self._go_out_problem(seat, extra) is None

    def _go_out_problem(self, seat: int, extra: Sequence[int]) -> str | None:
        rules = self.rules
        need = rules.books_to_go_out
        have = self.book_counts[self.side_of[seat]]
        if (
            have[0] + extra[0] < need.clean
            or have[1] + extra[1] < need.dirty
            or have[2] + extra[2] < need.wild
        ):
            return (
                f"the side needs {need.clean} clean, {need.dirty} dirty and {need.wild} wild "
                f"books to go out and has {have[0] + extra[0]}, {have[1] + extra[1]} and "
                f"{have[2] + extra[2]}"
            )
        mates = self.mates[seat]
        if not mates:
            return None
        cond = rules.partner_condition
        if cond == "played_foot" and not all(self.played_foot[m] for m in mates):
            return "every partner must first pick up the foot and play a turn from it"
        if cond == "in_foot" and not all(self.on_foot[m] for m in mates):
            return "every partner must first be playing from the foot"
        if rules.permission and self.asked is not True:
            return "a partner must first say yes to 'may I go out?' this turn"
        return None

    def cards_conserved(self) -> list[int]:
        """Multiset of every card in the round (for conservation checks)."""
        counts = [0] * NCARDS
        for c in self.stock + self.pile:
            counts[c] += 1
        for h in self.hands:
            for c, n in enumerate(h):
                counts[c] += n
        for f in self.feet:
            for c in f:
                counts[c] += 1
        for side in range(self.nsides):
            melds = list(self.books[side])
            for ms in self.open[side].values():
                melds.append(ms)
            for m in melds:
                for c in m.cards:
                    counts[c] += 1
        return counts

    # ----- automatic steps -------------------------------------------------------

    def _begin_turn(self) -> None:
        seat = self.turn
        if self.lay and not self.started[seat]:
            self.started[seat] = True
            self._lay_red3s(seat, True)

    def _lay_red3s(self, seat: int, replace: bool) -> None:
        h = self.hands[seat]
        side = self.side_of[seat]
        stock = self.stock
        while True:
            n = h[R3H] + h[R3D]
            if not n:
                return
            h[R3H] = h[R3D] = 0
            self.hand_n[seat] -= n
            self.red3[side] += n
            self.facts[seat][F_RED3] += n
            if not replace:
                return
            for _ in range(n):
                if not stock:
                    return
                h[stock.pop()] += 1
                self.hand_n[seat] += 1

    def _pick_up_foot(self, seat: int) -> None:
        h = self.hands[seat]
        foot = self.feet[seat]
        for c in foot:
            h[c] += 1
        self.hand_n[seat] += len(foot)
        self.feet[seat] = []
        self.on_foot[seat] = True
        self.facts[seat][F_FOOT_TURN] = self.facts[seat][F_TURNS]
        if self.lay:
            self._lay_red3s(seat, self.rules.replace_foot_red_threes)

    def _end(self, ended_by: str, seat: int | None) -> None:
        self.over = True
        self.ended_by = ended_by
        self.went_out_seat = seat

    def _check_turn(self, seat: int, phase: int, what: str) -> None:
        if self.over:
            raise _err(E.ROUND_OVER, "the round is already over")
        if seat != self.turn:
            raise _err(E.NOT_YOUR_TURN, f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if self.phase != phase:
            if phase == START:
                raise _err(E.WRONG_PHASE, f"seat {seat} already took cards this turn; cannot {what}")
            raise _err(E.WRONG_PHASE, f"seat {seat} must draw or take the pile before they {what}")

    # ----- actions ---------------------------------------------------------------

    def draw(self, seat: int) -> None:
        if self.over or seat != self.turn or self.phase != START:
            self._check_turn(seat, START, "draw")
        stock = self.stock
        dc = self.rules.draw_count
        if len(stock) < dc:
            self._end("stock_out", None)
            return
        h = self.hands[seat]
        if dc == 2:  # most rule sets: without a loop
            c, d = stock.pop(), stock.pop()
            h[c] += 1
            h[d] += 1
            red = IS_RED3[c] or IS_RED3[d]
        else:
            red = False
            for _ in range(dc):
                c = stock.pop()
                h[c] += 1
                red = red or IS_RED3[c]
        self.hand_n[seat] += dc
        if red and self.lay:
            self._lay_red3s(seat, True)
        self.facts[seat][F_TURNS] += 1
        self.phase = TAKEN
        if not stock:
            self._end_if_stuck(seat)

    def _end_if_stuck(self, seat: int) -> None:
        """Red 3s drew the stock's last cards and left a player on the foot one card that may be
        neither melded nor discarded (going out is not allowed, or the partner said no): the
        turn cannot be finished, so the round ends as when the stock runs out (docs/engine.md,
        "Stock runs out"). Only that rare position pays for the look at the legal moves."""
        if self.stock or not self.on_foot[seat] or self.hand_n[seat] != 1:
            return
        from .legal import legal_moves  # legal builds on this module
        from .moves import AskGoOut

        trial = self.copy()
        if trial.asked is None and trial.mates[seat]:
            trial.asked = True  # asking may still allow going out: not stuck yet
        if not any(not isinstance(move, AskGoOut) for move in legal_moves(trial)):
            self._end("stock_out", None)

    def discard(self, seat: int, card: int) -> None:
        if self.over or seat != self.turn or self.phase != TAKEN:
            self._check_turn(seat, TAKEN, "discard")
        if self.lay and IS_RED3[card]:
            raise _err(E.ILLEGAL_DISCARD, "a red 3 is laid out, never discarded")
        h = self.hands[seat]
        if not h[card]:
            raise _err(E.CARD_NOT_HELD, f"seat {seat} does not hold {CARD_STR[card]}")
        on_foot = self.on_foot[seat]
        left = self.hand_n[seat] - 1
        if on_foot and not left:
            problem = self._go_out_problem(seat, (0, 0, 0))
            if problem:
                raise _err(E.CANNOT_GO_OUT, f"discarding the last card would go out, but {problem}")
        h[card] -= 1
        self.hand_n[seat] = left
        self.pile.append(card)
        if IS_WILD[card]:
            if self.rules.wild_upcard == "frozen":
                self.frozen = True
        elif IS_BLACK3[card]:
            self.facts[seat][F_BLACK3] += 1
        if on_foot:
            self.played_foot[seat] = True
            if not left:
                self._end("went_out", seat)
                return
        elif not left:
            self._pick_up_foot(seat)
        self.turn = seat = (seat + 1) % self.players
        self.phase = START
        self.asked = None
        if self.lay and not self.started[seat]:
            self._begin_turn()

    def ask_go_out(self, seat: int, yes: bool) -> None:
        self._check_turn(seat, TAKEN, "ask to go out")
        if not self.mates[seat]:
            raise _err(E.WRONG_PHASE, "there is no partner to ask in individual play")
        if self.asked is not None:
            raise _err(E.WRONG_PHASE, "a player may ask to go out only once a turn")
        self.asked = yes
        self._end_if_stuck(seat)

    def meld(self, seat: int, items: Sequence[Item]) -> None:
        if self.over or seat != self.turn or self.phase != TAKEN:
            self._check_turn(seat, TAKEN, "meld")
        side = self.side_of[seat]
        if items and self._meld_simple(seat, side, items):
            return
        if not items:
            raise _err(E.BAD_FORMAT, "a meld needs at least one item")
        plan = self._plan(seat, items, self.hands[seat][:])
        self._commit(seat, plan, self.hand_n[seat] - plan.laid, 0)

    def meld_allowed(self, seat: int, items: Sequence[Item]) -> bool:
        """Whether `meld(seat, items)` would be accepted, by the same checks, with the state
        left as it was: the legal-move lister asks this of every candidate, and a copy of
        the state per question cost more than the question."""
        if self.over or seat != self.turn or self.phase != TAKEN or not items:
            return False
        return self._items_allowed(seat, items, 0)

    def _items_allowed(self, seat: int, items: Sequence[Item], gained: int) -> bool:
        """Whether the seat may lay `items` from its hand counts as they stand, `gained` cards
        joining the hand besides (a pickup's): the fast path's check, then, if it cannot
        decide, the general path's plan and checks; nothing changes."""
        side = self.side_of[seat]
        h = self.hands[seat]
        laid = self._simple_items(h, self.open[side], items)
        if laid is False:
            return False
        if laid is not None:
            _give_back(h, items)
            if not (self.laid_down[side] or self._first_lay_meets(laid)):
                return False  # the general path finds the same value and refuses it too
            if not (self.hand_n[seat] + gained - laid[1] < 2 and self.on_foot[seat]):
                return True  # the action takes its fast path
        try:
            plan = self._plan(seat, items, h[:])
            self._check_plan(seat, plan, self.hand_n[seat] + gained - plan.laid)
        except EngineError:
            return False
        return True

    def meld_one(self, seat: int, key: int, ids: list[int]) -> None:
        """`meld(seat, [(key, ids, 0)])` in one step for the most common meld (about four in
        five): one item, no target, by a side that has laid down, starting or growing an open
        meld no further than a book. Anything else, and any doubt, goes to `meld` with the
        state untouched, so the general path decides and words every error. `ids` is the
        caller's to give away (the replay's fresh list): a meld it starts keeps it."""
        if self.over or seat != self.turn or self.phase != TAKEN:
            self.meld(seat, [(key, ids, 0)])
            return
        # seat is read as an index only once it is known to be the seat to play
        side = self.side_of[seat]
        n = len(ids)
        hand_after = self.hand_n[seat] - n
        rules = self.rules
        open_ = self.open[side]
        base = open_.get(key)
        if base is None:
            size, nat, wild = n, 0, 0
            refused = n < rules.min_meld_size or (key == WILD and not rules.wild_melds)
        else:
            size, nat, wild = len(base.cards) + n, base.nat, base.wild
            refused = not n
        book_size = rules.book_size
        if (
            refused or size > book_size or not self.laid_down[side]
            or (hand_after < 2 and self.on_foot[seat])
        ):
            self.meld(seat, [(key, ids, 0)])
            return
        h = self.hands[seat]
        before = nat + wild  # each card taken counts once, as a natural or a wild
        wild_before = wild
        value = 0
        for c in ids:
            if not h[c]:
                break
            if KEY_OF[c] == key:  # a natural of the meld's rank, or a wild in a wild meld
                nat += 1
            elif IS_WILD[c]:
                wild += 1
            else:
                break
            h[c] -= 1
            value += VALUE[c]
        taken = nat + wild - before
        if key == WILD:  # its cards were counted as naturals above: a wild meld holds wilds only
            wild, nat = wild + nat, 0
        # more naturals never lower the wild limit, so only added wilds need the check
        if taken < n or (key != WILD and wild > wild_before and not rules.wilds_ok(nat, wild)):
            _give_back(h, [(key, ids[:taken], 0)])
            self.meld(seat, [(key, ids, 0)])
            return
        f = self.facts[seat]
        if base is None:
            cards = ids  # given away by the caller, not copied
            f[F_STARTED] += 1
        else:
            cards = base.cards + ids
        if size < book_size:
            open_[key] = TableMeld(key, cards, nat, wild, None)
        else:
            kind = WILDBOOK if key == WILD else (DIRTY if wild else CLEAN)
            books = self.books[side]
            self.last_book[side][key] = len(books)
            books.append(TableMeld(key, cards, nat, wild, kind))
            open_.pop(key, None)
            self.book_counts[side][kind] += 1
        self.table_points[side] += value
        if wild > wild_before and key != WILD:
            f[F_WILDS_DIRTY] += wild - wild_before
        f[F_LAID] += n
        self.hand_n[seat] = hand_after
        if f[F_FIRST_LAY] < 0:
            f[F_FIRST_LAY] = f[F_TURNS]
        if not hand_after:  # not on the foot here: the foot is picked up, play goes on
            self._pick_up_foot(seat)

    def _meld_simple(self, seat: int, side: int, items: Sequence[Item]) -> bool:
        """Fast path for the common meld: items of distinct ranks that each start, grow or
        close an open meld.

        Applies them and returns True only when plainly legal (no meld passes `book_size`, no
        book target, a first lay-down that plainly meets the minimum, player not about to go
        out). Otherwise returns False with the state untouched, and the general path decides
        (and words any error). Cards leave the hand while the items are checked and go back on
        failure.
        """
        h = self.hands[seat]
        laid = self._simple_items(h, self.open[side], items)
        if not laid:
            return False
        hand_after = self.hand_n[seat] - laid[1]
        if (hand_after < 2 and self.on_foot[seat]) or not (
            self.laid_down[side] or self._first_lay_meets(laid)
        ):
            _give_back(h, items)
            return False
        self.laid_down[side] = True
        f = self._simple_apply(seat, side, laid)
        self.hand_n[seat] = hand_after
        if f[F_FIRST_LAY] < 0:
            f[F_FIRST_LAY] = f[F_TURNS]
        if hand_after == 0:  # not on the foot here: the foot is picked up and play goes on
            self._pick_up_foot(seat)
        return True

    def _pickup_simple(self, seat: int, up: int, items: list[Item], taken: int) -> bool:
        """The fast path of `_meld_simple` for taking the pile: the upcard joins the hand
        while the items (the pile's meld first) are checked; the same conditions, and False
        with the state untouched for the general path."""
        side = self.side_of[seat]
        h = self.hands[seat]
        h[up] += 1
        laid = self._simple_items(h, self.open[side], items)
        if not laid:
            h[up] -= 1
            return False
        if (self.hand_n[seat] + taken - laid[1] < 2 and self.on_foot[seat]) or not (
            self.laid_down[side] or self._first_lay_meets(laid)
        ):
            _give_back(h, items)
            h[up] -= 1
            return False
        self.laid_down[side] = True
        f = self._simple_apply(seat, side, laid)
        self.hand_n[seat] += 1 - laid[1]  # the cards taken with the upcard are added by pickup
        if f[F_FIRST_LAY] < 0:
            f[F_FIRST_LAY] = f[F_TURNS] + 1  # this turn is counted once the pile is taken
        return True

    def _first_lay_meets(self, laid: _Laid) -> bool:
        """Whether a side's first lay-down (so every item starts a meld) meets the round's
        minimum and, if the rules ask, holds a meld without wilds (as `_check_plan` has it)."""
        rules = self.rules
        if laid[2] < rules.meld_minimum(self.round_no):
            return False
        return not rules.first_meld_needs_clean or any(
            m.wild == 0 or m.key == WILD for m in laid[0]
        )

    def _simple_items(
        self, h: list[int], open_: dict[int, TableMeld], items: Sequence[Item]
    ) -> _Laid | Literal[False] | None:
        """Each item checked with its cards taken from the hand `h`, and the meld it makes
        built; None (hand as it was) as soon as one is not plainly legal, and False when one is
        plainly illegal (a card not held or of another rank, or too many wilds, where the
        general path finds the same and refuses). One loop, no call per item or card: this is
        the hot path of a replay."""
        rules = self.rules
        book_size = rules.book_size
        melds: list[TableMeld] = []
        seen: set[int] = set()  # the meld keys of the items checked so far
        laid = value = started = wilds_dirty = 0
        refused = False
        for key, ids, target in items:
            base = open_.get(key)
            n = len(ids)
            if base is None:
                if n < rules.min_meld_size or (key == WILD and not rules.wild_melds):
                    break
                size, nat, wild = n, 0, 0
            else:
                size, nat, wild = len(base.cards) + n, base.nat, base.wild
            if target or size > book_size or key in seen:
                break
            seen.add(key)
            before = nat + wild  # each card taken counts once, as a natural or a wild
            wild_before = wild
            for c in ids:
                if not h[c]:
                    break
                if KEY_OF[c] == key:  # a natural of the meld's rank, or a wild in a wild meld
                    nat += 1
                elif IS_WILD[c]:
                    wild += 1
                else:
                    break
                h[c] -= 1
                value += VALUE[c]
            taken = nat + wild - before
            if key == WILD:  # its cards were counted as naturals: a wild meld holds wilds only
                wild, nat = wild + nat, 0
            # more naturals never lower the wild limit, so only added wilds need the check
            if taken < n or (key != WILD and wild > wild_before and not rules.wilds_ok(nat, wild)):
                for c in ids[:taken]:
                    h[c] += 1
                refused = True
                break
            if base is None:
                cards = ids[:]
                started += 1
            else:
                cards = base.cards + ids
            if size < book_size:
                melds.append(TableMeld(key, cards, nat, wild, None))
            else:
                kind = WILDBOOK if key == WILD else (DIRTY if wild else CLEAN)
                melds.append(TableMeld(key, cards, nat, wild, kind))
            if wild > wild_before and key != WILD:
                wilds_dirty += wild - wild_before
            laid += n
        else:
            return melds, laid, value, started, wilds_dirty
        _give_back(h, items[: len(melds)])
        return False if refused else None

    def _simple_apply(self, seat: int, side: int, laid: _Laid) -> list[int]:
        """Lay the checked items' melds on the side's table; the seat's facts (returned) count
        them."""
        melds, cards, value, started, wilds_dirty = laid
        open_ = self.open[side]
        for meld in melds:
            kind = meld.kind
            if kind is None:
                open_[meld.key] = meld
            else:
                books = self.books[side]
                self.last_book[side][meld.key] = len(books)
                books.append(meld)
                open_.pop(meld.key, None)
                self.book_counts[side][kind] += 1
        self.table_points[side] += value
        f = self.facts[seat]
        f[F_STARTED] += started
        f[F_WILDS_DIRTY] += wilds_dirty
        f[F_LAID] += cards
        return f

    def _check_pickup(self, seat: int, pair: Sequence[int]) -> int:
        """The checks of taking the pile before its melds'; the upcard."""
        self._check_turn(seat, START, "take the pile")
        pile = self.pile
        need = max(self.rules.pickup_min_pile, 1)
        if len(pile) < need:
            raise _err(
                E.PICKUP_NOT_ALLOWED,
                f"the pile has {len(pile)} card(s); it may be taken once it has {need}",
            )
        if self.frozen:
            raise _err(E.PICKUP_NOT_ALLOWED, "the pile is frozen by a discarded wild card")
        up = pile[-1]
        self._check_pair(seat, up, pair)
        return up

    def pickup_allowed(self, seat: int, pair: Sequence[int], items: Sequence[Item]) -> bool:
        """Whether `pickup(seat, pair, items)` would be accepted, by the same checks, with the
        state left as it was (as `meld_allowed` for melds)."""
        try:
            up = self._check_pickup(seat, pair)
        except EngineError:
            return False
        taken = min(self.rules.pickup_count, len(self.pile))
        h = self.hands[seat]
        h[up] += 1  # the upcard is laid with the pair
        try:
            return self._items_allowed(seat, [(KEY_OF[up], [up, *pair], 0), *items], taken)
        finally:
            h[up] -= 1

    def pickup(self, seat: int, pair: Sequence[int], items: Sequence[Item]) -> None:
        up = self._check_pickup(seat, pair)
        rules = self.rules
        pile = self.pile
        taken = min(rules.pickup_count, len(pile))
        melds = [(KEY_OF[up], [up, *pair], 0), *items]  # the upcard is laid with the pair
        if not self._pickup_simple(seat, up, melds, taken):
            hand = self.hands[seat][:]
            hand[up] += 1
            plan = self._plan(seat, melds, hand)
            self._commit(seat, plan, self.hand_n[seat] + 1 - plan.laid + taken - 1, 1)
        h = self.hands[seat]
        pile.pop()
        red = False
        for _ in range(taken - 1):
            c = pile.pop()
            h[c] += 1
            red = red or IS_RED3[c]
        self.hand_n[seat] += taken - 1
        f = self.facts[seat]
        f[F_TURNS] += 1
        f[F_PICKUPS] += 1
        f[F_PICKED] += taken
        if self.over:
            return
        self.phase = TAKEN
        if red and self.lay:
            self._lay_red3s(seat, True)
        if not self.hand_n[seat] and not self.on_foot[seat]:
            self._pick_up_foot(seat)

    def _check_pair(self, seat: int, up: int, pair: Sequence[int]) -> None:
        rules = self.rules
        if IS_THREE[up]:
            raise _err(E.PICKUP_NOT_ALLOWED, "a 3 on top of the pile blocks it")
        key = KEY_OF[up]
        if key == WILD:
            if rules.wild_upcard == "frozen":
                raise _err(E.PICKUP_NOT_ALLOWED, "a wild card on top freezes the pile")
            if not rules.wild_melds:
                raise _err(E.PICKUP_NOT_ALLOWED, "a wild upcard cannot be melded without wild melds")
            if len(pair) != 2 or not all(IS_WILD[c] for c in pair):
                raise _err(E.PICKUP_NOT_ALLOWED, "a wild upcard is taken only with two wild cards")
            if rules.wild_upcard == "same_wild" and any(RANK_OF[c] != RANK_OF[up] for c in pair):
                kind = "jokers" if RANK_OF[up] == WILD else "2s"
                raise _err(E.PICKUP_NOT_ALLOWED, f"a {CARD_STR[up]} upcard is taken only with two {kind}")
            return
        if not pair:
            if rules.pickup_requires == "pair_or_meld" and self.open[self.side_of[seat]].get(key):
                return
            raise _err(
                E.PICKUP_NOT_ALLOWED,
                f"taking the pile needs two natural {KEY_NAME[key]} from the hand to meld with "
                f"the {CARD_STR[up]}",
            )
        if len(pair) != 2 or any(KEY_OF[c] != key for c in pair):
            raise _err(
                E.PICKUP_NOT_ALLOWED,
                f"the pair must be two natural {KEY_NAME[key]} to match the {CARD_STR[up]}",
            )

    def _item_cards(self, seat: int, key: int, ids: list[int], hand: list[int]) -> tuple[int, int, int]:
        """(naturals, wilds, card value) of one item, its cards taken from the working `hand`."""
        nat = wild = value = 0
        for c in ids:
            if hand[c] <= 0:
                raise _err(E.CARD_NOT_HELD, f"seat {seat} does not hold {CARD_STR[c]} to meld")
            hand[c] -= 1
            k = KEY_OF[c]
            if k == key:
                if k == WILD:
                    wild += 1
                else:
                    nat += 1
            elif k == WILD:
                wild += 1
            elif k < 0:
                raise _err(E.MELD_MIXED_RANKS, "3s can never be melded")
            else:
                raise _err(
                    E.MELD_MIXED_RANKS, f"{CARD_STR[c]} does not belong in a meld of {KEY_NAME[key]}"
                )
            value += VALUE[c]
        return nat, wild, value

    def _plan(self, seat: int, items: Sequence[Item], hand: list[int]) -> _Plan:
        """Check every item against a working copy; nothing in the state changes."""
        rules = self.rules
        side = self.side_of[seat]
        plan = _Plan(hand)
        open_ = self.open[side]
        for key, ids, target in items:
            nat, wild, value = self._item_cards(seat, key, ids, hand)
            if key == WILD and not rules.wild_melds:
                raise _err(E.WILD_MELD_NOT_ALLOWED, "melds of only wild cards are not allowed")
            plan.laid += len(ids)
            plan.value += value
            if target == TO_BOOK:
                self._plan_book_item(side, key, ids, nat, wild, plan)
                continue
            if key in plan.open:
                entry = plan.open[key]
            else:
                base = open_.get(key)
                entry = _Entry(key, base, None) if base else None
            if entry is None:
                if len(ids) < rules.min_meld_size:
                    raise _err(
                        E.MELD_TOO_SMALL,
                        f"a new meld needs at least {rules.min_meld_size} cards, not {len(ids)}",
                    )
                entry = _Entry(key, None, None)
                plan.starts += 1
            self._plan_grow(entry, ids, nat, wild, plan)
        return plan

    def _plan_grow(self, entry: _Entry, ids: list[int], nat: int, wild: int, plan: _Plan) -> None:
        """Add one item's cards to a meld of the plan, closing it into a book at book_size."""
        rules = self.rules
        key = entry.key
        entry.added += ids
        entry.nat += nat
        entry.wild += wild
        if key != WILD:
            if not rules.wilds_ok(entry.nat, entry.wild):
                raise _err(
                    E.MELD_TOO_MANY_WILDS,
                    f"a meld of {entry.nat} natural {KEY_NAME[key]} may not hold "
                    f"{entry.wild} wild cards",
                )
            plan.wilds_dirty += wild
        size = entry.size()
        if size >= rules.book_size:
            if size > rules.book_size and rules.book_growth == "closed":
                raise _err(E.BOOK_CLOSED, f"a book holds exactly {rules.book_size} cards")
            entry.kind = WILDBOOK if key == WILD else (DIRTY if entry.wild else CLEAN)
            plan.book_delta[entry.kind] += 1
            plan.books[key] = entry
            plan.changed_books.append(entry)
            plan.open[key] = None
        else:
            plan.open[key] = entry

    def _plan_book_item(
        self, side: int, key: int, ids: list[int], nat: int, wild: int, plan: _Plan
    ) -> None:
        if self.rules.book_growth != "naturals":
            raise _err(E.BOOK_CLOSED, "nothing may be added to a finished book")
        if wild:
            raise _err(E.BOOK_CLOSED, "wild cards can never be added to a book")
        entry = plan.books.get(key)
        if entry is None:
            index = self.last_book[side].get(key)
            if index is None:
                raise _err(E.BOOK_CLOSED, f"the side has no book of {KEY_NAME[key]} to add to")
            entry = _Entry(key, self.books[side][index], index)
            plan.books[key] = entry
            plan.changed_books.append(entry)
        entry.added += ids
        entry.nat += nat

    def _check_plan(self, seat: int, plan: _Plan, hand_after: int) -> None:
        """The first lay-down and going-out checks of a plan, before anything changes."""
        rules = self.rules
        side = self.side_of[seat]
        if not self.laid_down[side]:
            minimum = rules.meld_minimum(self.round_no)
            if plan.value < minimum:
                raise _err(
                    E.BELOW_MINIMUM,
                    f"the first lay-down of round {self.round_no} must total at least {minimum} "
                    f"points; these cards make {plan.value}",
                )
            if rules.first_meld_needs_clean and not self._has_clean(plan):
                raise _err(
                    E.BELOW_MINIMUM, "the first lay-down must include a meld without wild cards"
                )
        if self.on_foot[seat] and hand_after < 2:
            problem = self._go_out_problem(seat, plan.book_delta)
            if problem:
                raise _err(
                    E.CANNOT_GO_OUT,
                    f"this would leave {hand_after} card(s) on the foot, but {problem}",
                )

    def _commit(self, seat: int, plan: _Plan, hand_after: int, free: int) -> None:
        """Apply a checked plan after the first lay-down and going-out checks."""
        self._check_plan(seat, plan, hand_after)
        side = self.side_of[seat]
        on_foot = self.on_foot[seat]
        open_ = self.open[side]
        for key, entry in plan.open.items():
            if entry is None:
                open_.pop(key, None)
            else:
                open_[key] = entry.build()
        books = self.books[side]
        last = self.last_book[side]
        for entry in plan.changed_books:
            meld = entry.build()
            if entry.book_index is None:
                last[entry.key] = len(books)
                books.append(meld)
            else:
                books[entry.book_index] = meld
        counts = self.book_counts[side]
        for k in range(3):
            counts[k] += plan.book_delta[k]
        self.table_points[side] += plan.value
        self.laid_down[side] = True
        self.hands[seat] = plan.hand
        self.hand_n[seat] -= plan.laid - free
        f = self.facts[seat]
        f[F_STARTED] += plan.starts
        f[F_LAID] += plan.laid
        f[F_WILDS_DIRTY] += plan.wilds_dirty
        if f[F_FIRST_LAY] < 0:
            f[F_FIRST_LAY] = f[F_TURNS] + (1 if self.phase == START else 0)
        if hand_after == 0:
            if on_foot:
                self._end("went_out", seat)
            elif self.phase == TAKEN:
                self._pick_up_foot(seat)

    @staticmethod
    def _has_clean(plan: _Plan) -> bool:
        entries = [e for e in plan.open.values() if e is not None] + plan.changed_books
        return any(e.base is None and (e.wild == 0 or e.key == WILD) for e in entries)

    # ----- end of round ------------------------------------------------------------

    def _held(self) -> list[int]:
        """Each seat's held points at the end of the round (cards in hand and foot)."""
        rules = self.rules
        vals = held_value_table(rules.red_three_penalty, rules.black_three_penalty)
        held = []
        for seat in range(self.players):
            # hands are counts per card id; an empty hand (most often the one who went out) is 0
            points = int(sumprod(vals, self.hands[seat])) if self.hand_n[seat] else 0
            points += sum([vals[c] for c in self.feet[seat]])  # map(tuple.__getitem__) costs more
            held.append(points)
        return held

    def _side_scores(self, held: list[int]) -> list[SideScore]:
        """Each side's score of the ended round, its seats' held points given (`_held`)."""
        rules = self.rules
        held_side = [0] * self.nsides
        for seat, points in enumerate(held):
            held_side[self.side_of[seat]] += points
        out_side = None if self.went_out_seat is None else self.side_of[self.went_out_seat]
        concealed = self._went_out_concealed()
        counts = self.book_counts
        return [
            side_score(
                rules,
                clean_books=counts[k][CLEAN],
                dirty_books=counts[k][DIRTY],
                wild_books=counts[k][WILDBOOK],
                red_threes=self.red3[k],
                table_points=self.table_points[k],
                held_points=held_side[k],
                went_out=out_side == k,
                went_out_concealed=concealed and out_side == k,
            )
            for k in range(self.nsides)
        ]

    def _went_out_concealed(self) -> bool:
        """Whether the player who went out laid nothing down before the turn they went out in."""
        if self.went_out_seat is None:
            return False
        facts = self.facts[self.went_out_seat]
        first_laid = facts[F_FIRST_LAY]
        return first_laid < 0 or first_laid == facts[F_TURNS]

    def round_scores(self) -> list[int]:
        """Each side's score of the ended round: `round_report(...).scores` without the seats'
        facts (a what-if's replay needs only the scores)."""
        return [side.score for side in self._side_scores(self._held())]

    def round_report(self, players: Sequence[str]) -> RoundReport:
        held = self._held()
        seats = []
        for seat in range(self.players):
            f = self.facts[seat]
            seats.append(
                SeatFacts(  # positional, in the field order: half the cost of keywords
                    seat,
                    players[seat] if seat < len(players) else str(seat),
                    self.side_of[seat],
                    f[F_TURNS],
                    None if f[F_FOOT_TURN] < 0 else f[F_FOOT_TURN],
                    f[F_PICKUPS],
                    f[F_PICKED],
                    f[F_STARTED],
                    f[F_LAID],
                    f[F_WILDS_DIRTY],
                    f[F_BLACK3],
                    self.hand_n[seat] + len(self.feet[seat]),
                    held[seat],
                    None if f[F_FIRST_LAY] < 0 else f[F_FIRST_LAY],
                    f[F_RED3],
                )
            )
        sides = self._side_scores(held)
        return RoundReport(self.round_no, self.ended_by or "", self.went_out_seat, sides, seats)

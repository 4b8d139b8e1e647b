"""What one seat may know of a round: the only thing a computer player is shown.

Its own hand; every seat's hand and foot sizes; every side's melds, books, red 3s and points on
the table; the whole pile (every card in it was seen going in); the cards each seat was seen
taking with the pile; the stock's size; the game's score so far. Never another seat's hand, a
foot or the stock: those are only sizes here, and `determinize` fills them with cards drawn
from what the seat has not seen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import IS_RED3, PARSE, deck_counts
from ..rules import RuleSet
from ..state import State, TableMeld
from .memory import Counts, TableMemory

RED3S = (PARSE["3H"], PARSE["3D"])


@dataclass(frozen=True, slots=True)
class MeldSeen:
    """A meld or book on the table, as anyone sees it."""

    key: int
    cards: tuple[int, ...]
    nat: int
    wild: int
    kind: int | None  # None while open, else CLEAN / DIRTY / WILDBOOK

    @classmethod
    def of(cls, meld: TableMeld) -> MeldSeen:
        return cls(meld.key, tuple(meld.cards), meld.nat, meld.wild, meld.kind)

    def table_meld(self) -> TableMeld:
        return TableMeld(self.key, list(self.cards), self.nat, self.wild, self.kind)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of the round; equal views must lead to equal decisions."""

    rules: RuleSet
    seat: int
    question_from: int | None  # a partner asking this seat "may I go out?"
    round_no: int
    players: int
    nsides: int
    dealer: int
    turn: int
    phase: int
    asked: bool | None
    frozen: bool
    hand: Counts
    hand_sizes: tuple[int, ...]
    foot_sizes: tuple[int, ...]
    on_foot: tuple[bool, ...]
    played_foot: tuple[bool, ...]
    started: tuple[bool, ...]
    known_held: tuple[Counts, ...]
    pile: tuple[int, ...]
    stock_size: int
    open: tuple[tuple[MeldSeen, ...], ...]
    books: tuple[tuple[MeldSeen, ...], ...]
    book_counts: tuple[tuple[int, ...], ...]
    table_points: tuple[int, ...]
    red3: tuple[int, ...]
    laid_down: tuple[bool, ...]
    scores: tuple[int, ...]  # the game's totals per side before this round

    @property
    def side(self) -> int:
        return self.seat % self.nsides

    def hand_cards(self) -> list[int]:
        return [c for c, n in enumerate(self.hand) for _ in range(n)]

    def unseen(self) -> list[int]:
        """The cards this seat has not seen, ascending: in other hands (beyond those seen taken
        with the pile), the feet and the stock."""
        left = deck_counts(self.rules.deck_count(self.players))
        seen = [*self.hand_cards(), *self.pile]
        seen += [c for melds in (*self.open, *self.books) for m in melds for c in m.cards]
        for other, known in enumerate(self.known_held):
            if other != self.seat:
                seen += [c for c, n in enumerate(known) for _ in range(n)]
        for c in seen:
            left[c] -= 1
        for _ in range(sum(self.red3)):  # laid red 3s: which colour suit is never played on
            red = RED3S[0] if left[RED3S[0]] else RED3S[1]
            left[red] -= 1
        return [c for c, n in enumerate(left) for _ in range(n)]

    def determinize(self, rng: random.Random | None) -> State:
        """A full state this seat cannot tell from the real one: the unseen cards dealt at random
        (in order, without `rng`) to the other hands, the feet and the stock. Under `lay`, a seat
        that has played its first turn holds no red 3."""
        pool = self.unseen()
        if rng is not None:
            rng.shuffle(pool)
        hands: list[list[int]] = []
        for other in range(self.players):
            if other == self.seat:
                hands.append(self.hand_cards())
                continue
            known = [c for c, n in enumerate(self.known_held[other]) for _ in range(n)]
            no_red3 = self.rules.red_threes == "lay" and self.started[other]
            hands.append(known + _take(pool, self.hand_sizes[other] - len(known), no_red3))
        feet = [_take(pool, size, False) for size in self.foot_sizes]
        stock = _take(pool, self.stock_size, False)
        if pool:
            raise ValueError(f"{len(pool)} unseen card(s) left over: the view is inconsistent")
        return self._state(hands, feet, stock)

    def _state(self, hands: list[list[int]], feet: list[list[int]], stock: list[int]) -> State:
        s = State.deal(self.rules, self.round_no, self.dealer, self.nsides, hands, feet, stock,
                       self.pile)  # fmt: skip
        s.stock = stock  # deal reverses its stock (top first); this one is already top last
        s.turn = self.turn
        s.phase = self.phase
        s.asked = self.asked
        s.frozen = self.frozen
        s.on_foot = list(self.on_foot)
        s.played_foot = list(self.played_foot)
        s.started = list(self.started)
        s.open = [{m.key: m.table_meld() for m in melds} for melds in self.open]
        s.books = [[m.table_meld() for m in books] for books in self.books]
        s.last_book = [{m.key: i for i, m in enumerate(books)} for books in self.books]
        s.book_counts = [list(c) for c in self.book_counts]
        s.table_points = list(self.table_points)
        s.red3 = list(self.red3)
        s.laid_down = list(self.laid_down)
        return s


def _take(pool: list[int], count: int, no_red3: bool) -> list[int]:
    """`count` cards from the end of `pool` (removed), skipping red 3s if asked."""
    if count <= 0:
        return []
    if not no_red3:
        taken = pool[len(pool) - count :]
        del pool[len(pool) - count :]
        return taken
    taken = []
    i = len(pool) - 1
    while len(taken) < count and i >= 0:
        if not IS_RED3[pool[i]]:
            taken.append(pool.pop(i))
        i -= 1
    if len(taken) < count:
        raise ValueError("too few cards without red 3s for a hand: the view is inconsistent")
    return taken


def view_of(
    state: State,
    seat: int,
    memory: TableMemory,
    scores: tuple[int, ...] = (),
    question_from: int | None = None,
) -> SeatView:
    """The view of `seat` in `state`, given what the table has seen (`memory`)."""
    return SeatView(
        rules=state.rules,
        seat=seat,
        question_from=question_from,
        round_no=state.round_no,
        players=state.players,
        nsides=state.nsides,
        dealer=state.dealer,
        turn=state.turn,
        phase=state.phase,
        asked=state.asked,
        frozen=state.frozen,
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(state.hand_n),
        foot_sizes=tuple(len(f) for f in state.feet),
        on_foot=tuple(state.on_foot),
        played_foot=tuple(state.played_foot),
        started=tuple(state.started),
        known_held=memory.known_held,
        pile=tuple(state.pile),
        stock_size=len(state.stock),
        open=tuple(tuple(MeldSeen.of(m) for m in sorted(o.values(), key=_key)) for o in state.open),
        books=tuple(tuple(MeldSeen.of(m) for m in books) for books in state.books),
        book_counts=tuple(tuple(c) for c in state.book_counts),
        table_points=tuple(state.table_points),
        red3=tuple(state.red3),
        laid_down=tuple(state.laid_down),
        scores=scores or (0,) * state.nsides,
    )


def _key(meld: TableMeld) -> int:
    return meld.key


"""A move log replayed once, as a viewer needs it: the table at every step, and what mattered.

`build_replay(log, names)` runs the engine's own `State` through every event of a stored log
(the same `start_round` / `play_events` the checker uses) and records, per round, the table
after the deal and, per event, only what changed. `table_at(replay, round, step)` rebuilds the
table of any step from those changes (the viewer in static/js/replay.js does the same).

The structure (format `hand-and-foot-replay/1`, docs/replay.md):

    {"format", "seats": [names], "sides": n, "individual", "side_names": [...],
     "rounds": [{"round", "dealer", "minimum", "start": TABLE,
                 "steps": [{"seat", "turn", "text", "change": CHANGE}],
                 "moments": [{"step", "kind", "seat", "text"}], "score": {...}, "ended_by",
                 "went_out_seat"}]}

TABLE = {"hands": [[card]], "feet": [[card]], "melds": [[MELD]], "pile": {"top", "size",
"frozen", "blocked"}, "stock": n, "scores": [n], "turn": seat, "on_foot": [bool]}; a MELD is
{"rank", "cards", "state": clean | dirty | wild, "book": bool}. A CHANGE holds only the keys
that changed; for the per-seat and per-side lists, {index: new value}. Step 0 is the deal;
step i (from 1) is the table after event i - 1. Seats and sides count from 0 in the data; the
words (`text`) count them from 1, as the table does.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_STR, IS_THREE, KEY_NAME, KEY_STR, MELD_KEY, WILD
from .errors import EngineError, ErrorCode
from .replay import load_log, play_events, read_table, start_round
from .schemas import validate_log_structure
from .state import F_RED3, KIND_NAME, State, TableMeld

REPLAY_FORMAT = "hand-and-foot-replay/1"
PER_INDEX = ("hands", "feet", "melds", "scores", "on_foot")
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_WORDS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


def card_words(card: str) -> str:
    """A card in words, for screen readers: "7H" -> "7 of hearts", "JK" -> "joker"."""
    if card == "JK":
        return "joker"
    return f"{RANK_WORDS.get(card[0], card[0])} of {SUIT_WORDS[card[1]]}"


def _meld(m: TableMeld) -> dict[str, Any]:
    state = "wild" if m.key == WILD else ("dirty" if m.wild else "clean")
    return {
        "rank": KEY_STR[m.key],
        "cards": [CARD_STR[c] for c in m.cards],
        "state": state,
        "book": m.kind is not None,
    }


def side_melds(state: State, side: int) -> list[dict[str, Any]]:
    """A side's books and open melds, by rank (books before the open meld of the same rank)."""
    melds = [(m.key, 0, i, m) for i, m in enumerate(state.books[side])]
    melds += [(m.key, 1, 0, m) for m in state.open[side].values()]
    return [_meld(m) for *_k, m in sorted(melds, key=lambda t: t[:3])]


def snapshot(state: State, names: list[str]) -> dict[str, Any]:
    """The table of one moment, read from the engine's state."""
    top = state.upcard()
    return {
        "hands": [[CARD_STR[c] for c in state.hand_cards(s)] for s in range(state.players)],
        "feet": [[CARD_STR[c] for c in f] for f in state.feet],
        "melds": [side_melds(state, k) for k in range(state.nsides)],
        "pile": {
            "top": None if top is None else CARD_STR[top],
            "size": len(state.pile),
            "frozen": state.frozen,
            "blocked": top is not None and IS_THREE[top],
        },
        "stock": len(state.stock),
        "scores": state.round_report(names).scores,
        "turn": state.turn,
        "on_foot": list(state.on_foot),
    }


def diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Only what changed from `before` to `after` (per seat / per side for the lists)."""
    change: dict[str, Any] = {}
    for key, value in after.items():
        old = before[key]
        if value == old:
            continue
        if key in PER_INDEX:
            change[key] = {str(i): v for i, (o, v) in enumerate(zip(old, value, strict=True)) if o != v}
        else:
            change[key] = value
    return change


def apply_change(table: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The table after one step's change (a new dict; `table` is left as it was)."""
    out = dict(table)
    for key, value in change.items():
        if key in PER_INDEX:
            items = list(out[key])
            for i, v in value.items():
                items[int(i)] = v
            out[key] = items
        else:
            out[key] = value
    return out


def table_at(replay: dict[str, Any], round_no: int, step: int) -> dict[str, Any]:
    """The table of round `round_no` (from 1) after `step` events (0: the deal)."""
    rnd = replay["rounds"][round_no - 1]
    if not 0 <= step <= len(rnd["steps"]):
        raise ValueError(f"round {round_no} has steps 0 to {len(rnd['steps'])}")
    table: dict[str, Any] = rnd["start"]
    for s in rnd["steps"][:step]:
        table = apply_change(table, s["change"])
    return table


class _Words:
    """The words of a round's steps and moments, with players by name and sides from 1."""

    def __init__(self, names: list[str], nsides: int, individual: bool) -> None:
        self.names = names
        self.nsides = nsides
        self.individual = individual

    def side(self, side: int) -> str:
        if self.individual:
            return self.names[side]
        return f"Side {side + 1}"

    def seat(self, seat: int) -> str:
        return self.names[seat]


def _cards_text(cards: list[str]) -> str:
    """Cards as people say them ("queen of hearts, 7 of spades"), never as the log codes them."""
    return ", ".join(card_words(card) for card in cards)


def _event_text(w: _Words, ev: dict[str, Any], taken: list[str]) -> str:
    who = w.seat(ev["seat"])
    t = ev["type"]
    if t == "draw":
        return f"{who} draws"
    if t == "discard":
        return f"{who} discards the {card_words(ev['card'])}"
    if t == "meld":
        parts = [f"{_rank_words(m['rank'])}: {_cards_text(m['cards'])}" for m in ev["melds"]]
        return f"{who} melds " + "; ".join(parts)
    if t == "pickup":
        return f"{who} takes the pile ({len(taken)} cards: {_cards_text(taken)})"
    return f"{who} asks to go out; the partner says {ev['answer']}"


def _rank_words(rank: str) -> str:
    return KEY_NAME[MELD_KEY[rank]]


class _Round:
    """Records one round: steps (changes and words) and the moments that mattered."""

    def __init__(self, w: _Words, state: State) -> None:
        self.w = w
        self.state = state
        self.steps: list[dict[str, Any]] = []
        self.moments: list[dict[str, Any]] = []
        self.turn = 0
        self.asked: tuple[int, str] | None = None  # (seat, answer) of this turn's question

    def moment(self, step: int, kind: str, text: str, seat: int | None = None) -> None:
        self.moments.append({"step": step, "kind": kind, "seat": seat, "text": text})

    def red3s(self, step: int, before: list[int]) -> None:
        for seat, f in enumerate(self.state.facts):
            n = f[F_RED3] - before[seat]
            if n > 0:
                what = "a red 3" if n == 1 else f"{n} red 3s"
                self.moment(step, "red3", f"{self.w.seat(seat)} lays {what}", seat)

    def facts_of(self, step: int, ev: dict[str, Any], old: State, taken: list[str]) -> None:
        s, w = self.state, self.w
        seat = ev["seat"]
        side = s.side_of[seat]
        who = w.seat(seat)
        if not old.laid_down[side] and s.laid_down[side]:
            value = s.table_points[side] - old.table_points[side]
            minimum = s.rules.meld_minimum(s.round_no)
            self.moment(
                step, "first_meld",
                f"{w.side(side)} lays down first through {who}: {value} points "
                f"(the minimum is {minimum})",
                seat,
            )  # fmt: skip
        if ev["type"] == "pickup":
            text = f"{who} takes the pile: {len(taken)} cards ({_cards_text(taken)})"
            self.moment(step, "pickup", text, seat)
        for k in range(s.players):
            if s.on_foot[k] and not old.on_foot[k]:
                self.moment(step, "foot", f"{w.seat(k)} picks up the foot", k)
        for k in range(s.nsides):
            for m in s.books[k][len(old.books[k]):]:
                kind = KIND_NAME[m.kind] if m.kind is not None else "clean"
                text = f"{w.side(k)} completes a {kind} book of {KEY_NAME[m.key]}"
                self.moment(step, "book", text, seat if s.side_of[seat] == k else None)
        if s.over:
            self._ending(step, seat)

    def _ending(self, step: int, seat: int) -> None:
        s, w = self.state, self.w
        if s.ended_by == "went_out":
            if not s.mates[seat]:
                asked = ""
            elif self.asked is not None and self.asked[0] == seat:
                asked = f" after asking the partner (who said {self.asked[1]})"
            else:
                asked = " without asking the partner"
            self.moment(step, "went_out", f"{w.seat(seat)} goes out{asked}", seat)
        else:
            self.moment(step, "stock_out", "The stock runs out: the round ends")


def _score_words(w: _Words, state: State, names: list[str]) -> dict[str, Any]:
    report = state.round_report(names)
    sides = [s.to_dict() for s in report.sides]
    text = "; ".join(f"{w.side(k)} {s['score']}" for k, s in enumerate(sides))
    return {"sides": sides, "scores": report.scores, "text": f"Round {state.round_no}: {text}"}


def _play_round(table: Any, rnd: dict[str, Any], index: int, prev: int | None,
                names: list[str], w: _Words) -> tuple[dict[str, Any], State]:
    state = start_round(table, rnd, index, prev)
    rec = _Round(w, state)
    start = snapshot(state, names)
    rec.red3s(0, [0] * state.players)
    before = start
    for i, ev in enumerate(rnd["events"]):
        old = state.copy()
        red_before = [f[F_RED3] for f in state.facts]
        try:
            play_events(state, [ev])
        except EngineError as err:
            err.event = i
            raise
        if ev["type"] in ("draw", "pickup"):
            rec.turn += 1
            rec.asked = None
        if ev["type"] == "ask_go_out":
            rec.asked = (ev["seat"], ev["answer"])
        taken = [CARD_STR[c] for c in reversed(old.pile[len(state.pile):])]
        after = snapshot(state, names)
        rec.steps.append({
            "seat": ev["seat"], "turn": rec.turn, "text": _event_text(w, ev, taken),
            "change": diff(before, after),
        })  # fmt: skip
        rec.red3s(i + 1, red_before)
        rec.facts_of(i + 1, ev, old, taken)
        before = after
    if not state.over:
        raise EngineError(ErrorCode.ROUND_NOT_OVER, "the events stop before the round ended")
    score = _score_words(w, state, names)
    rec.moment(len(rec.steps), "score", score["text"])
    return {
        "round": index,
        "dealer": state.dealer,
        "minimum": state.rules.meld_minimum(index),
        "start": start,
        "steps": rec.steps,
        "moments": rec.moments,
        "score": score,
        "ended_by": state.ended_by,
        "went_out_seat": state.went_out_seat,
    }, state


def build_replay(log: Any, names: list[str] | None = None) -> dict[str, Any]:
    """Replay a move log once into the viewer's structure (see the module's docstring).

    `names` are the players' names in seat order (the log's seat identifiers by default).
    Raises EngineError (with round and event set) for a log the engine refuses."""
    data = load_log(log)
    found = validate_log_structure(data)
    if found is not None:
        raise found
    table = read_table(data)
    names = list(names) if names is not None else list(table.seats)
    if len(names) != table.players:
        raise ValueError(f"{len(names)} names for {table.players} seats")
    w = _Words(names, table.nsides, table.individual)
    rounds = []
    prev = None
    for index, rnd in enumerate(data["rounds"], start=1):
        try:
            out, state = _play_round(table, rnd, index, prev, names, w)
        except EngineError as err:
            err.round = index
            raise
        prev = state.dealer
        rounds.append(out)
    return {
        "format": REPLAY_FORMAT,
        "seats": names,
        "sides": table.nsides,
        "individual": table.individual,
        "side_of": [i % table.nsides for i in range(table.players)],
        "side_names": [w.side(k) for k in range(table.nsides)],
        "rounds": rounds,
        "totals": [sum(r["score"]["scores"][k] for r in rounds) for k in range(table.nsides)],
    }


def _list_words(numbers: list[int]) -> str:
    words = [str(n) for n in numbers]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _times(n: int) -> str:
    return "once" if n == 1 else ("twice" if n == 2 else f"{n} times")


def game_story(replay: dict[str, Any]) -> list[str]:
    """A few sentences on the whole game, from the same facts as the timeline."""
    names = replay["side_names"]
    side_of = replay["side_of"]
    out_rounds: dict[int, list[int]] = {}
    pickups = [0] * replay["sides"]
    books = [0] * replay["sides"]
    stock_out = []
    for rnd in replay["rounds"]:
        if rnd["went_out_seat"] is not None:
            out_rounds.setdefault(side_of[rnd["went_out_seat"]], []).append(rnd["round"])
        else:
            stock_out.append(rnd["round"])
        for m in rnd["moments"]:
            if m["kind"] == "pickup":
                pickups[side_of[m["seat"]]] += 1
        for k, s in enumerate(rnd["score"]["sides"]):
            books[k] += s["clean_books"] + s["dirty_books"] + s["wild_books"]
    story = []
    for side, rounds in sorted(out_rounds.items()):
        word = "round" if len(rounds) == 1 else "rounds"
        story.append(f"{names[side]} went out first in {word} {_list_words(rounds)}.")
    if stock_out:
        word = "round" if len(stock_out) == 1 else "rounds"
        story.append(f"The stock ran out in {word} {_list_words(stock_out)}.")
    taken = [f"{names[k]} took the pile {_times(n)}" for k, n in enumerate(pickups) if n]
    if taken:
        story.append("; ".join(taken) + ".")
    story.append("Books completed: " + ", ".join(f"{names[k]} {n}" for k, n in enumerate(books)) + ".")
    totals = replay["totals"]
    best = max(range(len(totals)), key=totals.__getitem__)
    if totals.count(totals[best]) == 1:
        story.append(f"{names[best]} won with {totals[best]} points.")
    else:
        story.append(f"The game ended level at {totals[best]} points.")
    return story


__all__ = [
    "REPLAY_FORMAT",
    "apply_change",
    "build_replay",
    "card_words",
    "diff",
    "game_story",
    "snapshot",
    "table_at",
]

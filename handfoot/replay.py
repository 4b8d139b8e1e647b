"""Replaying a move log: check every event and score every round."""

from __future__ import annotations

from .cards import (
    CARD_STR,
    IS_RED3,
    IS_THREE,
    IS_WILD,
    MELD_KEY,
    NCARDS,
    PARSE,
    deck_counts,
)
from .errors import EngineError, ErrorCode, shown
from .events import card_ids, check_event_fields, parse_items
from .formats import LOG_FORMAT
from .jsontext import parse_document
from .report import GameReport, RoundReport, totals_of
from .rules import MAX_DECKS, MAX_PLAYERS, RuleSet, rules_from_spec
from .state import Item, State

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Any

E = ErrorCode


class Table:
    """The header of a log: rule set, players and sides."""

    __slots__ = ("rules", "seats", "players", "nsides", "individual")

    def __init__(self, rules: RuleSet, seats: list[str], nsides: int, individual: bool) -> None:
        self.rules = rules
        self.seats = seats
        self.players = len(seats)
        self.nsides = nsides
        self.individual = individual


def _bad(message: str) -> EngineError:
    return EngineError(E.BAD_FORMAT, message)


def load_log(log: Any) -> dict[str, Any]:
    if isinstance(log, bytes | bytearray | str):
        log = parse_document(log)
    if not isinstance(log, dict):
        raise _bad("a move log must be a JSON object")
    return log


def sides_for(players: int, play: Any, sides: Any) -> tuple[int, bool]:
    """(number of sides, individual?) or BAD_SEATS."""
    if play is None:
        play = "partnerships" if players in (4, 6) else "individual"
    if play == "individual":
        return players, True
    if play != "partnerships":
        raise _bad(f"play must be partnerships or individual, not {shown(play)}")
    if sides is None:
        sides = 2
    if type(sides) is not int:
        raise _bad("sides must be a whole number")
    if sides < 2 or players % sides or players // sides < 2:
        raise EngineError(E.BAD_SEATS, f"{players} players cannot play as {sides} partnerships")
    return sides, False


def _seats(seats: Any) -> list[str]:
    if type(seats) is not list or not all(isinstance(s, str) for s in seats):
        raise _bad("seats must be a list of player names")
    if any("\x00" in s for s in seats):  # the one free text of a log (jsonb cannot hold it)
        raise _bad("a player name holds a NUL character (\\u0000)")
    if not 2 <= len(seats) <= MAX_PLAYERS:
        raise EngineError(
            E.BAD_SEATS, f"a game needs 2 to {MAX_PLAYERS} players, not {len(seats)}"
        )
    return seats


def read_table(log: dict[str, Any], rules: RuleSet | None = None) -> Table:
    """The log's header; `rules` (already parsed) replaces the rules the log names."""
    if log.get("format") != LOG_FORMAT:
        raise _bad(f"format must be {LOG_FORMAT!r}, not {shown(log.get('format'))}")
    if rules is None:
        if "rules" not in log:
            raise _bad("the log names no rules")
        rules = rules_from_spec(log["rules"])
    seats = _seats(log.get("seats"))
    n = len(seats)
    nsides, individual = sides_for(n, log.get("play"), log.get("sides"))
    decks = rules.deck_count(n)
    if decks > MAX_DECKS:
        raise EngineError(
            E.BAD_SEATS, f"{n} players would need {decks} decks; a game uses at most {MAX_DECKS}"
        )
    if n * (rules.hand_size + rules.foot_size) + 1 > sum(deck_counts(decks)):
        raise EngineError(E.BAD_SEATS, f"{n} players cannot be dealt from {decks} decks")
    if type(log.get("rounds")) is not list:
        raise _bad("rounds must be a list")
    if len(log["rounds"]) > rules.rounds:
        raise _bad(f"the log has {len(log['rounds'])} rounds; the game has {rules.rounds}")
    return Table(rules, seats, nsides, individual)


def _deal_list(deal: dict[str, Any], name: str, n: int) -> list[list[int]]:
    raw = deal.get(name)
    if type(raw) is not list or len(raw) != n:
        raise _bad(f"deal {name} must be a list of {n} card lists")
    where = f"deal {name}"
    return [card_ids(h, where) for h in raw]


def start_round(table: Table, rnd: Any, index: int, prev_dealer: int | None) -> State:
    """Check a round's header and deal; return its starting state."""
    rules = table.rules
    n = table.players
    if type(rnd) is not dict:
        raise _bad("each round must be an object")
    if rnd.get("round") != index:
        raise _bad(f"round {shown(rnd.get('round'))} is out of order; expected round {index}")
    dealer = rnd.get("dealer")
    if type(dealer) is not int:
        raise _bad("dealer must be a seat number")
    if not 0 <= dealer < n:
        raise EngineError(E.WRONG_DEALER, f"there is no seat {dealer} to deal")
    if prev_dealer is not None and dealer != (prev_dealer + 1) % n:
        raise EngineError(
            E.WRONG_DEALER,
            f"round {index} is dealt by seat {(prev_dealer + 1) % n} (left of the last dealer), "
            f"not seat {dealer}",
        )
    deal = rnd.get("deal")
    if type(deal) is not dict:
        raise _bad("the round has no deal")
    hands = _deal_list(deal, "hands", n)
    feet = _deal_list(deal, "feet", n)
    stock = card_ids(deal.get("stock"), "deal stock")
    discard = card_ids(deal.get("discard"), "deal discard")
    if type(rnd.get("events")) is not list:
        raise _bad("the round's events must be a list")
    _check_deal(rules, n, hands, feet, stock, discard)
    return State.deal(rules, index, dealer, table.nsides, hands, feet, stock, discard)


def _check_deal(
    rules: RuleSet,
    n: int,
    hands: list[list[int]],
    feet: list[list[int]],
    stock: list[int],
    discard: list[int],
) -> None:
    for seat in range(n):
        if len(hands[seat]) != rules.hand_size or len(feet[seat]) != rules.foot_size:
            raise EngineError(
                E.BAD_DEAL,
                f"seat {seat} was dealt {len(hands[seat])} + {len(feet[seat])} cards; "
                f"the rules deal {rules.hand_size} + {rules.foot_size}",
            )
    decks = rules.deck_count(n)
    counts = [0] * NCARDS
    for group in (stock, discard, *hands, *feet):
        for c in group:  # a third of the time of sorting the dealt cards (measured)
            counts[c] += 1
    full = deck_counts(decks)
    if counts != full:
        diff = next(c for c in range(NCARDS) if counts[c] != full[c])
        raise EngineError(
            E.BAD_DEAL,
            f"the deal has {counts[diff]} x {CARD_STR[diff]} but {decks} decks hold {full[diff]}",
        )
    if not discard:
        raise EngineError(E.BAD_DEAL, "the deal turns no card up on the discard pile")
    up = discard[-1]
    forbidden = rules.upcard_forbidden
    if (
        ("wild" in forbidden and IS_WILD[up])
        or ("3" in forbidden and IS_THREE[up])
        or ("red3" in forbidden and IS_RED3[up])
    ):
        raise EngineError(E.BAD_DEAL, f"{CARD_STR[up]} may not start the discard pile")


def play_events(state: State, events: list[Any]) -> None:
    """Apply every event; on error re-raise with the event index set.

    The common events (a draw, a discard, a meld with exactly their fields) are read here with
    subscripts, not `get`: this loop is most of a replay's time. Anything else goes to
    `_play_other`, which checks the fields.

    The end of the round is not looked for before each event: every action checks it first,
    so any event after the end fails, and its error is then replaced by ROUND_OVER (no action
    fails once it has ended the round, so the round was over before that event)."""
    i = -1
    draw, discard, meld, meld_one = state.draw, state.discard, state.meld, state.meld_one
    try:
        for i, ev in enumerate(events):  # noqa: B007 - i is read in the handler
            if type(ev) is not dict:
                raise _bad("an event must be an object")
            try:
                seat, t = ev["seat"], ev["type"]
            except KeyError:
                seat, t = ev.get("seat"), ev.get("type")
            if type(seat) is not int:
                raise _bad("an event needs a whole-number seat")
            n = len(ev)
            if t == "draw" and n == 2:
                draw(seat)
            elif t == "discard" and n == 3:
                try:
                    card = PARSE[ev["card"]]
                except (KeyError, TypeError):
                    raise _bad(f"discard: {shown(ev.get('card'))} is not a card") from None
                discard(seat, card)
            elif t == "meld" and n == 3 and "melds" in ev:  # seat, type and melds only
                raw = ev["melds"]
                if type(raw) is list and len(raw) == 1:  # most melds: read as parse_items reads
                    m = raw[0]
                    try:
                        cards = m["cards"]
                        key = MELD_KEY[m["rank"]]
                        ids = [PARSE[c] for c in cards]
                    except (KeyError, TypeError, AttributeError):
                        ids = []
                    if ids and len(m) == 2 and type(cards) is list:
                        meld_one(seat, key, ids)
                        continue
                meld(seat, _meld_items(raw))
            elif t == "pickup" and "pair" in ev and (n == 3 or (n == 4 and "melds" in ev)):
                # its fields are plainly the pickup's (melds left out when there are none)
                pair = card_ids(ev["pair"], "pickup pair")
                items = _meld_items(ev["melds"], "pickup melds") if n == 4 else []
                state.pickup(seat, pair, items)
            else:
                _play_other(state, seat, t, ev)
    except EngineError as err:
        if state.over and _has_seat(events[i]):
            message = "the round was already over before this event"
            raise EngineError(E.ROUND_OVER, message, event=i) from None
        err.event = i
        raise


def _has_seat(ev: Any) -> bool:
    """Whether an event passes the loop's first checks (an object with a whole-number seat)."""
    return type(ev) is dict and type(ev.get("seat")) is int


def _meld_items(raw: Any, where: str = "melds") -> list[Item]:
    """A meld event's items: those of rank and cards only read here as parse_items reads them
    (without its calls), anything else by parse_items, which words what is wrong."""
    if type(raw) is not list:
        return parse_items(raw, where)
    items: list[Item] = []
    for m in raw:
        try:
            cards = m["cards"]
            key = MELD_KEY[m["rank"]]
            ids = [PARSE[c] for c in cards]
        except (KeyError, TypeError, AttributeError):
            return parse_items(raw, where)
        if not ids or len(m) != 2 or type(cards) is not list:
            return parse_items(raw, where)
        items.append((key, ids, 0))
    return items


def _play_other(state: State, seat: int, t: Any, ev: dict[str, Any]) -> None:
    """Every event but a plain draw or discard (and those with unknown fields)."""
    check_event_fields(ev, t)
    if t == "draw":
        state.draw(seat)
    elif t == "discard":
        c = ev.get("card")
        card = PARSE.get(c) if type(c) is str else None
        if card is None:
            raise _bad(f"discard: {shown(c)} is not a card")
        state.discard(seat, card)
    elif t == "meld":
        state.meld(seat, parse_items(ev.get("melds")))
    elif t == "pickup":
        pair = card_ids(ev.get("pair", []), "pickup pair")
        state.pickup(seat, pair, parse_items(ev.get("melds", []), "pickup melds"))
    else:  # ask_go_out
        answer = ev.get("answer")
        if answer not in ("yes", "no"):
            raise _bad("ask_go_out needs answer yes or no")
        state.ask_go_out(seat, answer == "yes")


def _check_reported(rnd: dict[str, Any], report: RoundReport) -> None:
    reported = rnd.get("reported")
    if reported is None:
        return
    scores = reported.get("scores") if isinstance(reported, dict) else None
    if (
        type(scores) is not list
        or len(scores) != len(report.sides)
        or not all(type(s) is int for s in scores)
    ):
        raise _bad(f"reported scores must be {len(report.sides)} whole numbers, one per side")
    computed = report.scores
    if scores != computed:
        raise EngineError(
            E.SCORE_MISMATCH,
            f"the table reported {scores} but the cards score {computed}",
        )


# The structural log schema (schemas._log_validator: the header and the rounds' shape, not the
# cards, events nor rules) as plain checks; tests/handfoot/test_log_shape.py holds them equal.
LOG_KEYS = frozenset(("format", "rules", "seats", "play", "sides", "rounds"))
LOG_REQUIRED = frozenset(("format", "rules", "seats", "rounds"))
ROUND_KEYS = frozenset(("round", "dealer", "deal", "events", "reported"))
ROUND_REQUIRED = frozenset(("round", "dealer", "deal", "events"))
SHAPE_LIMITS: dict[str, tuple[int, int]] = {  # least and most: of a number, or of a list's items
    "seats": (0, 323), "sides": (2, 6), "rounds": (0, 8), "round": (1, 8), "dealer": (0, 11),
    "hands": (0, 323), "feet": (0, 323), "stock": (0, 648), "discard": (0, 648),
    "events": (0, 2592), "scores": (0, 323), "score": (-10_000_000, 10_000_000),
}  # fmt: skip
_PLAYS = ("partnerships", "individual")


def plain_shape(doc: dict[str, Any]) -> bool:
    """True only when the log plainly has the structural schema's shape: then the schema's
    validator (jsonschema_rs, some 15 ms to import) is not needed. False for anything else,
    which the validator judges and words."""
    keys = doc.keys()
    if keys - LOG_KEYS or not keys >= LOG_REQUIRED:
        return False
    seats, rounds, limits = doc["seats"], doc["rounds"], SHAPE_LIMITS
    least, most = limits["sides"]
    if (
        type(doc["format"]) is not str or doc["format"] != LOG_FORMAT
        or type(doc["rules"]) not in (str, dict)
        or type(seats) is not list or len(seats) > limits["seats"][1]
        or not all(type(s) is str for s in seats)
        or ("play" in doc and (type(doc["play"]) is not str or doc["play"] not in _PLAYS))
        or ("sides" in doc and (type(doc["sides"]) is not int or not least <= doc["sides"] <= most))
        or type(rounds) is not list or len(rounds) > limits["rounds"][1]
    ):
        return False
    return all(_plain_round(rnd) for rnd in rounds)


def _plain_round(rnd: Any) -> bool:
    if type(rnd) is not dict:
        return False
    keys = rnd.keys()
    if keys - ROUND_KEYS or not keys >= ROUND_REQUIRED:
        return False
    r, dealer, deal, events = rnd["round"], rnd["dealer"], rnd["deal"], rnd["events"]
    limits = SHAPE_LIMITS
    r_least, r_most = limits["round"]
    d_least, d_most = limits["dealer"]
    if (
        type(r) is not int or not r_least <= r <= r_most
        or type(dealer) is not int or not d_least <= dealer <= d_most
        or type(events) is not list or len(events) > limits["events"][1]
        or type(deal) is not dict or len(deal) != 4
    ):
        return False
    for name in ("hands", "feet", "stock", "discard"):
        part = deal.get(name)
        if type(part) is not list or len(part) > limits[name][1]:
            return False
    if "reported" not in keys:
        return True
    reported = rnd["reported"]
    if type(reported) is not dict or reported.keys() != {"scores"}:
        return False
    scores = reported["scores"]
    least, most = limits["score"]
    return (
        type(scores) is list and len(scores) <= limits["scores"][1]
        and all(type(x) is int and least <= x <= most for x in scores)
    )


def _replay(log: Any, result: GameReport, rules: RuleSet | None) -> None:
    data = load_log(log)
    if not plain_shape(data):
        from .schemas import validate_log_structure  # imported late: jsonschema_rs, only here

        found = validate_log_structure(data)
        if found is not None:
            raise found
    table = read_table(data, rules)
    result.seats = list(table.seats)
    prev = None
    for index, rnd in enumerate(data["rounds"], start=1):
        try:
            state = start_round(table, rnd, index, prev)
            play_events(state, rnd["events"])
            if not state.over:
                raise EngineError(E.ROUND_NOT_OVER, "the events stop before the round ended")
            report = state.round_report(table.seats)
            _check_reported(rnd, report)
        except EngineError as err:
            err.round = index
            raise
        prev = state.dealer
        result.rounds.append(report)
    result.totals = totals_of(result.rounds, table.nsides)


def replay_log(log: Any, rules: RuleSet | None = None) -> GameReport:
    """Check and score a move log (dict, JSON text or bytes). Never raises.

    `rules`, when given, is the log's rule set already parsed (the caller has matched it with
    the log's `rules`), so it is not parsed again."""
    result = GameReport(kind="log", valid=True)
    try:
        _replay(log, result, rules)
    except EngineError as err:
        result.valid = False
        result.error = err
    except Exception:  # a bug in the engine: reported as such (never as the user's mistake)
        import logging  # imported late: only an engine fault logs (the command line starts faster)

        logging.getLogger(__name__).exception("engine: unexpected exception while replaying a move log")
        result.valid = False
        result.error = EngineError.internal("move log")
    if not result.valid and result.rounds and not result.totals:
        result.totals = [sum(s) for s in zip(*(r.scores for r in result.rounds), strict=True)]
    return result


def rescore_log(log: dict[str, Any], rules: RuleSet, rounds: int) -> list[int] | None:
    """Side totals of a stored log's first `rounds` rounds played again under `rules` (what-if);
    None when `rules` refuse the log (its deal or moves are not legal under them).

    The log was checked against the schema when it was submitted, so it is not checked again; it
    is read, never changed (no copy needed), and the table's `reported` scores, which were for the
    rules it was played under, are not compared.
    """
    try:
        table = read_table(log, rules)
        totals = [0] * table.nsides
        played = 0
        prev = None
        for index, rnd in enumerate(log["rounds"][:rounds], start=1):
            state = start_round(table, rnd, index, prev)
            play_events(state, rnd["events"])
            if not state.over:
                return None
            # the sides' scores only: the seats' facts of a round report are not needed here
            for side, score in enumerate(state.round_scores()):
                totals[side] += score
            played += 1
            prev = state.dealer
    except EngineError:
        return None
    if played != rounds:
        return None
    return totals

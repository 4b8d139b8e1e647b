"""The score sheets and move logs entered for a game: filled in from the event (its rules, the
table's players: `selectors.GameTable`), checked against the table and by the engine (with the
table's rule set as parsed once), and compared figure by figure.

A document naming no `rules` is played under the event's rules (filled in). One naming rules
is recognised as the event's whatever their form (a preset name, preset plus overrides, or just
the overrides of the event's preset, as the director's "house rules as JSON" shows them); one
naming other rules is refused, naming each rule that differs with both values in words. A move log's `seats` are the players' slugs in seat order. A sheet has one
entry per side of the table; its `players` is filled in from the table when absent.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from core.errors import Invalid
from games import selectors
from games.errors import Code, refusal
from games.models import RoundResult, SeatRoundFacts
from games.selectors import GameTable, game_table  # noqa: F401  (re-exported)
from handfoot.checking import check_document, document_kind
from handfoot.errors import EngineError
from handfoot.formats import LOG_FORMAT, SHEET_FORMAT
from handfoot.rules import ENTERED_PARTS, RuleSet, rules_from_spec, rules_to_dict

# The largest score sheet or move log taken, as a file upload or a request body.
MAX_DOCUMENT_BYTES = 2_000_000

# Re-exported (the spreadsheet import reads the event's rules through here).
event_rules = selectors.event_rules

# The figures two entries must agree on, per side of a round (plus the round's `ended_by`).
SIDE_FIGURES = ("score", *(part.name for part in ENTERED_PARTS))
# a part a report stored before it was declared reads as its default (no or 0), not as missing
_FIGURE_DEFAULTS = {part.name: part.default for part in ENTERED_PARTS}


def _named_rules(named: Any, table: GameTable) -> RuleSet:
    """The rule set a document names; a bare object of overrides ({"going_out_bonus": 250})
    changes the event's preset."""
    if isinstance(named, dict) and named and not set(named) & {"preset", "overrides"}:
        named = {"preset": table.rules.preset, "overrides": named}
    try:
        return rules_from_spec(named)
    except EngineError as err:
        raise Invalid(err.code, err.message) from None  # the engine's code and message


def rules_differences(*, event_rules: RuleSet, named: RuleSet) -> list[tuple[str, str, str]]:
    """(rule, the event's value, the document's value) in words, for each rule that differs
    (the preset's name alone is no difference)."""
    from league.house_rules import BY_NAME, value_words

    mine, theirs = rules_to_dict(event_rules), rules_to_dict(named)
    found = []
    for name, value in mine.items():
        if name == "preset" or theirs[name] == value:
            continue
        p = BY_NAME.get(name)
        if p is None:
            found.append((name.replace("_", " "), str(value), str(theirs[name])))
        else:
            found.append((p.label, value_words(p, value), value_words(p, theirs[name])))
    return found


def _rules_match(document: dict[str, Any], table: GameTable) -> None:
    named = _named_rules(document["rules"], table)
    differences = rules_differences(event_rules=table.rules, named=named)
    if differences:
        what = "score sheet" if document_kind(document) == "sheet" else "move log"
        words = "; ".join(
            f"{label}: the event plays {mine}, the {what} says {theirs}"
            for label, mine, theirs in differences
        )
        raise refusal(
            Invalid,
            Code.RULES_MISMATCH,
            what=what,
            differences=words,
            details={
                "differences": [
                    {"rule": label, "event": mine, "document": theirs}
                    for label, mine, theirs in differences
                ]
            },
        )
    document["rules"] = table.rules_spec


def _log_sides(document: dict[str, Any]) -> int | None:
    seats = document.get("seats")
    if not isinstance(seats, list):
        return None
    play = document.get("play") or ("partnerships" if len(seats) in (4, 6) else "individual")
    if play == "individual":
        return len(seats)
    sides = document.get("sides", 2)
    return sides if isinstance(sides, int) else None


def _prepare_log(document: dict[str, Any], table: GameTable) -> None:
    if document.get("seats") != table.players:
        raise refusal(
            Invalid,
            Code.SEATS_MISMATCH,
            players=", ".join(table.players),
            details={"expected": table.players, "got": document.get("seats")},
        )
    if len(table.players) == 6 and "sides" not in document and "play" not in document:
        document["sides"] = table.sides
    rounds = document.get("rounds")
    first = rounds[0] if isinstance(rounds, list) and rounds else None
    if (
        isinstance(first, dict)
        and first.get("round") == 1
        and first.get("dealer") != table.first_dealer
    ):
        raise refusal(
            Invalid,
            Code.DEALER_MISMATCH,
            dealer=table.first_dealer,
            given=repr(first.get("dealer")),
        )
    given = _log_sides(document)
    if given != table.sides:
        raise refusal(
            Invalid,
            Code.SIDES_MISMATCH,
            sides=table.sides,
            what="move log",
            given="another number" if given is None else given,
        )


def _prepare_sheet(document: dict[str, Any], table: GameTable) -> None:
    sides = document.get("sides")
    if isinstance(sides, list) and len(sides) != table.sides:
        raise refusal(
            Invalid, Code.SIDES_MISMATCH, sides=table.sides, what="sheet", given=len(sides)
        )
    document.setdefault("players", len(table.players))
    if document["players"] != len(table.players):
        raise refusal(
            Invalid,
            Code.PLAYERS_MISMATCH,
            players=len(table.players),
            given=repr(document["players"]),
        )
    round_number = document.get("round")
    if isinstance(round_number, int) and not 1 <= round_number <= table.rules.rounds:
        raise refusal(Invalid, Code.BAD_ROUND, rounds=table.rules.rounds, round=round_number)


def document_prepare(*, document: Any, table: GameTable) -> dict[str, Any]:
    """A copy of the document with the event's rules filled in, checked against the table."""
    if not isinstance(document, dict):
        raise refusal(Invalid, Code.BAD_FORMAT)
    document = dict(document)
    if document.get("format") not in (LOG_FORMAT, SHEET_FORMAT):
        document_check(document=document)  # refuses with the engine's BAD_FORMAT message
    if document.get("rules") is None:
        document["rules"] = table.rules_spec
    else:
        _rules_match(document, table)
    if document_kind(document) == "sheet":
        _prepare_sheet(document, table)
    else:
        _prepare_log(document, table)
    return document


def document_check(*, document: dict[str, Any], rules: RuleSet | None = None) -> dict[str, Any]:
    """The engine's report on a valid document; refuses an invalid one with the engine's error.

    `rules`: the document's rule set already parsed (`GameTable.rules`, for a document that
    `document_prepare` filled in), so the engine does not parse it again."""
    report = check_document(document, rules).to_dict()
    error = report["error"]
    if not report["valid"]:
        where = ""
        if report["kind"] == "log" and error.get("round") is not None:
            where = f" (round {error['round']}"
            where += f", event {error['event']})" if error.get("event") is not None else ")"
        # the engine's code (handfoot.errors.ErrorCode) and message
        raise Invalid(error["code"], f"{error['message']}{where}", details=error)
    if not report["rounds"]:
        raise refusal(Invalid, Code.NO_ROUNDS)
    report_range_check(report=report)
    return report


def _column_ranges(model: type[models.Model]) -> dict[str, tuple[int, int]]:
    """The range of each integer column of `model` (the same on every database we run on)."""
    ranges = BaseDatabaseOperations.integer_field_ranges
    return {
        f.name: ranges[f.get_internal_type()]
        for f in model._meta.concrete_fields
        if f.get_internal_type() in ranges and not f.is_relation
    }


def _out_of_range(
    figures: dict[str, Any], ranges: dict[str, tuple[int, int]]
) -> tuple[str, int, tuple[int, int]] | None:
    # The figures as sent before the score worked out from them.
    for name in sorted(figures, key=lambda k: k == "score"):
        value = figures[name]
        bounds = ranges.get(name)
        if isinstance(value, int) and bounds is not None and not bounds[0] <= value <= bounds[1]:
            return name, value, bounds
    return None


def report_range_check(*, report: dict[str, Any]) -> None:
    """Refuse (naming the figure) a report with any number its column cannot hold, so no
    confirmed result can fail to be stored."""
    side_ranges, seat_ranges = _column_ranges(RoundResult), _column_ranges(SeatRoundFacts)
    for r in report["rounds"]:
        places = [(f"side {i + 1}", side, side_ranges) for i, side in enumerate(r["sides"])]
        places += [
            (f"seat {seat.get('seat', 0) + 1}", seat, seat_ranges) for seat in r.get("seats") or []
        ]
        for where, figures, ranges in places:
            found = _out_of_range(figures, ranges)
            if found:
                name, value, (low, high) = found
                raise refusal(
                    Invalid,
                    Code.OUT_OF_RANGE,
                    round=r["round"],
                    where=where,
                    name=name,
                    value=value,
                    low=low,
                    high=high,
                    field=name,
                    details={
                        "round": r["round"],
                        "where": where,
                        "field": name,
                        "value": value,
                        "min": low,
                        "max": high,
                    },
                )


def document_hash(*, document: Any) -> str:
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


# --- figures -----------------------------------------------------------------------------------


def round_figures(round_report: dict[str, Any]) -> dict[str, Any]:
    """What two entries of one round must agree on."""
    return {
        "ended_by": round_report["ended_by"],
        # A totals-only round (no detail) has only its scores.
        "sides": [
            {k: side.get(k, _FIGURE_DEFAULTS.get(k)) for k in SIDE_FIGURES}
            for side in round_report["sides"]
        ],
    }


def round_differences(mine: dict[str, Any], theirs: dict[str, Any]) -> list[dict[str, Any]]:
    """Field-by-field differences of two reports of one round (empty when they agree)."""
    a, b = round_figures(mine), round_figures(theirs)
    found = []
    if a["ended_by"] != b["ended_by"]:
        found.append(
            {"side": None, "field": "ended_by", "this": a["ended_by"], "other": b["ended_by"]}
        )
    for side, (x, y) in enumerate(zip(a["sides"], b["sides"], strict=False)):
        found.extend(
            {"side": side, "field": k, "this": x[k], "other": y[k]}
            for k in SIDE_FIGURES
            if x[k] != y[k]
        )
    return found


def rounds_same_figures(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    return [round_figures(r) for r in a] == [round_figures(r) for r in b]


def rounds_totals(rounds: list[dict[str, Any]]) -> list[int]:
    if not rounds:
        return []
    totals = [0] * len(rounds[0]["sides"])
    for r in rounds:
        for i, side in enumerate(r["sides"]):
            totals[i] += side["score"]
    return totals

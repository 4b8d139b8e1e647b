"""Fitting a move log recorded with other seat numbers onto a table (pure functions).

A log numbers its seats clockwise from its own seat 0, and every turn, deal and dealer follows
that numbering. The same game at a table whose seat 0 sits elsewhere is the log *turned* by a
few places: log seat i is table seat (i + turn) mod n. Only such turns keep the order of play,
so they are the mappings offered; the turned log is then checked like any other (its rules must
still be the event's, and its first dealer the table's).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

# Refusals a mapping can cure: the log's seats are not the table's players in seat order, or
# another seat deals round 1.
MAPPABLE = frozenset({"SEATS_MISMATCH", "DEALER_MISMATCH"})


@dataclass(frozen=True)
class TurnOption:
    turn: int
    players: list[tuple[int, str, str]]  # (log seat from 1, the log's name for it, the player)
    dealer: str  # who deals round 1 under this mapping
    matches_dealer: bool


def can_map(document: Any, players: int) -> bool:
    """A log with as many seats as the table has players, with at least one round."""
    return (
        isinstance(document, dict)
        and isinstance(document.get("seats"), list)
        and len(document["seats"]) == players
        and isinstance(document.get("rounds"), list)
        and bool(document["rounds"])
        and isinstance(document["rounds"][0], dict)
    )


def _first_dealer(document: dict[str, Any]) -> int | None:
    dealer = document["rounds"][0].get("dealer")
    return dealer if isinstance(dealer, int) and not isinstance(dealer, bool) else None


def turn_options(document: dict[str, Any], names: list[str], first_dealer: int) -> list[TurnOption]:
    """Every turn of the table the log could be, the one whose first dealer is the table's first."""
    n = len(names)
    log_seats = [str(s) for s in document.get("seats") or []]
    dealer = _first_dealer(document)
    options = []
    for turn in range(n):
        players = [(i + 1, log_seats[i] if i < len(log_seats) else "", names[(i + turn) % n])
                   for i in range(n)]
        table_dealer = (dealer + turn) % n if dealer is not None and 0 <= dealer < n else None
        options.append(
            TurnOption(
                turn=turn,
                players=players,
                dealer=names[table_dealer] if table_dealer is not None else "",
                matches_dealer=table_dealer == first_dealer,
            )
        )
    options.sort(key=lambda o: not o.matches_dealer)
    return options


def _seat(value: Any, turn: int, n: int) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n:
        return (value + turn) % n
    return value


def _turned_list(values: Any, turn: int) -> Any:
    if not isinstance(values, list) or not values:
        return values
    k = len(values)
    return [values[(j - turn) % k] for j in range(k)]


def _sides(document: dict[str, Any], n: int) -> int:
    play = document.get("play") or ("partnerships" if n in (4, 6) else "individual")
    if play == "individual":
        return n
    sides = document.get("sides", 2)
    return sides if isinstance(sides, int) and sides > 0 else 2


def turned(document: dict[str, Any], turn: int, slugs: list[str]) -> dict[str, Any]:
    """The log renumbered so that log seat i becomes seat (i + turn) mod n, with the table's
    players as its seats: dealers, deals, every event's seat and the reported scores follow."""
    n = len(slugs)
    out = copy.deepcopy(document)
    out["seats"] = list(slugs)
    sides = _sides(document, n)
    for r in out.get("rounds") or []:
        if not isinstance(r, dict):
            continue
        r["dealer"] = _seat(r.get("dealer"), turn, n)
        deal = r.get("deal")
        if isinstance(deal, dict):
            for part in ("hands", "feet"):
                deal[part] = _turned_list(deal.get(part), turn)
        for event in r.get("events") or []:
            if isinstance(event, dict) and "seat" in event:
                event["seat"] = _seat(event["seat"], turn, n)
        if isinstance(r.get("reported"), list) and len(r["reported"]) == sides:
            r["reported"] = _turned_list(r["reported"], turn % sides)
    return out

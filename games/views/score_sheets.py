"""Printable score sheets, one per table of a rotation, for a table that keeps its score on
paper: names by side (sides from 1), the dealer and minimum meld of each round, the books needed
to go out, and a box for every figure the event's rules score (`handfoot.rules.parts_scored`).
Names are the players' full names, for the room, unless the director asks for the names players
chose for public pages (`?names=public`). The director prints them from the rotation's table
cards; a finished sheet is entered at the game's result page (paper entry)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render

from games.services import event_rules
from handfoot.rules import BookCounts, RuleSet, parts_scored
from league import selectors as league_selectors
from league.models import Event
from league.names import room_names
from league.permissions import check_directs_event


def figure_boxes(rules: RuleSet) -> list[str]:
    """The boxes of each round and side: each part these rules score, in the order a table's
    sheet asks for them, then the round's total."""
    return [part.words for part in parts_scored(rules)] + ["Round total"]


@dataclass
class SheetRound:
    number: int
    dealer: str
    minimum_meld: int


@dataclass
class ScoreSheet:
    table: int
    sides: list[tuple[int, list[str]]]  # (side number from 1, its players)
    rounds: list[SheetRound]


def books_words(books: BookCounts) -> str:
    """ "2 clean, 2 dirty and 1 wild book(s)"."""
    parts = [
        f"{n} {kind}"
        for n, kind in ((books.clean, "clean"), (books.dirty, "dirty"), (books.wild, "wild"))
        if n
    ]
    if not parts:
        return "no books"
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return said + (" book" if books.total() == 1 else " books")


def _sheet(table: league_selectors.TableView, rounds: int, meld: Any, *, public: bool) -> ScoreSheet:
    seats = table.seats
    first = next(
        (s.seat_number for s in seats if s.deals_first), seats[0].seat_number if seats else 0
    )
    order = [s.seat_number for s in seats]
    def name(player: Any) -> str:
        return str(player.shown_name if public else player.name)

    names = {s.seat_number: name(s.player) for s in seats}
    start = order.index(first) if first in order else 0
    return ScoreSheet(
        table=table.number,
        sides=[
            (n, [name(p) for p in players])
            for n, players in enumerate(table.sides, start=1)
        ],
        # The deal passes one seat clockwise each round.
        rounds=[
            SheetRound(r, names[order[(start + r - 1) % len(order)]] if order else "", meld(r))
            for r in range(1, rounds + 1)
        ],
    )


@login_required
def score_sheets(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    check_directs_event(request.user, event)
    raw = request.GET.get("rotation", "").strip()
    if raw and not (raw.isascii() and raw.isdigit() and len(raw) < 6):
        return HttpResponseBadRequest(
            "Rotation must be a rotation number such as 1.",
            content_type="text/plain; charset=utf-8",
        )
    rotations = {r.number: r for r in event.rotations.all()}
    if not rotations:
        raise Http404("This event has no rotations yet.")
    number = int(raw) if raw else max(rotations)
    if number not in rotations:
        raise Http404(f"This event has no rotation {number}.")
    rotation = rotations[number]
    rules = event_rules(event=event)
    plan = league_selectors.rotation_plan(rotation=rotation)
    names = room_names(request.GET.get("names"))
    sheets = [_sheet(t, rules.rounds, rules.meld_minimum, public=names == "public")
              for t in plan.tables if t.seats]
    return render(
        request,
        "games/score_sheets.html",
        {
            "event": event,
            "rotation": rotation,
            "sheets": sheets,
            "boxes": figure_boxes(rules),
            "names": names,
            "books_to_go_out": books_words(rules.books_to_go_out),
        },
    )

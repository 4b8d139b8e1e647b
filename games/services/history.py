"""The event's history of results: every sheet or log entered (by a side at the table, a
scorer, or the director typing a paper sheet), every confirmation, dispute decision and
correction, in words, through the league's one audit helper (`league.services.audit`).

Undo from the history is `games.services.history_undo` (a module of its own: undoing an entry
withdraws it, and withdrawing records here).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games import selectors
from games.models import ResultVersion, Submission
from games.services.entrants import Entrant
from league.models import AuditEntry, Game
from league.services.audit import audit_entry

ENTER_ACTION = "result_enter"


def _where(game: Game) -> str:
    return f"rotation {game.table.rotation.number}, table {game.table.number}"


def _who(
    game: Game, entrant: Entrant, sides: list[selectors.SideSeats] | None = None
) -> tuple[User | None, str]:
    """The audit line's user, or (a side's table link) its words."""
    user = (
        entrant.account
        if entrant.account is not None and entrant.account.is_authenticated
        else None
    )
    if user is not None:
        return user, ""
    label = selectors.entrant_label(game=game, entrant=entrant.key, sides=sides)
    return None, f"{label}, by its table link"


def figures_words(
    game: Game, totals: list[int], sides: list[selectors.SideSeats] | None = None
) -> str:
    """ "Side 1 (Ann & Ben) 1,230, Side 2 (Cy & Di) 990" (`sides`: the game's, when read)."""
    labels = {
        s.side: s.label for s in (selectors.game_sides(game=game) if sides is None else sides)
    }
    return ", ".join(
        f"side {i + 1}" + (f" ({labels[i]})" if labels.get(i) else "") + f" {total:,}"
        for i, total in enumerate(totals)
    )


def _line(
    game: Game,
    entrant: Entrant,
    action: str,
    summary: str,
    data: dict[str, Any],
    sides: list[selectors.SideSeats] | None = None,
) -> AuditEntry:
    user, who = _who(game, entrant, sides)
    return _game_line(game, user, action, summary, data, who=who)


def game_record(
    *, game: Game, user: User | None, action: str, summary: str, data: dict[str, Any]
) -> AuditEntry:
    """A History line about `game` by a director (a paper sheet typed in, a withdrawal or its
    undo), kept inside the caller's transaction."""
    entry = _game_line(game, user, action, summary, data)
    entry.save(force_insert=True)
    return entry


def _game_line(
    game: Game, user: User | None, action: str, summary: str, data: dict[str, Any], who: str = ""
) -> AuditEntry:
    """An unsaved History line about `game`: on its event, with `game_id` in its data."""
    event = game.table.rotation.event
    return audit_entry(
        club=event.club,
        event=event,
        user=user,
        who=who,
        action=action,
        summary=summary,
        data={"game_id": game.pk, **data},
    )


def _outcome(game: Game) -> str:
    """The entry's outcome, from the status the entry's rebuild left on the locked game row
    (`game` is that row, read with its lock and kept up to date: no read again)."""
    outcomes: dict[str, str] = {
        Game.Status.CONFIRMED: " Both sides agree: the result is confirmed.",
        Game.Status.DISPUTED: " The figures differ from the other side's: disputed.",
    }
    return outcomes.get(game.status, "")


def entry_line(
    *,
    game: Game,
    submission: Submission,
    entrant: Entrant,
    sides: list[selectors.SideSeats] | None = None,
) -> AuditEntry:
    """The line of one sheet or log entered, unsaved: the intake keeps its batch's lines in one
    go (build it after the entry is rebuilt, keep it in its transaction; `sides`: the game's,
    as the request read them)."""
    what = (
        f"the round {submission.round_number} score sheet"
        if submission.kind == Submission.Kind.SHEET
        else "a move log"
    )
    typed = " (typed by the director)" if entrant.director else ""
    totals = [side["score"] for r in submission.report["rounds"] for side in r["sides"]]
    figures = ""
    if submission.kind == Submission.Kind.SHEET and totals:
        figures = f": {figures_words(game, totals, sides)}"
    return _line(
        game,
        entrant,
        ENTER_ACTION,
        f"Entered {what} at {_where(game)}{typed}{figures}.{_outcome(game)}",
        {"submission_id": submission.pk},
        sides,
    )


def confirm_record(
    *,
    game: Game,
    version: ResultVersion,
    entrant: Entrant,
    was_disputed: bool,
    others: list[ResultVersion],
    reason: str = "",
    sides: list[selectors.SideSeats] | None = None,
) -> None:
    """A confirmation, or a director's decision of a dispute (both sides' figures named, and
    the director's reason when one is given; `sides`: the game's, as the request read them)."""
    sides = selectors.game_sides(game=game) if sides is None else sides
    mine = figures_words(game, version.totals, sides)
    by = selectors.entrant_label(game=game, entrant=version.entered_by, sides=sides)
    if was_disputed and entrant.director:
        against = "; ".join(
            f"{selectors.entrant_label(game=game, entrant=v.entered_by, sides=sides)} had "
            f"{figures_words(game, v.totals, sides)}"
            for v in others
        )
        # The reason first: a summary is kept to 300 characters.
        why = f" ({reason})" if reason else ""
        summary = (
            f"Decided the dispute at {_where(game)}{why}: the figures of {by} count "
            f"({mine}); {against or 'no other figures'}."
        )
        action = "result_decide"
    else:
        summary = f"Confirmed the result at {_where(game)} entered by {by}: {mine}."
        action = "result_confirm"
    data: dict[str, Any] = {"version": version.number}
    if reason:
        data["reason"] = reason
    _line(game, entrant, action, summary, data, sides).save(force_insert=True)


def correction_record(
    *, game: Game, version: ResultVersion, entrant: Entrant, before: ResultVersion | None
) -> None:
    sides = selectors.game_sides(game=game)
    was = f" (was {figures_words(game, before.totals, sides)})" if before is not None else ""
    _line(
        game,
        entrant,
        "result_correct",
        f"Corrected the result at {_where(game)}: {figures_words(game, version.totals, sides)}"
        f"{was}. Reason: {version.reason}",
        {"version": version.number},
        sides,
    ).save(force_insert=True)


def dispute_record(
    *, game: Game, version: ResultVersion, entrant: Entrant, reason: str
) -> AuditEntry:
    """A side disputes the confirmed result (games.services.disputes): the reason first (a
    summary is kept to 300 characters), the whole of it in the line's data."""
    entry = _line(
        game,
        entrant,
        selectors.DISPUTE_ACTION,
        f"Disputed the confirmed result at {_where(game)} "
        f"({figures_words(game, version.totals)}): {reason}",
        {"version": version.number, "side": entrant.side, "reason": reason},
    )
    entry.save(force_insert=True)
    return entry

"""Which of an event's games a move log of a bulk import is for (`games.services.bulk_import`).

`EventGames` reads the event's games with their tables (seats, players, parsed rules) once per
import. A log names its game by a top-level "game" hint (its id or one of its sides' codes,
`hint_codes` reads the codes a batch names in one query), else by its `seats` in order (player
slugs); among several games with those seats, the one still waiting for a result. A log whose
game cannot be told is refused (`LogRefused`, with the words a page shows).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from games import selectors
from games.selectors import GameTable
from league.models import Event, Game, Seat, SideCredential
from league.services.credentials import code_normalise


class LogRefused(Exception):
    """A log whose game cannot be told: the message for the command line, `words` for a page
    (without codes or identifiers)."""

    def __init__(self, message: str, words: str) -> None:
        super().__init__(message)
        self.words = words


def import_key(game_id: int, raw: bytes) -> str:
    """A log's idempotency key: its game and the file's SHA-256 (a file imported again is
    recognised and changes nothing)."""
    return f"import:{game_id}:{hashlib.sha256(raw).hexdigest()}"


def seats_key(seats: Any) -> tuple[str, ...] | None:
    """A log's `seats` (player slugs in seat order) as the key its game is found by."""
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        return None
    return tuple(seats)


class EventGames:
    """The event's games with their tables (seats, players, parsed rules), read once."""

    def __init__(self, event: Event) -> None:
        self.event = event
        rules = selectors.event_rules(event=event)
        seats: dict[int, list[Seat]] = {}
        for seat in Seat.objects.filter(table__rotation__event=event).select_related("player"):
            seats.setdefault(seat.table_id, []).append(seat)
        self.games: dict[int, Game] = {}
        self.tables: dict[int, GameTable] = {}
        self.by_seats: dict[tuple[str, ...], list[Game]] = {}
        for game in selectors.event_games(event=event):
            order = tuple(sorted(seats.get(game.table_id, []), key=lambda s: s.seat_number))
            self.games[game.pk] = game
            self.tables[game.pk] = selectors.game_table_of(game=game, seats=order, event=event,
                                                           rules=rules)
            self.by_seats.setdefault(tuple(s.player.slug for s in order), []).append(game)

    def game_for(self, document: dict[str, Any], codes: dict[str, int]) -> Game:
        """The game a log names (`codes`: the side codes its batch names → their games)."""
        hint = document.get("game")
        if hint is not None:
            return self._game_hinted(hint, codes)
        return self._game_seated(document.get("seats"))

    def _game_hinted(self, hint: Any, codes: dict[str, int]) -> Game:
        if type(hint) is int:  # not a bool: `true` names no game
            game = self.games.get(hint)
        else:
            code = code_normalise(str(hint))
            game = self.games.get(codes[code]) if code in codes else None
        if game is None:
            raise LogRefused(f"the event has no game {hint!r} (the log's `game` hint).",
                             f"This night has no game or table code “{str(hint)[:40]}” "
                             "(the game the file names).")
        return game

    def _game_seated(self, seats: Any) -> Game:
        key = seats_key(seats)
        candidates = self.by_seats.get(key) if key is not None else None
        if not candidates:
            raise LogRefused(
                f"no table of {self.event.slug} seats {seats!r} in this order; add a `game` "
                "hint (game id or table code) or check the player identifiers.",
                "No table of this night seats the file's players in this order: add the "
                "table's code to the file as its game, or check the players.",
            )
        waiting = [g for g in candidates if g.status != Game.Status.CONFIRMED]
        if len(candidates) > 1 and len(waiting) != 1:
            raise LogRefused(
                f"{len(candidates)} games seat these players in this order; add a `game` hint.",
                f"{len(candidates)} games of this night seat these players in this order: add "
                "the table's code to the file as its game.",
            )
        return waiting[0] if len(candidates) > 1 else candidates[0]


def hint_codes(documents: Iterable[dict[str, Any]], event: Event) -> dict[str, int]:
    """The side codes the logs' hints name → their games (one query, none without codes)."""
    codes = {
        code_normalise(str(hint))
        for document in documents
        if (hint := document.get("game")) is not None and type(hint) is not int
    }
    codes.discard(None)
    if not codes:
        return {}
    return dict(
        SideCredential.objects.filter(
            code__in=codes, game__table__rotation__event=event
        ).values_list("code", "game_id")
    )

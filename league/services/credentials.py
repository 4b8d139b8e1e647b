"""Each side's own entry link and short code for a game (`SideCredential`): the credential a
side enters and confirms with (who may do what with it: `games.services.entrant_for`).

Created for every side of a game's seating when first needed (the table cards, the entry
pages), so every way a game comes to exist gets them without knowing about them.
"""

import re
from collections.abc import Iterable

from league.models import CODE_ALPHABET, Game, Seat, SideCredential

# What a typed code may be before it is cleaned (spaces, dashes, dots as printed or added).
TYPED_CODE_MAX = 20
CODE_LENGTHS = range(6, 9)
_SEPARATORS = re.compile(r"[\s\-\u2010-\u2015.·_/]+")


def printed_code(code: str) -> str:
    """A side code as the slip and the director's screen print it: in two groups with a dash
    (``ABC-2345``), easier to read out and type than seven letters in a row."""
    cut = len(code) // 2
    return f"{code[:cut]}-{code[cut:]}"


def code_normalise(typed: str) -> str | None:
    """A code as typed at /play/ (small letters, dashes, spaces as printed) in its stored form,
    or None when it cannot be a code (too long, wrong letters or length)."""
    if not isinstance(typed, str) or len(typed) > TYPED_CODE_MAX:
        return None
    code = _SEPARATORS.sub("", typed).upper()
    if len(code) not in CODE_LENGTHS or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def _sides_by_game(games: list[Game]) -> dict[int, list[int]]:
    table_game = {game.table_id: game.pk for game in games}
    sides: dict[int, set[int]] = {game.pk: set() for game in games}
    for table_id, side in Seat.objects.filter(table_id__in=table_game).values_list(
        "table_id", "side"
    ):
        sides[table_game[table_id]].add(side)
    return {game_id: sorted(found) for game_id, found in sides.items()}


def _existing(games: list[Game]) -> dict[tuple[int, int], SideCredential]:
    return {
        (c.game_id, c.side): c for c in SideCredential.objects.filter(game__in=[g.pk for g in games])
    }


def side_credentials_ensure(*, games: Iterable[Game]) -> dict[int, list[SideCredential]]:
    """Per game id, its credentials, one per side of its seating in side order; the missing
    ones are created (a constant number of queries for any number of games)."""
    games = list(games)
    sides = _sides_by_game(games)
    have = _existing(games)
    missing = [
        SideCredential(game_id=game_id, side=side)
        for game_id, numbers in sides.items()
        for side in numbers
        if (game_id, side) not in have
    ]
    if missing:
        # Two requests at once (two directors printing cards) may both create: keep the first.
        SideCredential.objects.bulk_create(missing, ignore_conflicts=True)
        have = _existing(games)
    return {
        game_id: [have[(game_id, side)] for side in numbers] for game_id, numbers in sides.items()
    }


def game_side_credentials(*, game: Game) -> list[SideCredential]:
    """One game's credentials, one per side (created when missing)."""
    return side_credentials_ensure(games=[game])[game.pk]

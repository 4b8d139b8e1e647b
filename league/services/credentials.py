"""Each side's own entry link and short code for a game (`SideCredential`): the credential a
side enters and confirms with (who may do what with it: `games.services.entrant_for`).

Created for every side of a game's seating when first needed (the table cards, the entry
pages), so every way a game comes to exist gets them without knowing about them.
"""

from collections.abc import Iterable

from league.models import Game, Seat, SideCredential


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

"""How many tables of which size, and how many sit out, for a number of players."""

from __future__ import annotations

from .types import SeatingError, SeatingRequest


def uses_six(request: SeatingRequest) -> bool:
    return request.table_size == 6 or request.odd_handling == "table_of_six"


def rotating_shape(n: int, request: SeatingRequest) -> tuple[list[int], int]:
    """(table sizes, number of sit-outs) for ``n`` individual players.

    Tables of 4; with tables of six, as few tables of six as needed so nobody sits out when
    ``n`` is even (one sits out when ``n`` is odd, since 4a + 6b is always even).
    """
    if n < 4:
        raise SeatingError(f"At least 4 players are needed to seat a rotation, not {n}.")
    if not uses_six(request):
        return [4] * (n // 4), n % 4
    sit = n % 2
    sixes = 1 if (n - sit) % 4 == 2 else 0
    return [6] * sixes + [4] * ((n - sit - 6 * sixes) // 4), sit


def split_sides(members: list[int], size: int, six_sides: int) -> tuple[tuple[int, ...], ...]:
    """Split a table's members (consecutive per side) into its sides."""
    n_sides = 2 if size == 4 else six_sides
    per = size // n_sides
    return tuple(tuple(members[k * per : (k + 1) * per]) for k in range(n_sides))

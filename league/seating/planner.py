"""Entry point: dispatch a SeatingRequest to the format's planner."""

from __future__ import annotations

from .types import RotationPlan, SeatingError, SeatingRequest, TablePlan


def plan_rotations(request: SeatingRequest) -> list[RotationPlan]:
    """Plans rotations len(played)+1 .. rotations. Swiss and progressive depend on results,
    so for them only the NEXT rotation is planned (a list of one)."""
    players = list(request.players)
    if len(players) < 4:
        raise SeatingError("At least 4 players are needed.")
    out = []
    for _ in range(len(request.played), request.rotations):
        n = len(players) // 4 * 4
        tables = tuple(
            TablePlan(tuple(players[i : i + 4]), (tuple(players[i : i + 4 : 2]),
                      tuple(players[i + 1 : i + 4 : 2])), players[i])
            for i in range(0, n, 4)
        )
        out.append(RotationPlan(tables, tuple(players[n:])))
    return out

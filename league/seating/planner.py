"""Entry point: check a SeatingRequest and dispatch it to the format's planner."""

from __future__ import annotations

from .fixed import plan_progressive, plan_round_robin, plan_swiss
from .rotating import plan_rotating
from .types import FORMATS, ODD_HANDLING, SIT_OUT_RULES, RotationPlan, SeatingError, SeatingRequest

_PLANNERS = {
    "rotating": plan_rotating,
    "swiss": plan_swiss,
    "round_robin": plan_round_robin,
    "progressive": plan_progressive,
}


def plan_rotations(request: SeatingRequest) -> list[RotationPlan]:
    """Plans rotations len(played)+1 .. rotations. Swiss and progressive depend on results,
    so for them only the NEXT rotation is planned (a list of one)."""
    check_request(request)
    return _PLANNERS[request.format](request)


def check_request(request: SeatingRequest) -> None:
    if request.format not in FORMATS:
        raise SeatingError(
            f"Unknown format {request.format!r}: choose one of {', '.join(FORMATS)}."
        )
    if request.rotations < 1:
        raise SeatingError("An event needs at least one rotation.")
    if request.table_size not in (4, 6):
        raise SeatingError(f"Tables seat 4 or 6 players, not {request.table_size}.")
    if request.six_sides not in (2, 3):
        raise SeatingError("A table of six has 2 sides of three or 3 sides of two.")
    if request.odd_handling not in ODD_HANDLING:
        raise SeatingError(
            f"Unknown odd handling {request.odd_handling!r}: choose sit_out or table_of_six."
        )
    if request.sit_out_rule not in SIT_OUT_RULES:
        raise SeatingError(
            f"Unknown sit-out rule {request.sit_out_rule!r}: choose one of {', '.join(SIT_OUT_RULES)}."
        )
    if len(request.played) > request.rotations:
        raise SeatingError("More rotations have been played than the event has.")
    if request.points and len(request.points) != len(request.played):
        raise SeatingError("Results (points) must be given for every played rotation.")

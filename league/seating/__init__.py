"""Seating generator for Hand and Foot events: a pure Python package (no Django imports).

Public API (a contract for the league services):

* :class:`TablePlan`, :class:`RotationPlan`, :class:`SeatingRequest` - frozen dataclasses;
* :class:`SeatingError` - raised with a plain-words message;
* :func:`plan_rotations` - plan the remaining rotations of an event;
* :func:`validate_rotation` - check a (possibly hand-edited) rotation;
* :func:`quality_report` - partner repeats, opponent spread, sit-outs and deals.

See ``docs/seating.md`` for the constructions and the choices made.
"""

from __future__ import annotations

from .planner import plan_rotations
from .report import quality_report
from .types import RotationPlan, SeatingError, SeatingRequest, TablePlan
from .validate import validate_rotation

__all__ = [
    "RotationPlan",
    "SeatingError",
    "SeatingRequest",
    "TablePlan",
    "plan_rotations",
    "quality_report",
    "validate_rotation",
]

"""Seating generator for Hand and Foot events: a pure Python package (no Django imports).

Public API (a contract for the league services):

* :class:`TablePlan`, :class:`RotationPlan`, :class:`SeatingRequest` - frozen dataclasses;
* :class:`SeatingError` - raised with a plain-words message;
* :func:`plan_rotations` - plan the remaining rotations of an event;
* :func:`validate_rotation` - check a (possibly hand-edited) rotation;
* :func:`quality_report` - partner repeats, opponent spread, sit-outs and deals;
* :class:`Wish`, :func:`wish_outcomes` - seating wishes and whether a seating kept them.

See ``docs/seating.md`` for the constructions and the choices made.
"""

from __future__ import annotations

from .planner import plan_rotations
from .report import quality_report
from .types import WISH_KINDS, RotationPlan, SeatingError, SeatingRequest, TablePlan, Wish
from .validate import validate_rotation
from .wishes import WishOutcome, wish_outcomes, wish_words

__all__ = [
    "RotationPlan",
    "SeatingError",
    "SeatingRequest",
    "TablePlan",
    "WISH_KINDS",
    "Wish",
    "WishOutcome",
    "plan_rotations",
    "quality_report",
    "validate_rotation",
    "wish_outcomes",
    "wish_words",
]

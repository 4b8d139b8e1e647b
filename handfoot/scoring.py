"""Scoring a side from its parts (used by replay, by score sheets and by the what-if): the
entered parts as given, each worked-out part as the rules pay it (`rules.SCORE_PARTS`)."""

from __future__ import annotations

from .report import SideScore
from .rules import ENTERED_PARTS, WORKED_OUT_PARTS, RuleSet

_ENTERED_DEFAULTS = {part.name: part.default for part in ENTERED_PARTS}


def side_score(rules: RuleSet, **entered: int) -> SideScore:
    """A side's round score with its parts, from the parts a scorer writes (by name; one left
    out is no or 0). `red_threes` are laid red 3s (scored only under lay)."""
    unknown = entered.keys() - _ENTERED_DEFAULTS.keys()
    if unknown:
        raise TypeError(f"side_score() got parts that are not entered: {sorted(unknown)}")
    parts = {**_ENTERED_DEFAULTS, **entered}
    for part in WORKED_OUT_PARTS:
        parts[part.name] = parts[part.counts] * part.pays(rules)
    return SideScore(**parts)

"""Hand and Foot rules engine: pure Python, no Django."""

from .errors import EngineError, ErrorCode
from .report import GameReport, RoundReport, SeatFacts, SideScore
from .rules import PRESETS, BookCounts, RuleSet, rules_from_spec, rules_to_dict, rules_to_spec
from .scoring import side_score

__all__ = [
    "PRESETS",
    "BookCounts",
    "EngineError",
    "ErrorCode",
    "GameReport",
    "RoundReport",
    "RuleSet",
    "SeatFacts",
    "SideScore",
    "rules_from_spec",
    "rules_to_dict",
    "rules_to_spec",
    "side_score",
]

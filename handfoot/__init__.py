"""Hand and Foot rules engine: pure Python, no Django."""

from .errors import EngineError, ErrorCode
from .legal import legal_moves
from .moves import AskGoOut, Discard, Draw, Meld, MeldItem, Pickup, apply_move, move_from_event
from .replay import replay_log
from .report import GameReport, RoundReport, SeatFacts, SideScore
from .rules import (
    PRESETS,
    BookCounts,
    ParameterInfo,
    ParamKind,
    RuleSet,
    rule_parameters,
    rules_from_spec,
    rules_to_dict,
    rules_to_spec,
)
from .scoring import side_score
from .simulate import simulate_game
from .state import State

__all__ = [
    "AskGoOut",
    "Discard",
    "Draw",
    "Meld",
    "MeldItem",
    "Pickup",
    "State",
    "apply_move",
    "legal_moves",
    "simulate_game",
    "move_from_event",
    "replay_log",
    "PRESETS",
    "BookCounts",
    "EngineError",
    "ErrorCode",
    "GameReport",
    "RoundReport",
    "ParameterInfo",
    "ParamKind",
    "RuleSet",
    "rule_parameters",
    "SeatFacts",
    "SideScore",
    "rules_from_spec",
    "rules_to_dict",
    "rules_to_spec",
    "side_score",
]

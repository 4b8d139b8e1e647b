"""Hand and Foot rules engine: pure Python, no Django.

The names below are imported on first use (PEP 562), so that a command such as
`python -m handfoot check` loads only the modules it needs."""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Any

    from .errors import EngineError, ErrorCode
    from .legal import legal_moves
    from .moves import (
        AskGoOut,
        Discard,
        Draw,
        Meld,
        MeldItem,
        Pickup,
        apply_move,
        move_allowed,
        move_from_event,
    )
    from .parameters import ParameterInfo, rule_parameters
    from .replay import replay_log
    from .report import GameReport, RoundReport, SeatFacts, SideScore
    from .rules import (
        PRESETS,
        BookCounts,
        ParamKind,
        RuleSet,
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
    "move_allowed",
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

_HOME = {
    **dict.fromkeys(("EngineError", "ErrorCode"), "errors"),
    "legal_moves": "legal",
    **dict.fromkeys(("AskGoOut", "Discard", "Draw", "Meld", "MeldItem", "Pickup", "apply_move",
                     "move_allowed", "move_from_event"), "moves"),
    "replay_log": "replay",
    **dict.fromkeys(("GameReport", "RoundReport", "SeatFacts", "SideScore"), "report"),
    **dict.fromkeys(("ParameterInfo", "rule_parameters"), "parameters"),
    **dict.fromkeys(("PRESETS", "BookCounts", "ParamKind", "RuleSet", "rules_from_spec",
                     "rules_to_dict", "rules_to_spec"), "rules"),
    "side_score": "scoring",
    "simulate_game": "simulate",
    "State": "state",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value

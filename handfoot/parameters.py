"""House rules as forms, documents and schemas see them.

`rule_parameters(preset)` (one `ParameterInfo` per house rule, with the preset's values) and
`overrides_schema()` (the `overrides` part of the published JSON Schemas), built from the table
of house rules (`rules.parameter_table`: the metadata of `rules.RuleSet`'s fields and the words
of the word parameters). Builds on `rules` and `overrides`, neither of which imports it; the
names a caller needs of `overrides` (`ParameterInfo`, the word types) are given here too.
"""

from __future__ import annotations

from dataclasses import replace

from .overrides import UPCARD_WORDS as UPCARD_WORDS
from .overrides import BookGrowth as BookGrowth
from .overrides import ParameterInfo as ParameterInfo
from .overrides import PartnerCondition as PartnerCondition
from .overrides import PickupRequires as PickupRequires
from .overrides import RedThrees as RedThrees
from .overrides import UpcardWord as UpcardWord
from .overrides import WildRatio as WildRatio
from .overrides import WildUpcard as WildUpcard
from .rules import PLAYERS_PLUS_ONE, N, RuleSet, _json_value, parameter_table, rules_from_spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


# ----- parameter metadata -------------------------------------------------------------------


def rule_parameters(preset: str | RuleSet = "classic") -> list[ParameterInfo]:
    """Every house rule a club may override, in rules.md order, with `value` taken from
    `preset` (a preset name or a RuleSet). BAD_RULES for an unknown preset name."""
    rules = rules_from_spec(preset)
    return [
        replace(info, value=_json_value(name, getattr(rules, name)))
        for name, info in parameter_table().items()
    ]


def rule_parameter(name: str) -> ParameterInfo:
    """One house rule's metadata (value from classic); KeyError if `name` is not one."""
    return parameter_table()[name]


# ----- the JSON Schema of the overrides ------------------------------------------------------


def _number_schema(lo: int | None, hi: int | None) -> dict[str, Any]:
    return {"type": "integer", "minimum": lo, "maximum": hi}


def _parameter_schema(p: ParameterInfo) -> dict[str, Any]:
    kind = p.kind
    if kind is N.NUMBER:
        schema = _number_schema(p.minimum, p.maximum)
    elif kind is N.NUMBER_OR_NONE:
        schema = {"type": ["integer", "null"], "minimum": p.minimum, "maximum": p.maximum}
    elif kind is N.DECKS:
        schema = {"oneOf": [_number_schema(p.minimum, p.maximum), {"const": PLAYERS_PLUS_ONE}]}
    elif kind is N.WORD:
        schema = {"enum": list(p.words)}
    elif kind is N.YES_NO:
        schema = {"type": "boolean"}
    elif kind is N.NUMBER_LIST:
        schema = {
            "type": "array",
            "items": _number_schema(p.minimum, p.maximum),
            "minItems": p.min_items,
            "maxItems": p.max_items,
        }
    elif kind is N.WORD_SET:
        schema = {"type": "array", "items": {"enum": list(p.words)}, "uniqueItems": True}
    else:  # BOOK_COUNTS
        schema = {
            "type": "object",
            "required": list(p.parts),
            "additionalProperties": False,
            "properties": {k: _number_schema(p.minimum, p.maximum) for k in p.parts},
        }
    return {"description": f"{p.description} Range: {p.range_text}.", **schema}


def overrides_schema() -> dict[str, Any]:
    """The `overrides` object of the published JSON Schemas, built from the RuleSet fields."""
    return {
        "type": "object",
        "additionalProperties": False,
        "description": "House rules: parameters of rules.md, each within its range.",
        "properties": {p.name: _parameter_schema(p) for p in parameter_table().values()},
    }

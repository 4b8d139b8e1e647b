"""JSON Schemas (draft 2020-12) of the two public formats, and fast structural checks.

`move_log.schema.json` and `score_sheet.schema.json` describe the formats of formats.md
exactly; they are published for clients and shipped in the package.

`validate_log_structure` and `validate_sheet_structure` check a document against them with a
compiled, cached `Draft202012Validator` and turn the first problem into a BAD_FORMAT
`EngineError` whose message names the path of the bad field. Two parts are left out of these
run-time checks on purpose:

- `rules` is only checked to be a name or an object: the rule-set code (`rules_from_spec`) is
  the one judge of presets and house rules and answers BAD_RULES, not BAD_FORMAT.
- For move logs, the cards and the events themselves are left to the engine, which reads every
  card and event anyway and reports a bad one as BAD_FORMAT at its round and event. Checking
  each card through jsonschema costs about 30 times a `json.loads` of the log, several times
  the whole replay; the header and the rounds' structure cost about as much as the `json.loads`.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from ..errors import EngineError, ErrorCode
from ..formats import LOG_FORMAT, SHEET_FORMAT
from ..rules import overrides_schema

_FILES = {
    "move_log": "move_log.schema.json",
    "score_sheet": "score_sheet.schema.json",
}
_ALIASES = {
    "log": "move_log",
    "sheet": "score_sheet",
    "move_log.schema.json": "move_log",
    "score_sheet.schema.json": "score_sheet",
}



def _key(name: str) -> str:
    key = _ALIASES.get(name, name)
    if key not in _FILES:
        raise KeyError(f"unknown schema {name!r}; known: {', '.join(_FILES)}")
    return key


def _file(key: str) -> Any:
    return resources.files(__name__).joinpath(_FILES[key])


def build_schema(name: str) -> dict[str, Any]:
    """The schema file with its house-rule part (`$defs.overrides`) built from `RuleSet`, the
    one source of the parameters, their ranges and descriptions."""
    schema = json.loads(_file(_key(name)).read_text(encoding="utf-8"))
    schema["$defs"]["overrides"] = overrides_schema()
    return schema


def schema_text(name: str) -> str:
    """The published schema as the file holds it (and `write_schemas` writes it)."""
    return json.dumps(build_schema(name), indent=2, ensure_ascii=False) + "\n"


@cache
def _schema_text(name: str) -> str:
    return schema_text(_key(name))


def load_schema(name: str) -> dict[str, Any]:
    """The published schema `move_log` or `score_sheet` (a fresh copy each call)."""
    return json.loads(_schema_text(name))


def write_schemas() -> list[str]:
    """Rewrite the shipped schema files from `build_schema` (after a RuleSet change);
    `python -m games.engine.schemas` runs it. Returns the files written."""
    written = []
    for key in _FILES:
        path = _file(key)
        path.write_text(schema_text(key), encoding="utf-8")  # type: ignore[attr-defined]
        written.append(str(path))
    return written


_LOOSE_RULES = {"type": ["string", "object"]}


@cache
def _log_validator() -> Draft202012Validator:
    schema = load_schema("move_log")
    defs = schema["$defs"]
    defs["rules"] = _LOOSE_RULES
    rnd = copy.deepcopy(defs["round"])
    deal = copy.deepcopy(defs["deal"])
    for key in deal["properties"]:
        deal["properties"][key] = {"type": "array"}
    rnd["properties"]["deal"] = deal
    rnd["properties"]["events"] = {"type": "array"}
    schema["properties"]["rounds"]["items"] = rnd  # inline: no $ref lookup per round
    schema["properties"]["rules"] = _LOOSE_RULES
    return Draft202012Validator(schema)


@cache
def _sheet_validator() -> Draft202012Validator:
    schema = load_schema("score_sheet")
    schema["properties"]["rules"] = _LOOSE_RULES
    return Draft202012Validator(schema)


@cache
def full_validator(name: str) -> Draft202012Validator:
    """A validator of the complete published schema (for tests and tools; slower)."""
    return Draft202012Validator(load_schema(name))


# --- turning a jsonschema error into a plain message

_TYPE_WORDS = {
    "object": "an object",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def format_path(path: Any) -> str:
    """('rounds', 0, 'events', 3, 'card') -> 'rounds[0].events[3].card'."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "the document"


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _message(err: ValidationError) -> str:
    where = format_path(err.absolute_path)
    kind = err.validator
    value = err.validator_value
    inst = err.instance
    if kind == "required":
        missing = [k for k in value if isinstance(inst, dict) and k not in inst]
        name = missing[0] if missing else value[0]
        return f"{where} is missing the field {name!r}" if where != "the document" else (
            f"the document is missing the field {name!r}"
        )
    if kind == "additionalProperties":
        allowed = set(err.schema.get("properties", {}))
        extra = sorted(k for k in inst if k not in allowed) if isinstance(inst, dict) else []
        return f"{where} has an unknown field {', '.join(map(repr, extra)) or ''}".rstrip()
    if kind == "const" and err.absolute_path and err.absolute_path[-1] == "format":
        return f"unknown format {_short(inst)}; expected {value!r}"
    if kind == "const":
        return f"{where} must be {_short(value)}, not {_short(inst)}"
    if kind == "type":
        types = value if isinstance(value, list) else [value]
        want = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        return f"{where} should be {want}, not {_json_type(inst)}"
    if kind == "enum":
        return f"{where} must be one of {', '.join(map(_short, value))}, not {_short(inst)}"
    if kind == "pattern":
        return f"{where}: {_short(inst)} is not a card (cards look like 'KH', 'TD', '10D' or 'JK')"
    if kind == "minimum":
        return f"{where} must be at least {value}, not {_short(inst)}"
    if kind == "multipleOf":
        return f"{where} must be a multiple of {value} (every card is), not {_short(inst)}"
    if kind == "minItems":
        return f"{where} needs at least {value} entr{'y' if value == 1 else 'ies'}"
    return f"{where}: {err.message}"


def _locate(doc: Any, path: Any) -> tuple[int | None, int | None]:
    """(round number, event index) of a path inside a move log, when it points into one."""
    parts = list(path)
    if len(parts) < 2 or parts[0] != "rounds" or not isinstance(parts[1], int):
        return None, None
    i = parts[1]
    number: int | None = i + 1
    try:
        given = doc["rounds"][i]["round"]
        if isinstance(given, int) and not isinstance(given, bool):
            number = given
    except (KeyError, IndexError, TypeError):
        pass
    event = parts[3] if len(parts) >= 4 and parts[2] == "events" and isinstance(parts[3], int) else None
    return number, event


def to_engine_error(doc: Any, err: ValidationError, *, sheet: bool = False) -> EngineError:
    """A BAD_FORMAT EngineError for one jsonschema error (path in the message)."""
    if sheet:
        rnd = doc.get("round") if isinstance(doc, dict) else None
        round_no = rnd if isinstance(rnd, int) and not isinstance(rnd, bool) and rnd >= 1 else None
        return EngineError(ErrorCode.BAD_FORMAT, _message(err), round_no, None)
    round_no, event = _locate(doc, err.absolute_path)
    return EngineError(ErrorCode.BAD_FORMAT, _message(err), round_no, event)


def _first_error(validator: Draft202012Validator, doc: Any) -> ValidationError | None:
    if validator.is_valid(doc):  # the fast, common path
        return None
    return best_match(validator.iter_errors(doc))


def validate_log_structure(doc: Any) -> EngineError | None:
    """BAD_FORMAT for a move log whose header or rounds do not have the published shape.

    Cards and events are left to the engine (see the module docstring); `rules` to
    `rules_from_spec`.
    """
    err = _first_error(_log_validator(), doc)
    return None if err is None else to_engine_error(doc, err)


def validate_sheet_structure(doc: Any) -> EngineError | None:
    """BAD_FORMAT for a score sheet that does not have the published shape (rules left to
    `rules_from_spec`)."""
    err = _first_error(_sheet_validator(), doc)
    return None if err is None else to_engine_error(doc, err, sheet=True)


def validate_full(name: str, doc: Any) -> EngineError | None:
    """Check against the complete published schema, cards and events included (slow)."""
    err = _first_error(full_validator(name), doc)
    return None if err is None else to_engine_error(doc, err, sheet=name in ("score_sheet", "sheet"))


__all__ = [
    "LOG_FORMAT",
    "SHEET_FORMAT",
    "format_path",
    "full_validator",
    "load_schema",
    "to_engine_error",
    "validate_full",
    "validate_log_structure",
    "validate_sheet_structure",
]

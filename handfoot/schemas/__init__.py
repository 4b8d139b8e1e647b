"""JSON Schemas (draft 2020-12) of the two public formats, and the compiled structural checks.

`move_log.schema.json` and `score_sheet.schema.json` describe the formats of formats.md
exactly; they are published for clients and shipped in the package. Their house-rule part
(`$defs.overrides`) is built from the `RuleSet` fields (`parameters.overrides_schema`), the one
source of the parameters and their ranges; `python -m handfoot.schemas` rewrites the files.

The run-time checks use validators compiled once by `jsonschema_rs` (a compiled, Rust
implementation of draft 2020-12): a hard dependency, so a broken schema or a missing library
fails loudly at import, never quietly. `validate_sheet_structure` checks a score sheet against
its whole schema; `sheets.check_sheet` relies on it and keeps only the checks that need the rule
set. `validate_log_structure` checks a move log's header and the shape of its rounds. The first
problem becomes a BAD_FORMAT `EngineError` whose message names the path of the bad field. Two
parts are left out of the run-time checks on purpose:

- `rules` is only checked to be a name or an object: the rule-set code (`rules_from_spec`) is
  the one judge of presets and house rules and answers BAD_RULES, not BAD_FORMAT (it applies the
  same ranges the schema publishes).
- For move logs, the cards and the events themselves are left to the engine, which reads every
  card and event anyway (refusing unknown event fields) and reports a bad one as BAD_FORMAT at
  its round and event, in less time than a validator takes to walk them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import jsonschema_rs

from ..errors import EngineError, ErrorCode, shown
from ..formats import LOG_FORMAT, SHEET_FORMAT
from ..parameters import overrides_schema
from ..rules import ENTERED_PARTS, PartKind

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

Validator = Any  # a compiled jsonschema_rs validator (is_valid, iter_errors)


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
    schema: dict[str, Any] = json.loads(_file(_key(name)).read_text(encoding="utf-8"))
    schema["$defs"]["overrides"] = overrides_schema()
    if _key(name) == "score_sheet":
        _side_parts(schema["$defs"]["side"]["properties"])
    return schema


def _side_parts(properties: dict[str, Any]) -> None:
    """A sheet side's property for every part a scorer writes (`rules.ENTERED_PARTS`) that the
    file does not describe yet: a new part is optional, so older sheets stay valid."""
    for part in ENTERED_PARTS:
        if part.name in properties:
            continue
        if part.kind == PartKind.YES_NO:
            properties[part.name] = {"type": "boolean", "description": part.words}
        else:
            properties[part.name] = {"type": "integer", "minimum": part.minimum,
                                     "maximum": part.maximum, "description": part.words}


def schema_text(name: str) -> str:
    """The published schema as the file holds it (and `write_schemas` writes it)."""
    return json.dumps(build_schema(name), indent=2, ensure_ascii=False) + "\n"


@cache
def _schema_text(name: str) -> str:
    return schema_text(_key(name))


def load_schema(name: str) -> dict[str, Any]:
    """The published schema `move_log` or `score_sheet` (a fresh copy each call)."""
    schema: dict[str, Any] = json.loads(_schema_text(name))
    return schema


def write_schemas() -> list[str]:
    """Rewrite the shipped schema files from `build_schema` (after a RuleSet change);
    `python -m handfoot.schemas` runs it. Returns the files written."""
    written = []
    for key in _FILES:
        path = _file(key)
        path.write_text(schema_text(key), encoding="utf-8")
        written.append(str(path))
    return written


def _bound(schema: dict[str, Any], *path: str) -> tuple[int, int]:
    node: Any = schema
    for part in path:
        node = node[part]
    return node.get("minimum"), node.get("maximum")


def sheet_number_bounds() -> dict[str, tuple[int, int]]:
    """(least, most) of every number of a score sheet, as the schema publishes them: each fits
    a 32-bit integer column (forms and models use the same numbers)."""
    schema = load_schema("score_sheet")
    props = schema["$defs"]["side"]["properties"]
    out = {name: _bound(schema, "properties", name) for name in ("round", "players")}
    for name, prop in props.items():
        if "$ref" in prop:
            prop = schema["$defs"][prop["$ref"].rsplit("/", 1)[1]]
        if prop.get("type") == "integer":
            out[name] = (prop.get("minimum"), prop.get("maximum"))
    return out


# --- the compiled validators

_LOOSE_RULES = {"type": ["string", "object"]}


def _resolve(defs: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        extra = {k: v for k, v in node.items() if k != "$ref"}
        node = {**defs[node["$ref"].rsplit("/", 1)[1]], **extra}
    return node


def _max_items(defs: dict[str, Any], node: Any) -> int:
    return int(_resolve(defs, node)["maxItems"])


def _compile(schema: dict[str, Any]) -> Validator:
    # mask: an error's text never repeats the (possibly huge) value it is about.
    validator = jsonschema_rs.Draft202012Validator(schema, mask="…")
    _SCHEMAS[id(validator)] = schema
    return validator


@cache
def _log_validator() -> Validator:
    schema = load_schema("move_log")
    defs = schema["$defs"]
    defs["rules"] = _LOOSE_RULES
    rnd = copy.deepcopy(defs["round"])
    deal = copy.deepcopy(defs["deal"])
    for key, prop in deal["properties"].items():  # the shape only, but never unbounded
        deal["properties"][key] = {"type": "array", "maxItems": _max_items(defs, prop)}
    rnd["properties"]["deal"] = deal
    rnd["properties"]["events"] = {"type": "array",
                                   "maxItems": rnd["properties"]["events"]["maxItems"]}
    schema["properties"]["rounds"]["items"] = rnd
    schema["properties"]["rules"] = _LOOSE_RULES
    return _compile(schema)


@cache
def _sheet_validator() -> Validator:
    schema = load_schema("score_sheet")
    schema["properties"]["rules"] = {}  # any value: rules_from_spec answers BAD_RULES
    return _compile(schema)


@cache
def full_validator(name: str) -> Validator:
    """A compiled validator of the complete published schema (tools and tests)."""
    return _compile(load_schema(_key(name)))


# --- turning a validation error into a plain message

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
    if isinstance(value, str) and len(value) > 40:
        value = value[:40]  # a huge text is never copied whole
    elif isinstance(value, (list, dict)) and len(value) > 8:
        return f"{_json_type(value)} of {len(value):,} entries"
    try:
        text = json.dumps(value) if not isinstance(value, str) else repr(value)
    except (TypeError, ValueError, RecursionError):
        return shown(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _fields(names: Any) -> str:
    return ", ".join(repr(n) for n in names)


def _shape_message(where: str, kind: str, data: dict[str, Any], inst: Any) -> str | None:
    """Messages about a field's presence or kind of value."""
    if kind == "required":
        return f"{where} is missing the field {data['property']!r}"
    if kind == "additionalProperties":
        extra = data.get("unexpected") or []
        return f"{where} has an unknown field {_fields(extra)}".rstrip()
    if kind == "type":
        want = " or ".join(_TYPE_WORDS.get(t, t) for t in data["types"])
        return f"{where} should be {want}, not {_json_type(inst)}"
    if kind == "const":
        return f"{where} must be {_short(data['expected_value'])}, not {_short(inst)}"
    if kind == "enum":
        return f"{where} must be one of {', '.join(map(_short, data['options']))}, not {_short(inst)}"
    if kind == "pattern":
        return f"{where}: {_short(inst)} is not a card (cards look like 'KH', 'TD', '10D' or 'JK')"
    return None


def _value_message(where: str, kind: str, data: dict[str, Any], inst: Any) -> str | None:
    """Messages about a value outside its range."""
    limit = data.get("limit")
    if kind == "minimum":
        below = " (it cannot be negative)" if limit == 0 else ""
        return f"{where} must be at least {limit}{below}, not {_short(inst)}"
    if kind == "maximum":
        return f"{where} must be at most {limit:,}, not {_short(inst)}"
    if kind == "multipleOf":
        return f"{where} must be a multiple of {data['multiple_of']:g} (every card is), not {_short(inst)}"
    if kind == "minItems":
        return f"{where} needs at least {limit} entr{'y' if limit == 1 else 'ies'}"
    if kind == "maxItems":
        return f"{where} may have at most {limit} entr{'y' if limit == 1 else 'ies'}"
    if kind == "uniqueItems":
        return f"{where} lists the same entry twice"
    return None


def _message(err: Any, siblings: list[Any]) -> str:
    where = format_path(err.instance_path)
    kind = err.kind.name
    data = err.kind.as_dict() if kind not in ("oneOf", "anyOf") else {}
    if kind == "const" and list(err.instance_path)[-1:] == ["format"]:
        return f"unknown format {_short(err.instance)}; expected {data['expected_value']!r}"
    text = _shape_message(where, kind, data, err.instance) or _value_message(
        where, kind, data, err.instance
    )
    if text is None:
        return f"{where}: {err.message}"
    if kind == "required":  # a missing field next to an unknown one: most likely a misspelling
        extra = [e for e in siblings if e.kind.name == "additionalProperties"
                 and list(e.instance_path) == list(err.instance_path)]
        if extra:
            text += f" (it has the unknown field {_fields(extra[0].kind.as_dict()['unexpected'])})"
    return text


def _locate(doc: Any, path: Any) -> tuple[int | None, int | None]:
    """(round number, event index) of a path inside a move log, when it points into one."""
    parts = list(path)
    if len(parts) < 2 or parts[0] != "rounds" or not isinstance(parts[1], int):
        return None, None
    i = parts[1]
    number: int | None = i + 1
    try:
        given = doc["rounds"][i]["round"]
        if type(given) is int:
            number = given
    except (KeyError, IndexError, TypeError):
        pass
    event = parts[3] if len(parts) >= 4 and parts[2] == "events" and isinstance(parts[3], int) else None
    return number, event


def _sheet_round(doc: Any) -> int | None:
    rnd = doc.get("round") if isinstance(doc, dict) else None
    if type(rnd) is float and rnd.is_integer():
        rnd = int(rnd)
    return rnd if type(rnd) is int and rnd >= 1 else None


def to_engine_error(doc: Any, err: Any, siblings: Sequence[Any] = (), *,
                    sheet: bool = False) -> EngineError:
    """A BAD_FORMAT EngineError for one validation error (path in the message)."""
    message = _message(err, list(siblings))
    if sheet:
        return EngineError(ErrorCode.BAD_FORMAT, message, _sheet_round(doc), None)
    round_no, event = _locate(doc, err.instance_path)
    return EngineError(ErrorCode.BAD_FORMAT, message, round_no, event)


class _Found(Exception):
    """A too-long list or an object with an unknown field, found before the validator is asked
    for an error (its error would carry a copy of the whole offending value)."""

    def __init__(self, path: list[Any], message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def _preflight(defs: dict[str, Any], node: Any, doc: Any, path: list[Any]) -> None:
    """Walk the document along the schema, refusing the first list longer than its `maxItems`
    and the first unknown field of a closed object. It never looks at more entries than the
    schema allows, so it costs little however large the document is (it runs only once the
    validator has said the document is wrong)."""
    node = _resolve(defs, node)
    if not isinstance(node, dict):
        return
    if isinstance(doc, list):
        limit = node.get("maxItems")
        words = node.get("items", {}).get("enum") if node.get("uniqueItems") else None
        if limit is None and words:  # a set of words holds each word at most once
            limit = len(words)
        if limit is not None and len(doc) > limit:
            where = format_path(path)
            raise _Found(path, f"{where} may have at most {limit} entr{'y' if limit == 1 else 'ies'}"
                               f", not {len(doc):,}")
        items = node.get("items")
        if isinstance(items, dict):
            for i, item in enumerate(doc):
                _preflight(defs, items, item, [*path, i])
    elif isinstance(doc, dict):
        props = node.get("properties", {})
        if node.get("additionalProperties") is False:
            unknown = next((key for key in doc if key not in props), None)
            if unknown is not None:
                raise _Found(path, _unknown_message(node, doc, path, unknown))
        for key, sub in props.items():
            if key in doc:
                _preflight(defs, sub, doc[key], [*path, key])


def _unknown_message(node: dict[str, Any], doc: dict[str, Any], path: list[Any], unknown: str) -> str:
    where = format_path(path)
    missing = next((name for name in node.get("required", ()) if name not in doc), None)
    if missing is not None:  # most likely the same field misspelt
        return f"{where} is missing the field {missing!r} (it has the unknown field {unknown!r})"
    return f"{where} has an unknown field {unknown!r}"


def _required_next_to(validator: Validator, err: Any, doc: Any) -> str:
    """For an unknown field: the required field missing next to it, if any (most likely the same
    field misspelt), from the object's own schema."""
    node: Any = doc
    for part in err.instance_path:
        node = node[part]
    if not isinstance(node, dict):
        return ""
    schema = _schema_of(validator)
    sub: Any = schema
    for part in list(err.schema_path)[:-1]:
        sub = _resolve(schema.get("$defs", {}), sub)
        sub = sub[part]
    sub = _resolve(schema.get("$defs", {}), sub)
    missing = [name for name in sub.get("required", ()) if name not in node]
    return missing[0] if missing else ""


_SCHEMAS: dict[int, dict[str, Any]] = {}


def _schema_of(validator: Validator) -> dict[str, Any]:
    return _SCHEMAS[id(validator)]


def _first_error(validator: Validator, doc: Any, sheet: bool) -> EngineError | None:
    """The first problem of the document, found without collecting the others: the validator
    stops at its first error (`validate`), after a walk that refuses over-long lists and
    unknown fields cheaply (`_preflight`)."""
    try:
        if validator.is_valid(doc):  # the fast, common path
            return None
        schema = _schema_of(validator)
        _preflight(schema.get("$defs", {}), schema, doc, [])
        validator.validate(doc)
    except _Found as found:
        return _engine_error(doc, found.path, found.message, sheet)
    except jsonschema_rs.ValidationError as err:
        message = _message(err, [])
        if err.kind.name == "additionalProperties":  # name the missing field first, if any
            missing = _required_next_to(validator, err, doc)
            if missing:
                where = format_path(err.instance_path)
                unknown = _fields(err.kind.as_dict().get("unexpected") or [])
                message = f"{where} is missing the field {missing!r} (it has the unknown field {unknown})"
        return _engine_error(doc, list(err.instance_path), message, sheet)
    except ValueError as exc:  # too deep, or a Python value JSON has no word for (a set)
        why = "it is nested too deeply" if "ecursion" in str(exc) else str(exc)[:200]
        return EngineError(ErrorCode.BAD_FORMAT, f"the document is not JSON data: {why}")
    return None  # pragma: no cover - is_valid and validate disagree


def _engine_error(doc: Any, path: list[Any], message: str, sheet: bool) -> EngineError:
    if sheet:
        return EngineError(ErrorCode.BAD_FORMAT, message, _sheet_round(doc), None)
    round_no, event = _locate(doc, path)
    return EngineError(ErrorCode.BAD_FORMAT, message, round_no, event)


def validate_log_structure(doc: Any) -> EngineError | None:
    """BAD_FORMAT for a move log whose header or rounds do not have the published shape.

    Cards and events are left to the engine (see the module docstring); `rules` to
    `rules_from_spec`.
    """
    return _first_error(_log_validator(), doc, False)


def validate_sheet_structure(doc: Any) -> EngineError | None:
    """BAD_FORMAT for a score sheet that does not have the published shape (rules left to
    `rules_from_spec`)."""
    return _first_error(_sheet_validator(), doc, True)


def sheet_structure_ok() -> Any:
    """The compiled sheet validator's `is_valid` (for the fast path of `check_sheet`; it may raise
    ValueError for a value that is not JSON data, which `validate_sheet_structure` words)."""
    return _sheet_validator().is_valid


def validate_full(name: str, doc: Any) -> EngineError | None:
    """Check against the complete published schema, cards and events included (slower)."""
    return _first_error(full_validator(name), doc, _key(name) == "score_sheet")


__all__ = [
    "LOG_FORMAT",
    "SHEET_FORMAT",
    "build_schema",
    "format_path",
    "full_validator",
    "load_schema",
    "schema_text",
    "sheet_number_bounds",
    "to_engine_error",
    "validate_full",
    "validate_log_structure",
    "validate_sheet_structure",
    "write_schemas",
]

"""The house rules form of the director's page, and the reading of the "house rules as JSON"
boxes: typed values and JSON turned into the engine's overrides, refused in words. Kinds, ranges
and words come from `league.house_rules`; the engine stays the judge (`rules_from_spec`)."""

from __future__ import annotations

import json
from typing import Any

from django import forms

from handfoot.errors import EngineError
from handfoot.rules import PRESETS, rules_from_spec, rules_to_dict
from league.house_rules import (
    BOOK_PARTS,
    BY_NAME,
    PARAMETERS,
    UPCARD_WORDS,
    YES_NO,
    Parameter,
    range_words,
    value_words,
)


def _field_value(p: Parameter, value: Any) -> Any:
    """A rules_to_dict value as the form's initial value."""
    if p.kind == "bool":
        return "yes" if value else "no"
    if p.kind == "optional_int":
        return None if value in (None, "players+1") else value
    if p.kind == "ints":
        return ", ".join(str(v) for v in value)
    return value


def _raw(p: Parameter, value: Any) -> str:
    """The preset's value as the page's script reads the fields (to mark changes as typed)."""
    if p.kind == "books":
        return "|".join(str(value[k]) for k, _ in BOOK_PARTS)
    if p.kind == "upcard":
        return "|".join(k for k, _ in UPCARD_WORDS if k in value)
    if p.kind == "ints":
        return ",".join(str(v) for v in value)
    shown = _field_value(p, value)
    return "" if shown is None else str(shown)


class HouseRulesForm(forms.Form):
    """One field per parameter (book counts: three), initially the event's current values."""

    def __init__(self, *args: Any, preset: str, overrides: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.preset = PRESETS[preset]
        self.base = rules_to_dict(self.preset)
        try:
            current = rules_to_dict(rules_from_spec({"preset": preset, "overrides": overrides or {}}))
        except EngineError:
            current = self.base
        self.current = current
        for p in PARAMETERS:
            self._add_fields(p, current[p.name])

    def _add_fields(self, p: Parameter, value: Any) -> None:
        common: dict[str, Any] = {"label": p.label, "help_text": p.help}
        if p.kind in ("int", "optional_int"):
            self.fields[p.name] = forms.IntegerField(
                required=p.kind == "int", initial=_field_value(p, value),
                error_messages={"required": f"{p.label}: give a number from {p.least:,} to {p.most:,}.",
                                "invalid": f"{p.label}: give a whole number."},
                widget=forms.NumberInput(attrs={"min": p.least, "max": p.most}), **common)
        elif p.kind == "choice":
            self.fields[p.name] = forms.ChoiceField(choices=p.choices, initial=value, **common)
        elif p.kind == "bool":
            self.fields[p.name] = forms.ChoiceField(choices=YES_NO, initial=_field_value(p, value),
                                                    **common)
        elif p.kind == "ints":
            self.fields[p.name] = forms.CharField(initial=_field_value(p, value), max_length=80,
                                                  **common)
        elif p.kind == "upcard":
            self.fields[p.name] = forms.MultipleChoiceField(
                choices=UPCARD_WORDS, initial=list(value), required=False,
                widget=forms.CheckboxSelectMultiple, **common)
        elif p.kind == "books":
            for key, label in BOOK_PARTS:
                self.fields[f"{p.name}__{key}"] = forms.IntegerField(
                    label=f"{p.label}: {label}", initial=value[key],
                    error_messages={"required": f"{p.label} ({label}): give a number.",
                                    "invalid": f"{p.label} ({label}): give a whole number."},
                    widget=forms.NumberInput(attrs={"min": p.least, "max": p.most}))

    # --- checking --------------------------------------------------------------------------

    def _in_range(self, p: Parameter, label: str, value: int | None) -> None:
        if value is not None and not p.least <= value <= p.most:
            shown = f"{value:,}" if len(str(abs(value))) <= MAX_DIGITS else "a number that large"
            raise forms.ValidationError(
                f"{label} must be from {p.least:,} to {p.most:,}{' ' + p.unit if p.unit else ''}, "
                f"not {shown}.")

    def _value(self, p: Parameter) -> Any:
        data = self.cleaned_data
        if p.kind in ("int", "optional_int"):
            value = data.get(p.name)
            self._in_range(p, p.label, value)
            return "players+1" if p.name == "decks" and value is None else value
        if p.kind == "bool":
            return data.get(p.name) == "yes"
        if p.kind == "ints":
            return self._ints(p, data.get(p.name, ""))
        if p.kind == "books":
            counts = {}
            for key, label in BOOK_PARTS:
                value = data.get(f"{p.name}__{key}")
                self._in_range(p, f"{p.label} ({label})", value)
                counts[key] = value
            return counts
        if p.kind == "upcard":
            return sorted(data.get(p.name, []), key=[k for k, _ in UPCARD_WORDS].index)
        return data.get(p.name)

    def _ints(self, p: Parameter, text: str) -> list[int]:
        parts = [t for t in text.replace(";", ",").replace(" ", ",").split(",") if t]
        if not p.min_items <= len(parts) <= p.max_items or not all(t.isascii() and t.isdigit() for t in parts):
            raise forms.ValidationError(
                f"{p.label}: give {p.min_items} to {p.max_items} whole numbers separated by commas.")
        numbers = [int(t) for t in parts]
        for number in numbers:
            self._in_range(p, p.label, number)
        return numbers

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data  # Django's clean() returns cleaned_data
        values: dict[str, Any] = {}
        for p in PARAMETERS:
            if any(name in self.errors for name in (p.name, f"{p.name}__clean")):
                continue
            try:
                values[p.name] = self._value(p)
            except forms.ValidationError as error:
                self.add_error(p.name if p.name in self.fields else f"{p.name}__clean", error)
        if values.get("rounds") and isinstance(values.get("meld_minimums"), list):
            if len(values["meld_minimums"]) != values["rounds"] and \
                    values["meld_minimums"] == self.current["meld_minimums"]:
                values.pop("meld_minimums")  # untouched: the engine fits them to the rounds
            elif len(values["meld_minimums"]) != values["rounds"]:
                self.add_error("meld_minimums", f"Give one first lay-down minimum per round "
                               f"({values['rounds']} rounds, {len(values['meld_minimums'])} numbers).")
        if values.get("min_meld_size") and values.get("book_size") and \
                values["min_meld_size"] > values["book_size"]:
            self.add_error("min_meld_size", "Cards to start a meld cannot be more than the cards in a book.")
        cleaned["overrides"] = {
            name: value for name, value in values.items() if self.base.get(name) != value
        }
        return cleaned

    # --- showing -----------------------------------------------------------------------------

    def rows(self) -> list[dict[str, Any]]:
        """Each parameter with its bound fields, preset value, range and whether it differs."""
        rows = []
        for p in PARAMETERS:
            names = [f"{p.name}__{k}" for k, _ in BOOK_PARTS] if p.kind == "books" else [p.name]
            rows.append({
                "parameter": p,
                "fields": [self[n] for n in names],
                "preset_value": value_words(p, self.base[p.name]),
                "range": range_words(p),
                "preset_raw": _raw(p, self.base[p.name]),
                "changed": self.current[p.name] != self.base[p.name],
            })
        return rows


# No house rule goes past 5,000 (the engine's metadata): a number of more digits than this is
# refused while the box is read, before Python converts it (a 4,301-digit number cannot be).
MAX_DIGITS = 6


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise forms.ValidationError(
            f"The number {text[:8]}\u2026 ({len(text.lstrip('-')):,} digits) is far too large for "
            "a house rule: each rule's range is listed above the box.")
    return int(text)


def _fraction(text: str) -> Any:
    raise forms.ValidationError(
        f"{text[:12]} is not a whole number: house rules take whole numbers, like 200.")


def _constant(name: str) -> Any:
    raise forms.ValidationError(f"{name} is not a number: house rules take whole numbers, like 200.")


def read_rules_json(text: str) -> Any:
    """The text of the "house rules as JSON" box as a value: whole numbers of at most
    MAX_DIGITS digits, no fractions, NaN or Infinity. Refused in words."""
    try:
        return json.loads(text, parse_int=_whole, parse_float=_fraction, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise forms.ValidationError(
            f"This is not readable as house rules: look near line {exc.lineno}, character "
            f"{exc.colno}. Write them like {{\"going_out_bonus\": 200, \"rounds\": 3}}, with "
            "double quotes around names and commas between entries.") from exc
    except (RecursionError, ValueError) as exc:
        raise forms.ValidationError(
            'This is not readable as house rules: write them like {"going_out_bonus": 200}.') from exc


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _range_refusal(p: Parameter, label: str, value: Any) -> forms.ValidationError:
    unit = f" {p.unit}" if p.unit else ""
    shown = f"{value:,}" if _is_number(value) else json.dumps(value)[:40]
    return forms.ValidationError(
        f"{label}: give a whole number from {p.least:,} to {p.most:,}{unit}, not {shown}.")


def _check_number(p: Parameter, value: Any, label: str = "") -> None:
    if not _is_number(value) or not p.least <= value <= p.most:
        raise _range_refusal(p, label or p.label, value)


def check_override(p: Parameter, value: Any) -> None:
    """Refuse (in words, naming the rule by its label) a value of the wrong kind or out of the
    rule's range. The engine checks again; this names the rule and its range for the page."""
    words = range_words(p)
    if p.kind == "int":
        _check_number(p, value)
    elif p.kind == "optional_int":
        if value is not None and not (p.name == "decks" and value == "players+1"):
            _check_number(p, value)
    elif p.kind == "ints":
        if not isinstance(value, list) or not p.min_items <= len(value) <= p.max_items:
            raise forms.ValidationError(f"{p.label}: give a list of {words}, like [50, 90, 120].")
        for number in value:
            _check_number(p, number)
    elif p.kind == "books":
        parts = dict(BOOK_PARTS)
        if not isinstance(value, dict) or not set(value) <= set(parts):
            raise forms.ValidationError(
                f'{p.label}: give the clean, dirty and wild counts, like {{"clean": 1, "dirty": 1, '
                f'"wild": 0}}, each {words}.')
        for key, number in value.items():
            _check_number(p, number, f"{p.label} ({parts[key]})")
    elif p.kind == "bool":
        if not isinstance(value, bool):
            raise forms.ValidationError(f"{p.label}: write true or false.")
    elif p.kind == "choice":
        if value not in dict(p.choices):
            allowed = ", ".join(json.dumps(key) for key, _ in p.choices)
            raise forms.ValidationError(f"{p.label}: write one of {allowed}.")
    elif not isinstance(value, list) or not set(value) <= {key for key, _ in UPCARD_WORDS} \
            or len(set(value)) != len(value):
        allowed = ", ".join(json.dumps(key) for key, _ in UPCARD_WORDS)
        raise forms.ValidationError(f"{p.label}: give a list of some of {allowed}, each once.")


def overrides_checked(value: Any) -> dict[str, Any]:
    """A parsed JSON value as house rules: an object of known parameters, each of its kind and
    within its range. Refused in words."""
    if not isinstance(value, dict):
        raise forms.ValidationError(
            'House rules are a list of parameter: value in braces, like {"going_out_bonus": 200}.')
    unknown = sorted(set(value) - set(BY_NAME))
    if unknown:
        raise forms.ValidationError(
            f"Unknown house rule {unknown[0][:40]!r}: the parameters are listed above the box.")
    for name, item in value.items():
        check_override(BY_NAME[name], item)
    return value


def overrides_from_json(text: str) -> dict[str, Any]:
    """The advanced box: a JSON object of parameter: value, refused in words."""
    text = (text or "").strip()
    if not text:
        return {}
    if len(text) > 10_000:
        raise forms.ValidationError("That is too long for house rules (10,000 characters at most).")
    return overrides_checked(read_rules_json(text))


def rules_from_text(text: str, *, preset: str) -> tuple[str, dict[str, Any]]:
    """(preset, overrides) from the "rules as JSON" box: what a move log's `rules` may be (a
    preset name, or {"preset": ..., "overrides": {...}}), or just the overrides of the
    event's preset ({"going_out_bonus": 250}). Refused in words."""
    text = (text or "").strip()
    if not text:
        return preset, {}
    value = read_rules_json(text)
    if isinstance(value, str):
        if value not in PRESETS:
            raise forms.ValidationError(f"There is no rule preset called {value!r}.")
        return value, {}
    if isinstance(value, dict) and set(value) and set(value) <= {"preset", "overrides"}:
        chosen = value.get("preset", preset)
        if chosen not in PRESETS:
            raise forms.ValidationError(f"There is no rule preset called {chosen!r}.")
        overrides = value.get("overrides") or {}
        if not isinstance(overrides, dict):
            raise forms.ValidationError(
                'The overrides are parameter: value in braces, like {"going_out_bonus": 250}.')
        return chosen, overrides_checked(overrides) if overrides else {}
    return preset, overrides_checked(value)

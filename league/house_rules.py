"""House rules as a director sees them: every parameter of a preset, in words, with its preset
value and its range, and the form that turns typed values into the engine's overrides.

Kinds and ranges come from the engine's own metadata (`handfoot.rules.rule_parameters`), the
same numbers it enforces; this module only adds the words a page shows (labels, and each allowed
word of a choice in plain English). The engine stays the judge: whatever this form lets through
is checked again by `rules_from_spec`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django import forms

from handfoot.errors import EngineError
from handfoot.rules import (
    PRESETS,
    ParamKind,
    RuleSet,
    rule_parameters,
    rules_from_spec,
    rules_to_dict,
)


@dataclass(frozen=True)
class Parameter:
    name: str
    label: str
    help: str
    kind: str  # int | optional_int | choice | bool | ints | books | upcard
    least: int = 0
    most: int = 0
    choices: tuple[tuple[str, str], ...] = ()
    unit: str = ""
    none_label: str = ""
    min_items: int = 1
    max_items: int = 1


BOOK_PARTS = (("clean", "clean"), ("dirty", "dirty"), ("wild", "wild"))
UPCARD_WORDS = (("wild", "a wild card"), ("red3", "a red 3"), ("3", "any 3"))

# label, help, unit: the table's words for each parameter (the engine's description otherwise).
WORDING: dict[str, tuple[str, str, str]] = {
    "rounds": ("Rounds in a game", "Deals played; the meld minimums follow.", ""),
    "decks": ("Decks shuffled together", "Empty: one more than the players.", ""),
    "hand_size": ("Cards in the hand", "", "cards"),
    "foot_size": ("Cards in the foot", "", "cards"),
    "draw_count": ("Cards drawn from the stock", "", "cards"),
    "pickup_count": ("Cards taken from the discard pile", "Fewer if the pile is smaller.", "cards"),
    "pickup_min_pile": ("Pile size before it may be taken", "", "cards"),
    "pickup_requires": ("Taking the pile needs", "", ""),
    "wild_upcard": ("A wild card on top of the pile", "", ""),
    "upcard_forbidden": ("The starting pile may not show", "", ""),
    "min_meld_size": ("Cards to start a meld", "At most the book size.", "cards"),
    "book_size": ("Cards in a book", "", "cards"),
    "book_growth": ("After a book is made", "", ""),
    "max_wilds": ("Most wilds in a natural meld", "Empty: no limit.", ""),
    "wild_ratio": ("Wilds allowed in a meld", "", ""),
    "wild_melds": ("Melds of wild cards only", "", ""),
    "meld_minimums": ("First lay-down minimum, round by round",
                      "One number per round, e.g. 50, 90, 120, 150.", "points"),
    "first_meld_needs_clean": ("The first lay-down needs a clean meld", "", ""),
    "red_threes": ("Red 3s", "", ""),
    "replace_foot_red_threes": ("Red 3s in the foot are replaced", "", ""),
    "red_three_bonus": ("Bonus per red 3 laid out", "", "points"),
    "red_three_penalty": ("Penalty per red 3 held at the end", "", "points"),
    "black_three_penalty": ("Penalty per black 3 held at the end", "", "points"),
    "books_to_go_out": ("Books needed to go out", "At least one in all.", "books"),
    "partner_condition": ("Before going out, each partner must have", "", ""),
    "permission": ("Ask the partner \u201cmay I go out?\u201d", "", ""),
    "book_bonus": ("Bonus per book", "", "points"),
    "going_out_bonus": ("Bonus for going out", "", "points"),
}
WORD_LABELS: dict[str, str] = {
    "pair": "a natural pair matching the top card",
    "pair_or_meld": "a natural pair, or an open meld of that rank",
    "same_wild": "is taken with two of the same wild",
    "any_wilds": "is taken with any two wilds",
    "frozen": "freezes the pile for the round",
    "closed": "nothing more may be added",
    "naturals": "naturals of its rank may be added",
    "double": "at most half as many as naturals",
    "more": "fewer than the naturals",
    "two_naturals": "any number once there are two naturals",
    "lay": "are laid out and replaced",
    "hold": "are held like other cards",
    "played_foot": "played from their foot",
    "in_foot": "finished their hand",
    "none": "nothing",
}
KINDS = {
    ParamKind.NUMBER: "int", ParamKind.NUMBER_OR_NONE: "optional_int", ParamKind.DECKS: "optional_int",
    ParamKind.WORD: "choice", ParamKind.YES_NO: "bool", ParamKind.NUMBER_LIST: "ints",
    ParamKind.WORD_SET: "upcard", ParamKind.BOOK_COUNTS: "books",
}
# The order a director reads them in: the game's shape first, then play, then scoring.
ORDER = ("rounds", "decks", "hand_size", "foot_size")


def _parameters() -> tuple[Parameter, ...]:
    infos = rule_parameters("classic")
    infos.sort(key=lambda i: ORDER.index(i.name) if i.name in ORDER else len(ORDER))
    out = []
    for info in infos:
        label, help_text, unit = WORDING.get(info.name, (info.description, "", ""))
        kind = KINDS[info.kind]
        none_label = {"decks": "players + 1", "max_wilds": "no limit"}.get(info.name, "")
        choices = tuple((w, WORD_LABELS.get(w, w)) for w in info.words) if kind == "choice" else ()
        out.append(Parameter(
            name=info.name, label=label, help=help_text, kind=kind,
            least=info.minimum or 0, most=info.maximum or 0, choices=choices, unit=unit,
            none_label=none_label, min_items=info.min_items or 1, max_items=info.max_items or 1,
        ))
    return tuple(out)


PARAMETERS: tuple[Parameter, ...] = _parameters()
BY_NAME = {p.name: p for p in PARAMETERS}
YES_NO = (("yes", "Yes"), ("no", "No"))


def range_words(p: Parameter) -> str:
    """The parameter's range as a person reads it."""
    if p.kind in ("int", "optional_int", "books"):
        words = f"{p.least:,} to {p.most:,}"
        return words + (f", or empty for {p.none_label}" if p.none_label else "")
    if p.kind == "ints":
        return f"{p.min_items} to {p.max_items} numbers, each {p.least:,} to {p.most:,}"
    if p.kind in ("choice", "bool"):
        return " or ".join(label for _, label in (p.choices or YES_NO))
    return "any of " + ", ".join(label for _, label in UPCARD_WORDS)


def value_words(p: Parameter, value: Any) -> str:
    """A preset's or an event's value of one parameter in words."""
    if p.kind == "bool":
        return "yes" if value else "no"
    if p.kind == "optional_int":
        return p.none_label if value in (None, "players+1") else str(value)
    if p.kind == "choice":
        return dict(p.choices).get(value, str(value))
    if p.kind == "ints":
        return ", ".join(str(v) for v in value)
    if p.kind == "books":
        return " / ".join(f"{value[k]} {label}" for k, label in BOOK_PARTS)
    if p.kind == "upcard":
        return ", ".join(label for key, label in UPCARD_WORDS if key in value) or "nothing"
    return f"{value:,}"


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


def rules_summary_changes(preset: str, overrides: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(label, preset value, event value) of each changed parameter."""
    base = rules_to_dict(PRESETS[preset])
    try:
        current = rules_to_dict(rules_from_spec({"preset": preset, "overrides": overrides}))
    except EngineError:
        return []
    return [(p.label, value_words(p, base[p.name]), value_words(p, current[p.name]))
            for p in PARAMETERS if base[p.name] != current[p.name]]


def ruleset_of(preset: str, overrides: dict[str, Any]) -> RuleSet:
    return rules_from_spec({"preset": preset, "overrides": overrides} if overrides else preset)

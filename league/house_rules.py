"""House rules as a director sees them: every parameter of a preset, in words, with its preset
value and its range, and the form that turns typed values into the engine's overrides.

The ranges are those of rules.md ("Ranges of house rules"), which the engine enforces; the engine
stays the judge: whatever this form lets through is checked again by `rules_from_spec`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django import forms

from games.engine.errors import EngineError
from games.engine.rules import PRESETS, RuleSet, rules_from_spec, rules_to_dict


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


BOOK_PARTS = (("clean", "clean"), ("dirty", "dirty"), ("wild", "wild"))
UPCARD_WORDS = (("wild", "a wild card"), ("red3", "a red 3"), ("3", "any 3"))

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("rounds", "Rounds in a game", "Deals played; the meld minimums follow.", "int", 1, 8),
    Parameter("decks", "Decks shuffled together", "Empty: one more than the players.",
              "optional_int", 1, 12, none_label="players + 1"),
    Parameter("hand_size", "Cards in the hand", "", "int", 1, 20, unit="cards"),
    Parameter("foot_size", "Cards in the foot", "", "int", 1, 20, unit="cards"),
    Parameter("draw_count", "Cards drawn from the stock", "", "int", 1, 3, unit="cards"),
    Parameter("pickup_count", "Cards taken from the discard pile", "Fewer if the pile is smaller.",
              "int", 1, 20, unit="cards"),
    Parameter("pickup_min_pile", "Pile size before it may be taken", "", "int", 1, 20, unit="cards"),
    Parameter("pickup_requires", "Taking the pile needs", "", "choice", choices=(
        ("pair", "a natural pair matching the top card"),
        ("pair_or_meld", "a natural pair, or an open meld of that rank"))),
    Parameter("wild_upcard", "A wild card on top of the pile", "", "choice", choices=(
        ("same_wild", "is taken with two of the same wild"),
        ("any_wilds", "is taken with any two wilds"),
        ("frozen", "freezes the pile for the round"))),
    Parameter("upcard_forbidden", "The starting pile may not show", "", "upcard"),
    Parameter("black_three_blocks", "A discarded black 3 blocks the pile", "", "bool"),
    Parameter("min_meld_size", "Cards to start a meld", "At most the book size.", "int", 1, 7,
              unit="cards"),
    Parameter("book_size", "Cards in a book", "", "int", 3, 15, unit="cards"),
    Parameter("book_growth", "After a book is made", "", "choice", choices=(
        ("closed", "nothing more may be added"), ("naturals", "naturals of its rank may be added"))),
    Parameter("max_wilds", "Most wilds in a natural meld", "Empty: no limit.", "optional_int", 0, 10,
              none_label="no limit"),
    Parameter("wild_ratio", "Wilds allowed in a meld", "", "choice", choices=(
        ("double", "at most half as many as naturals"), ("more", "fewer than the naturals"),
        ("two_naturals", "any number once there are two naturals"))),
    Parameter("wild_melds", "Melds of wild cards only", "", "bool"),
    Parameter("meld_minimums", "First lay-down minimum, round by round",
              "One number per round, e.g. 50, 90, 120, 150.", "ints", 0, 1000, unit="points"),
    Parameter("first_meld_needs_clean", "The first lay-down needs a clean meld", "", "bool"),
    Parameter("red_threes", "Red 3s", "", "choice", choices=(
        ("lay", "are laid out and replaced"), ("hold", "are held like other cards"))),
    Parameter("replace_foot_red_threes", "Red 3s in the foot are replaced", "", "bool"),
    Parameter("red_three_bonus", "Bonus per red 3 laid out", "", "int", 0, 5000, unit="points"),
    Parameter("red_three_penalty", "Penalty per red 3 held at the end", "", "int", 0, 5000,
              unit="points"),
    Parameter("black_three_penalty", "Penalty per black 3 held at the end", "", "int", 0, 5000,
              unit="points"),
    Parameter("books_to_go_out", "Books needed to go out", "Each 0 to 10, at least one in all.",
              "books", 0, 10, unit="books"),
    Parameter("partner_condition", "Before going out, each partner must have", "", "choice", choices=(
        ("played_foot", "played from their foot"), ("in_foot", "finished their hand"),
        ("none", "nothing")), ),
    Parameter("permission", "Ask the partner \u201cmay I go out?\u201d", "", "bool"),
    Parameter("book_bonus", "Bonus per book", "Each 0 to 5,000.", "books", 0, 5000, unit="points"),
    Parameter("going_out_bonus", "Bonus for going out", "", "int", 0, 5000, unit="points"),
)
BY_NAME = {p.name: p for p in PARAMETERS}
YES_NO = (("yes", "Yes"), ("no", "No"))


def range_words(p: Parameter) -> str:
    """The parameter's range as a person reads it."""
    if p.kind in ("int", "optional_int", "books"):
        words = f"{p.least:,} to {p.most:,}"
        return words + (f", or empty for {p.none_label}" if p.none_label else "")
    if p.kind == "ints":
        return f"1 to 8 numbers, each {p.least:,} to {p.most:,}"
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
        common = {"label": p.label, "help_text": p.help}
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
            raise forms.ValidationError(
                f"{label} must be from {p.least:,} to {p.most:,}{' ' + p.unit if p.unit else ''}, "
                f"not {value:,}.")

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
        if not 1 <= len(parts) <= 8 or not all(t.isdigit() for t in parts):
            raise forms.ValidationError(f"{p.label}: give 1 to 8 whole numbers separated by commas.")
        numbers = [int(t) for t in parts]
        for number in numbers:
            self._in_range(p, p.label, number)
        return numbers

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
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


def overrides_from_json(text: str) -> dict[str, Any]:
    """The advanced box: a JSON object of parameter: value, refused in words."""
    text = (text or "").strip()
    if not text:
        return {}
    if len(text) > 10_000:
        raise forms.ValidationError("That is too long for house rules (10,000 characters at most).")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise forms.ValidationError(
            f"This is not readable as house rules: look near line {exc.lineno}, character "
            f"{exc.colno}. Write them like {{\"going_out_bonus\": 200, \"rounds\": 3}}, with "
            "double quotes around names and commas between entries.") from exc
    if not isinstance(value, dict):
        raise forms.ValidationError(
            'House rules are a list of parameter: value in braces, like {"going_out_bonus": 200}.')
    unknown = sorted(set(value) - set(BY_NAME))
    if unknown:
        raise forms.ValidationError(
            f"Unknown house rule {unknown[0]!r}: the parameters are listed above the box.")
    return value


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

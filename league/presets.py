"""The rule presets by the names a club calls them (the engine knows them by short codes)."""

import json
from typing import Any

from django import forms

from handfoot.rules import PRESETS

PRESET_NAMES = {
    "classic": "Classic (13 + 13 cards, partner's permission to go out)",
    "pagat": "Pagat (red, black and wild books)",
    "six-deck": "Six decks (canastas grow past 7)",
    "canasta": "Canasta style (no wild melds, a frozen pile)",
    "eleven": "Eleven cards (11 + 11, books grow past 7)",
}


def preset_name(code: str) -> str:
    """"Classic (…)" for "classic"; an unknown code as it is."""
    return PRESET_NAMES.get(code, code)


PRESET_CHOICES = [(code, preset_name(code)) for code in PRESETS]


def rules_text(*, preset: str, overrides: dict[str, Any]) -> str:
    """The event's rules as the JSON a move log's `rules` and `simulate --rules` take."""
    spec: Any = {"preset": preset, "overrides": overrides} if overrides else preset
    return json.dumps(spec, indent=1, ensure_ascii=False)


def rules_from_text(text: str, *, preset: str) -> tuple[str, dict[str, Any]]:
    """(preset, overrides) from the "rules as JSON" box: what a move log's `rules` may be (a
    preset name, or {"preset": ..., "overrides": {...}}), or just the overrides of the
    event's preset ({"going_out_bonus": 250}). Refused in words."""
    from league.house_rules import overrides_checked, read_rules_json

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

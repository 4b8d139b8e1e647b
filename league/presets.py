"""The rule presets by the names a club calls them (the engine knows them by short codes)."""

import json
from typing import Any

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

"""House rules as a director sees them: every parameter of a preset, in words, with its preset
value and its range, and the changes of an event's rules in words. The form that turns typed
values into the engine's overrides is `league.forms.house_rules`.

Kinds and ranges come from the engine's own metadata (`handfoot.parameters.rule_parameters`), the
same numbers it enforces; this module only adds the words a page shows (labels, and each allowed
word of a choice in plain English). The engine stays the judge: whatever this form lets through
is checked again by `rules_from_spec`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from handfoot.errors import EngineError
from handfoot.parameters import rule_parameters
from handfoot.rules import PRESETS, ParamKind, rules_from_spec, rules_to_dict


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


def rules_summary_changes(preset: str, overrides: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(label, preset value, event value) of each changed parameter."""
    base = rules_to_dict(PRESETS[preset])
    try:
        current = rules_to_dict(rules_from_spec({"preset": preset, "overrides": overrides}))
    except EngineError:
        return []
    return [(p.label, value_words(p, base[p.name]), value_words(p, current[p.name]))
            for p in PARAMETERS if base[p.name] != current[p.name]]

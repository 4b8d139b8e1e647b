"""A part of a side's score is declared once (issue 43): `handfoot.rules` declares every part
(`SCORE_PARTS`), and no other module of the engine or the apps lists parts by name. A literal
(tuple, list, set or dict keys) holding two or more part names is such a list: derive it from
the declaration instead (`ENTERED_PARTS`, `SIDE_PARTS`, ...), so that a new part reaches it.
One name alone (a check about that part, a keyword) is not a list, nor is a literal of house
rules only (the rules `red_threes` and `going_out_bonus` share their names with parts)."""

import ast
from pathlib import Path

import pytest

from handfoot.rules import PARAMETERS, SCORE_PARTS
from tests.conftest import REPO_ROOT

PACKAGES = ("handfoot", "core", "web", "jobs", "league", "games", "analytics", "notifications",
            "site_pages", "config")
DECLARATION = "handfoot/rules.py"
PART_NAMES = frozenset(part.name for part in SCORE_PARTS)
RULE_NAMES = frozenset(PARAMETERS)


def part_lists(source: str) -> list[tuple[int, list[str]]]:
    """Each literal of `source` that holds two or more part names: its line and the names."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            items: list[ast.expr | None] = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = list(node.keys)
        else:
            continue
        words = [item.value for item in items
                 if isinstance(item, ast.Constant) and isinstance(item.value, str)]
        names = [word for word in words if word in PART_NAMES]
        if len(set(names)) >= 2 and not set(words) <= RULE_NAMES:
            found.append((node.lineno, names))
    return found


def _modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (REPO_ROOT / package).rglob("*.py")
                  if "migrations" not in path.parts)


def _listing() -> dict[str, list[tuple[int, list[str]]]]:
    found = {}
    for path in _modules():
        name = path.relative_to(REPO_ROOT).as_posix()
        lists = part_lists(path.read_text(encoding="utf-8"))
        if lists and name != DECLARATION:
            found[name] = lists
    return found


def test_no_module_but_the_declaration_lists_scoring_parts_by_name():
    assert _listing() == {}, "derive these from handfoot.rules.SCORE_PARTS"


@pytest.mark.parametrize("source", [
    'FIELDS = ("clean_books", "held_points")',
    'columns = ["score", "went_out", "red_threes"]',
    'LABELS = {"table_points": "Cards", "going_out_bonus": "Out"}',
    'check({"wild_books", "clean_bonus"})',
])
def test_a_literal_with_two_part_names_is_found(source):
    assert part_lists(source)


@pytest.mark.parametrize("source", [
    'side_score(rules, clean_books=1, held_points=5)',  # keywords name one part each
    'NAMES = tuple(part.name for part in ENTERED_PARTS)',
    'if side["went_out"] and side["held_points"]: pass',
    'RULES = {"going_out_bonus"}',
    'WORDING = {"red_threes": "Red 3s", "going_out_bonus": "Bonus for going out"}',  # rules
])
def test_a_single_name_or_a_derived_list_is_not(source):
    assert part_lists(source) == []

"""Issue 24: every refusal code the results app raises is declared once, with its one message,
in `games.errors`; no raise site in games names a code as a free string."""

import ast
from pathlib import Path

import pytest

from core.errors import Conflict, Invalid
from games.errors import MESSAGES, Code, message, refusal
from handfoot.errors import ErrorCode
from tests.conftest import REPO_ROOT

KINDS = {"DomainError", "Invalid", "Forbidden", "NotFound", "Conflict", "Gone", "Stale"}
GAMES = REPO_ROOT / "games"
NOT_YET: set[str] = set()  # every file of games is checked


def _sources() -> list[Path]:
    return [
        path
        for path in sorted(GAMES.rglob("*.py"))
        if "migrations" not in path.parts and str(path.relative_to(GAMES)) not in NOT_YET
    ]


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _raised_codes(path: Path) -> list[tuple[int, ast.expr]]:
    """(line, code expression) of every refusal built in the module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name == "refusal" and len(node.args) >= 2:
            found.append((node.lineno, node.args[1]))
        elif name in KINDS and node.args:
            found.append((node.lineno, node.args[0]))
    return found


def _registered(code: ast.expr) -> bool:
    """`Code.X` of the registry, or an engine code passed through (`err.code`, `error["code"]`),
    never a string written at the raise site."""
    if isinstance(code, ast.Attribute) and _name(code.value) == "Code":
        return code.attr in Code.__members__
    return not isinstance(code, ast.Constant | ast.JoinedStr)


def test_every_code_raised_in_games_is_in_the_registry():
    unregistered = [
        f"{path.relative_to(REPO_ROOT)}:{line}: {ast.unparse(code)}"
        for path in _sources()
        for line, code in _raised_codes(path)
        if not _registered(code)
    ]
    assert unregistered == []
    raised = {
        code.attr
        for path in _sources()
        for _, code in _raised_codes(path)
        if isinstance(code, ast.Attribute) and _name(code.value) == "Code"
    }
    assert len(raised) > 30  # the scan finds the raise sites


def test_every_code_has_one_message():
    assert set(MESSAGES) == set(Code)
    assert all(MESSAGES[code].strip() for code in Code)


def test_the_registry_names_the_engines_codes_only_where_it_raises_them_itself():
    shared = set(Code) & set(ErrorCode)
    assert shared == {"BAD_FORMAT", "BAD_RULES"}


def test_a_refusal_carries_its_code_kind_and_filled_message():
    refused = refusal(Invalid, Code.BAD_ROUND, rounds=4, round=7)
    assert isinstance(refused, Invalid) and refused.code == "BAD_ROUND"
    assert (
        refused.message == "A game under these rules has rounds 1 to 4; the sheet is for round 7."
    )
    assert refusal(Conflict, Code.EVENT_FINISHED, event="Cup").message == message(
        Code.EVENT_FINISHED, event="Cup"
    )
    with pytest.raises(KeyError):
        refusal(Invalid, Code.BAD_ROUND)  # a blank left unfilled is a bug, not a message

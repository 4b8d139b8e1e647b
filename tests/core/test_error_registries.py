"""Issue 24: the refusal codes of league, site_pages, analytics, core and web are each declared
once in their layer's registry (`league.errors.Code`, `site_pages.errors.Code`; analytics, core
and web raise none of their own), with one message each; no raise site names a code as a free
string. The results app has its own test (tests/games/test_error_codes.py). Issue 43: the HTTP
edge's codes (NOT_FOUND, FORBIDDEN, LOCKED_OUT, ...) are in `web.errors`, and no module of any
app writes an error body's code as a string."""

import ast
import string
from pathlib import Path

import pytest

from core.errors import Conflict, Invalid
from league import errors as league_errors
from notifications import errors as notifications_errors
from site_pages import errors as site_errors
from tests.conftest import REPO_ROOT
from web import errors as web_errors

KINDS = {"DomainError", "Invalid", "Forbidden", "NotFound", "Conflict", "Gone", "Stale"}
# The functions that take a registry code as their first or second argument.
CODE_TAKERS = {"refusal": 1, "_refuse": 0}
# (package, its registry or None for a package raising no refusal of its own)
PACKAGES = [("league", league_errors), ("site_pages", site_errors), ("analytics", None),
            ("core", None), ("web", web_errors), ("notifications", notifications_errors),
            ("jobs", None)]
# Modules whose codes are not in their registry yet (none).
NOT_YET: set[str] = set()


def _sources(package: str) -> list[Path]:
    return [path for path in sorted((REPO_ROOT / package).rglob("*.py"))
            if "migrations" not in path.parts
            and str(path.relative_to(REPO_ROOT)) not in NOT_YET]


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _imports_domain_kinds(tree: ast.Module) -> set[str]:
    """The refusal kinds the module takes from core.errors (not DRF's NotFound and the like)."""
    return {alias.asname or alias.name for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "core.errors"
            for alias in node.names if alias.name in KINDS}


def _raised_codes(path: Path) -> list[tuple[int, ast.expr]]:
    """(line, code expression) of every refusal built in the module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    kinds = _imports_domain_kinds(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name in CODE_TAKERS and len(node.args) > CODE_TAKERS[name]:
            found.append((node.lineno, node.args[CODE_TAKERS[name]]))
        elif name in kinds and node.args:
            found.append((node.lineno, node.args[0]))
    return found


def _registered(code: ast.expr, registry: object) -> bool:
    """`Code.X` of the package's registry, or a code passed through a parameter, never a string
    written at the raise site."""
    if isinstance(code, ast.Attribute) and _name(code.value) == "Code":
        return registry is not None and code.attr in registry.Code.__members__
    return not isinstance(code, ast.Constant | ast.JoinedStr)


@pytest.mark.parametrize(("package", "registry"), PACKAGES, ids=[p for p, _ in PACKAGES])
def test_every_code_raised_is_in_its_layers_registry(package, registry):
    unregistered = [
        f"{path.relative_to(REPO_ROOT)}:{line}: {ast.unparse(code)}"
        for path in _sources(package)
        for line, code in _raised_codes(path)
        if not _registered(code, registry)
    ]
    assert unregistered == []


def test_the_scan_finds_the_raise_sites():
    raised = {code.attr for path in _sources("league") for _, code in _raised_codes(path)
              if isinstance(code, ast.Attribute)}
    assert len(raised) > 50
    assert {"EVENT_FINISHED", "BAD_SEATING", "WRONG_CLUB"} <= raised


def test_the_scan_sees_a_free_string_code(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('from core.errors import Conflict\n'
                      'def f():\n    raise Conflict("EVENT_FINISHED", "The event is finished.")\n')
    assert [line for line, code in _raised_codes(module)
            if not _registered(code, league_errors)] == [3]


@pytest.mark.parametrize("registry", [league_errors, site_errors, web_errors],
                         ids=["league", "site_pages", "web"])
def test_every_code_has_one_message(registry):
    assert set(registry.MESSAGES) == set(registry.Code)
    assert all(registry.MESSAGES[code].strip() for code in registry.Code)
    assert all(code.value == code.name for code in registry.Code)


def test_every_code_is_raised_somewhere():
    """A code declared but raised nowhere is dead: declared codes are the ones in use."""
    used = {code.attr for package in ("league", "site_pages") for path in _sources(package)
            for _, code in _raised_codes(path) if isinstance(code, ast.Attribute)}
    used |= {value.attr for path in _sources("league") for value in ast.walk(ast.parse(
        path.read_text())) if isinstance(value, ast.Attribute) and _name(value.value) == "Code"}
    declared = set(league_errors.Code) | set(site_errors.Code)
    assert declared - used == set()


def test_event_finished_reads_the_same_wherever_it_is_raised():
    refusal = league_errors.refusal(Conflict, league_errors.Code.EVENT_FINISHED)
    assert refusal.code == "EVENT_FINISHED"
    assert refusal.message == "The event is finished: reopen the event first."


def test_a_refusal_fills_its_blanks_and_keeps_its_field():
    refusal = league_errors.refusal(Invalid, league_errors.Code.BAD_TABLE, field="table",
                                    rotation_number=2, table_number=9)
    assert (refusal.code, refusal.field) == ("BAD_TABLE", "table")
    assert refusal.message == "Rotation 2 has no table 9."


def test_every_message_names_its_blanks_plainly():
    for registry in (league_errors, site_errors):
        for code, text in registry.MESSAGES.items():
            blanks = [name for _, name, _, _ in string.Formatter().parse(text) if name]
            assert all(name.isidentifier() for name in blanks), code


APP_PACKAGES = ("core", "web", "jobs", "league", "games", "analytics", "notifications",
                "site_pages", "config")


def _code_literals(path: Path) -> list[str]:
    """Error bodies written by hand: a dict literal whose "code" is a string constant."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return [f"{path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path.name}:"
            f"{node.lineno}: {value.value}"
            for node in ast.walk(tree) if isinstance(node, ast.Dict)
            for key, value in zip(node.keys, node.values, strict=True)
            if isinstance(key, ast.Constant) and key.value == "code"
            and isinstance(value, ast.Constant) and isinstance(value.value, str)]


def test_no_module_writes_an_error_bodys_code_as_a_string():
    written = [found for package in APP_PACKAGES for path in _sources(package)
               for found in _code_literals(path)]
    assert written == []


def test_the_body_scan_sees_a_code_written_by_hand(tmp_path):
    module = tmp_path / "views.py"
    module.write_text('def f():\n    raise NotFound({"code": "NOT_FOUND", "message": "No."})\n')
    assert _code_literals(module) == ["views.py:2: NOT_FOUND"]


def test_every_edge_code_is_used_outside_its_registry():
    used = {node.attr for package in APP_PACKAGES for path in _sources(package)
            if path.name != "errors.py" or path.parent.name != "web"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Attribute) and _name(node.value) in ("EdgeCode", "Code")}
    assert set(web_errors.Code.__members__) - used == set()

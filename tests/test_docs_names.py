"""CONTRIBUTING.md and docs/architecture.md match the code (issue 43): every code name they quote
(`league.services.audit.audit_record`, `games.selectors`, `league.SideCredential`) exists, and
every file or folder they quote (`games/views/paper_form.py`, `league/models/`) is there."""

import importlib
import re
from pathlib import Path

import pytest
from django.apps import apps

from tests.conftest import REPO_ROOT

DOCS = ("CONTRIBUTING.md", "docs/architecture.md")
PACKAGES = ("analytics", "config", "core", "games", "handfoot", "jobs", "league", "notifications",
            "site_pages", "web")
_ROOTS = "|".join(PACKAGES)
DOTTED = re.compile(rf"`((?:{_ROOTS})(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")
PATH = re.compile(rf"`((?:{_ROOTS}|tests|bench|templates|static|docs|deploy|scripts)/[\w./<>-]*)`")


def resolves(name: str) -> bool:
    """A module, or an attribute reached from the longest module of the name; `app.Model` is a
    model of that Django app."""
    parts = name.split(".")
    if len(parts) == 2 and parts[1][:1].isupper() and parts[0] in PACKAGES:
        try:
            apps.get_model(parts[0], parts[1])
            return True
        except LookupError:
            pass
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def exists(path: str) -> bool:
    if "<" in path:  # a pattern (`<app>/services/<aggregate>.py`), not one file
        return True
    return (REPO_ROOT / path).exists()


@pytest.mark.parametrize("doc", DOCS)
def test_every_code_name_a_doc_quotes_exists(doc):
    text = (REPO_ROOT / doc).read_text()
    assert [name for name in sorted(set(DOTTED.findall(text))) if not resolves(name)] == []


@pytest.mark.parametrize("doc", DOCS)
def test_every_file_a_doc_quotes_is_there(doc):
    text = (REPO_ROOT / doc).read_text()
    assert [path for path in sorted(set(PATH.findall(text))) if not exists(path)] == []


def test_a_name_that_is_not_there_is_caught(tmp_path: Path):
    assert resolves("league.services.audit.audit_record")
    assert resolves("league.SideCredential")
    assert not resolves("league.services.audit.no_such_function")
    assert not resolves("games.no_such_module")
    assert not exists("games/views/no_such_page.py")

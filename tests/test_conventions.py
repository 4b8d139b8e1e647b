"""Conventions of docs/architecture.md that a linter does not check: URLs by name."""

import re

from tests.conftest import REPO_ROOT

CODE_DIRS = ("config", "core", "web", "handfoot", "jobs", "league", "games", "analytics",
             "notifications", "site_pages")


def test_templates_link_pages_by_url_name_not_by_path():
    literal = re.compile(r'(?:href|action)="/(?!static/)')
    found = [f"{path.relative_to(REPO_ROOT)}:{n}"
             for path in (REPO_ROOT / "templates").rglob("*.html")
             for n, line in enumerate(path.read_text().splitlines(), start=1)
             if literal.search(line)]
    assert found == []


def test_code_builds_page_urls_with_reverse_not_fstrings():
    fstring_path = re.compile(r'\bf["\']/[a-z]')
    found = [f"{path.relative_to(REPO_ROOT)}:{n}"
             for folder in CODE_DIRS for path in (REPO_ROOT / folder).rglob("*.py")
             for n, line in enumerate(path.read_text().splitlines(), start=1)
             if fstring_path.search(line)]
    assert found == []


def test_every_type_ignore_names_its_code_and_says_why():
    bare = re.compile(r"#\s*type:\s*ignore(?!\[[\w,-]+\]\s+#\s*\S)")
    found = [f"{path.relative_to(REPO_ROOT)}:{n}"
             for folder in (*CODE_DIRS, "scripts") for path in (REPO_ROOT / folder).rglob("*.py")
             for n, line in enumerate(path.read_text().splitlines(), start=1)
             if bare.search(line)]
    assert found == []

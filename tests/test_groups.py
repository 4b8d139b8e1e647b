"""The suite's own summary (tests/groups.py): a run whose reported tests are not the tests it
collected fails, so a parametrisation that collapses under xdist cannot pass unnoticed."""

import pytest

pytest_plugins = ["pytester"]

TWO_TESTS = """
def test_one():
    assert True

def test_two():
    assert True
"""

# Two items with one node id, as schemathesis's schema.parametrize() made them.
SAME_ID_TWICE = """
import pytest

def pytest_collection_modifyitems(items):
    first = items[0]
    twin = pytest.Function.from_parent(first.parent, name=first.name, callobj=first.obj)
    items.append(twin)
"""


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # Only the plugins these runs need are loaded (xdist where asked for): the installed ones
    # (Django, Playwright, hypothesis, schemathesis, ...) would take most of each run's time.
    return pytester.runpytest_subprocess("-p", "tests.groups", *args)


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    import pathlib

    monkeypatch.setenv("PYTHONPATH", str(pathlib.Path(__file__).resolve().parent.parent))
    monkeypatch.delenv("HANDFOOT_REQUIRE_ALL", raising=False)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makepyfile(test_two=TWO_TESTS)
    return pytester


def test_a_run_that_reports_every_collected_test_passes_and_says_so(suite):
    result = run(suite)
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*collected 2, reported 2*"])


def test_a_run_with_two_tests_of_one_id_fails_and_names_the_id(suite):
    suite.makeconftest(SAME_ID_TWICE)
    result = run(suite)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*collected 2 times: test_two.py::test_one*"])


def test_the_same_collapse_under_xdist_fails_too(suite):
    suite.makeconftest(SAME_ID_TWICE)
    result = run(suite, "-p", "xdist", "-n", "2")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*collected 2 times: test_two.py::test_one*"])

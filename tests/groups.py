"""Test groups that need more than Python: PostgreSQL, a real Celery worker on Redis, Chromium,
nginx (the production proxy).

A test joins a group with its marker (`postgres`, `worker`, `browser`). When the group cannot run
here, its tests are skipped with the reason, and the run ends with a summary of every group: how
many of its tests passed, failed or were skipped, and why. With HANDFOOT_REQUIRE_ALL=1 (CI) a
group that cannot run fails its tests instead, so nothing is skipped silently.

Loaded from tests/conftest.py (`pytest_plugins`).
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from functools import cache

import pytest

REQUIRE_ALL = "HANDFOOT_REQUIRE_ALL"


def chromium_path() -> str | None:
    """CHROMIUM_PATH, else the first Chromium on PATH."""
    configured = os.environ.get("CHROMIUM_PATH", "").strip()
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        if found := shutil.which(name):
            return found
    return None


@cache
def postgres_missing() -> str | None:
    """Why the suite does not run on PostgreSQL here (None: it does)."""
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        return None
    return os.environ.get("HANDFOOT_NO_POSTGRES") or (
        "DATABASE_URL is not a PostgreSQL URL: the suite ran on SQLite")


@cache
def worker_missing() -> str | None:
    """Why no real Celery worker can run here (None: it can)."""
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis"):
        return os.environ.get("HANDFOOT_NO_REDIS") or (
            "CELERY_BROKER_URL is not a Redis URL: tasks ran in-process")
    import redis

    try:
        redis.Redis.from_url(broker, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        return f"Redis does not answer at {broker}: {error}"
    return None


@cache
def browser_missing() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    if chromium_path() is None:
        where = os.environ.get("CHROMIUM_PATH")
        return (f"CHROMIUM_PATH={where} is not an executable" if where else
                "Chromium not found on PATH (install chromium or set CHROMIUM_PATH)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[dev]')"
    return None


@cache
def proxy_missing() -> str | None:
    """Why the reverse-proxy tests (nginx in front of gunicorn) cannot run here (None: they can)."""
    if shutil.which("nginx") is None and not os.access("/usr/sbin/nginx", os.X_OK):
        return "nginx not found (install nginx-light: production serves through it)"
    return None


GROUPS = {"postgres": ("PostgreSQL", postgres_missing), "worker": ("worker", worker_missing),
          "browser": ("browser", browser_missing), "proxy": ("proxy", proxy_missing)}


def missing_group(item: pytest.Item) -> tuple[str, str] | None:
    """The first group of the test that cannot run here: (label, reason)."""
    for marker, (label, missing) in GROUPS.items():
        if item.get_closest_marker(marker) and (reason := missing()):
            return label, reason
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if (found := missing_group(item)) is None:
        return
    label, reason = found
    if os.environ.get(REQUIRE_ALL) == "1":
        pytest.fail(f"the {label} group must run ({REQUIRE_ALL}=1), but {reason}", pytrace=False)
    pytest.skip(f"{label} group: {reason}")


class GroupSummary:
    """Counts the outcomes per group (in the controller when xdist runs the tests) and prints
    them at the end, with the reason for every group that did not run."""

    def __init__(self) -> None:
        self.outcomes: dict[str, str] = {}
        self.labels: dict[str, list[str]] = {}
        self.collected: list[str] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if session.items:  # a run without xdist (with xdist the controller collects nothing)
            self.collected = [item.nodeid for item in session.items]

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        self.collected = list(ids)  # every worker collects the same tests

    def uncounted(self) -> list[str]:
        """Why the tests that ran are not the tests collected: ids collected twice (xdist runs
        one of them), or collected and never reported."""
        problems = [f"collected {n} times: {nodeid}"
                    for nodeid, n in Counter(self.collected).items() if n > 1]
        missing = set(self.collected) - set(self.outcomes)
        problems += [f"collected but never run: {nodeid}" for nodeid in sorted(missing)]
        return problems

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed:
            outcome = "failed" if report.when == "call" else "errors"
        elif report.skipped and report.when in ("setup", "call"):
            outcome = "skipped"
        elif report.when == "call":
            outcome = "passed"
        else:
            return
        if self.outcomes.get(report.nodeid) not in ("failed", "errors"):
            self.outcomes[report.nodeid] = outcome
        self.labels[report.nodeid] = [
            label for marker, (label, _) in GROUPS.items() if marker in report.keywords
        ] or ["other"]

    def counts(self) -> dict[str, Counter]:
        counts = {label: Counter() for label, _ in (*GROUPS.values(), ("other", None))}
        for nodeid, outcome in self.outcomes.items():
            for label in self.labels[nodeid]:
                counts[label][outcome] += 1
        return counts

    def not_run(self) -> dict[str, str]:
        """Group -> why it did not run here (or why some of its tests were skipped)."""
        counts = self.counts()
        found = {label: reason for label, missing in GROUPS.values() if (reason := missing())}
        for label, _ in GROUPS.values():
            if counts[label]["skipped"] and label not in found:
                found[label] = "some of its tests were skipped (see the skip reasons above)"
        return found

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        write = terminalreporter.write_line
        terminalreporter.section("test groups")
        tasks = "Redis" if os.environ.get("CELERY_BROKER_URL", "").startswith("redis") else \
            "in-process"
        database = "PostgreSQL" if postgres_missing() is None else "SQLite (embedded)"
        write(f"database: {database}; Celery tasks: {tasks}")
        not_run = self.not_run()
        write(f"collected {len(self.collected)}, reported {len(self.outcomes)}")
        for problem in self.uncounted()[:20]:
            write(f"  {problem}", red=True)
        for label, counter in self.counts().items():
            figures = ", ".join(f"{n} {outcome}" for outcome, n in sorted(counter.items()))
            write(f"{label:>10}: {figures or 'no tests'}")
            if label in not_run:
                write(f"{'':>12}did not run: {not_run[label]}", yellow=True)
        if not_run:
            write(f"Groups that did not run: {', '.join(not_run)}. CI (.ci/run) needs them all.",
                  red=True, bold=True)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if session.exitstatus != 0:
            return
        if (os.environ.get(REQUIRE_ALL) == "1" and self.not_run()) or self.uncounted():
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist)
        config.pluginmanager.register(GroupSummary(), "handfoot-group-summary")

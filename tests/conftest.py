"""Shared fixtures. Tasks run in-process in tests unless a test starts a real worker."""

import os
import uuid
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
# The PostgreSQL, worker and browser groups: skipped here when they cannot run, and named in the
# summary at the end (or failed, with HANDFOOT_REQUIRE_ALL=1).
pytest_plugins = ["tests.groups"]


def shared_dir() -> Path:
    """The project's shared/ folder (specs and examples), a sibling of the repository."""
    return Path(os.environ.get("HANDFOOT_SHARED_DIR", REPO_ROOT.parent / "shared"))


# The spec's example files (shared/spec/examples) that the tests use, kept beside the tests so a
# clone runs them alone; tests/test_example_copies.py checks they equal the spec's when shared/
# is beside the repository.
EXAMPLES_DIR = REPO_ROOT / "tests" / "spec_examples"


# The files that take longest (tens of seconds to two minutes), longest first. They are started
# first, so that the parallel workers (pytest-xdist hands out a file at a time) end together
# instead of one of them starting the longest file last while the other has nothing left.
LONG_FILES = (
    "tests/site/test_browser_axe.py",
    "tests/site/test_demo.py",
    "tests/site/test_browser_csp.py",
    "tests/site/test_demo_move.py",
    "tests/site/test_browser_table_entry.py",
    "tests/config/test_login_lockout.py",
    "tests/site/test_browser_replay.py",
    "tests/site_pages/test_backup.py",
    "tests/site/test_browser_night_fixes.py",
    "tests/site/test_browser_director_room.py",
    "tests/site/test_browser_offline_queue.py",
    "tests/site/test_browser_league_night.py",
    "tests/analytics/test_worker_redis_outage.py",
    "tests/site/test_head.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: n for n, name in enumerate(LONG_FILES)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(LONG_FILES)))


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES_DIR


@pytest.fixture(autouse=True)
def _django_test_settings(request):
    """Run Celery tasks in-process (a real-worker test turns this off for itself), hash
    passwords fast and link static files unhashed. Pure tests
    (the engine's, the seating generator's) may run without pytest-django: nothing to do then."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from config.celery import app

    settings = request.getfixturevalue("settings")
    # Factories hash a password for every user; the real hasher's slowness buys tests nothing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # A page is drawn again at each new version, at once (the half-second pacing of a busy
    # night is tested on its own, tests/analytics/test_page_redraws.py).
    settings.PAGE_REDRAW_SECONDS = 0
    # Throttle counts start from nothing in every test (a private in-memory cache per test).
    settings.CACHES = {
        **settings.CACHES,
        "throttle": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"throttle-{uuid.uuid4().hex}",
        },
    }
    # Pages link static files by their plain names: the hashed names need a collectstatic,
    # which tests/site/test_static_delivery.py runs once to check what production serves.
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.JOBS_RUNNER = "inline"  # a job runs to its end before the request answers
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def director(db):
    from tests.factories import MembershipFactory

    return MembershipFactory(role="director").user


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()

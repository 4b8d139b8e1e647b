"""Fixtures of the public site's tests: fast logins, and Playwright pages on the live server."""

import os
from pathlib import Path

import pytest

from tests.groups import chromium_path
from tests.waiting import BROWSER_WAIT_MS

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TIMEOUT_MS = BROWSER_WAIT_MS  # generous: the suite must pass on a busy machine
DOC_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def screenshots(tmp_path) -> Path:
    """Where a test saves its pictures: docs/screenshots/ with HANDFOOT_SCREENSHOTS=1 (to renew
    the documentation's), else a folder of its own, so a test run leaves the checkout as it was."""
    if os.environ.get("HANDFOOT_SCREENSHOTS") == "1":
        DOC_SCREENSHOTS.mkdir(exist_ok=True)
        return DOC_SCREENSHOTS
    return tmp_path



@pytest.fixture(scope="session")
def chromium():
    """The system's Chromium (on PATH or CHROMIUM_PATH) driven by Playwright (sync API), one
    browser for the whole run. Only `browser` tests get here (see tests/groups.py)."""
    # Playwright's sync API runs an event loop in this thread; the tests still talk to the
    # database synchronously, which Django would otherwise refuse inside a running loop.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _page(chromium, live_server, viewport: dict, **options):
    context = chromium.new_context(viewport=viewport, base_url=live_server.url, **options)
    context.set_default_timeout(TIMEOUT_MS)
    return context, context.new_page()


@pytest.fixture
def desktop(chromium, live_server):
    context, page = _page(chromium, live_server, DESKTOP)
    yield page
    context.close()


@pytest.fixture
def phone(chromium, live_server):
    context, page = _page(chromium, live_server, PHONE, is_mobile=True, has_touch=True)
    yield page
    context.close()


def log_in(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()

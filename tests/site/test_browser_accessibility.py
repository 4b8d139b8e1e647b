"""The main pages in a real browser at phone width: no console errors, no failed requests, a
label on every form control, nothing wider than the screen."""

import pytest

from tests.site.conftest import log_in
from tests.site.demo import PASSWORD, build_demo, next_pending_game, side_entry_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Form controls without a name a screen reader could read out: no <label for>, no wrapping
# label, no aria-label / aria-labelledby.
UNLABELLED = """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby'))
  .map(el => el.outerHTML.slice(0, 120))"""
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def public_pages(demo) -> dict[str, str]:
    club, league, season = demo.club, demo.season.league, demo.season
    a, b = demo.players[0], demo.players[1]
    return {
        "home": "/",
        "club": f"/clubs/{club.slug}/",
        "league": f"/clubs/{club.slug}/leagues/{league.slug}/",
        "season": f"/clubs/{club.slug}/leagues/{league.slug}/seasons/{season.slug}/",
        "event": demo.event.get_absolute_url(),
        "event standings": f"/events/{demo.event.slug}/standings/",
        "season standings": f"/seasons/{season.pk}/standings/",
        "player": a.get_absolute_url(),
        "partnership": f"/partnerships/{club.slug}/{a.slug}/{b.slug}/",
        "head to head": f"/head-to-head/?club={club.slug}&a={a.slug}&b={b.slug}",
        "leaderboard": "/leaderboard/",
        "play": "/play/",
        "table entry": side_entry_url(next_pending_game(demo.event), 0),
        "login": "/accounts/login/",
    }


def check_pages(page, pages: dict[str, str]) -> list[str]:
    problems: list[str] = []
    current = {"name": ""}
    page.on("console", lambda message: message.type == "error" and problems.append(
        f"{current['name']}: console error {message.text}"))
    page.on("pageerror", lambda error: problems.append(f"{current['name']}: script error {error}"))
    # A request the browser itself cancels (a favicon still loading when the next page is
    # opened) is not a fault of the page; any other failure is.
    page.on("requestfailed", lambda request: request.failure != "net::ERR_ABORTED" and
            problems.append(f"{current['name']}: request failed {request.url} ({request.failure})"))
    page.on("response", lambda response: response.status >= 400 and problems.append(
        f"{current['name']}: {response.status} {response.url}"))
    for name, url in pages.items():
        current["name"] = name
        response = page.goto(url)
        page.wait_for_load_state("networkidle")
        assert response is not None and response.ok, f"{name}: {url} answered {response and response.status}"
        problems += [f"{name}: no label for {html}" for html in page.evaluate(UNLABELLED)]
        overflow = page.evaluate(OVERFLOW)
        if overflow > 0:
            problems.append(f"{name}: {overflow}px wider than the screen")
        if page.locator("h1").count() != 1:
            problems.append(f"{name}: {page.locator('h1').count()} h1 headings")
    return problems


def test_public_pages_are_clean_labelled_and_fit_a_phone(phone):
    demo = build_demo(past_nights=1)

    assert check_pages(phone, public_pages(demo)) == []


def test_director_pages_are_clean_labelled_and_fit_a_phone(phone):
    demo = build_demo()
    log_in(phone, demo.director_username, PASSWORD)
    slug = demo.event.slug
    pages = {
        "director home": "/director/",
        "director event": f"/director/events/{slug}/",
        "create event": "/director/events/new/",
        "event settings": f"/director/events/{slug}/edit/",
        "director club": f"/director/clubs/{demo.club.slug}/",
        "results": f"/director/events/{slug}/results/",
        "table cards": f"/events/{slug}/table-cards/",
    }

    assert check_pages(phone, pages) == []

"""Every page passes axe-core (the accessibility engine, bundled by the axe-playwright-python
package) with no serious or critical violation, on a 360 px phone and on a desktop; no page is
wider than a 360 px screen, and a table too wide for it scrolls inside a labelled region that a
keyboard reaches.

The pages: every public page (a logged game's replay among them), a side's entry page, every
director page (a running night with a dispute, a dispute a move log settles, the director's
invitations, another night's registrations and draft seating, house rules, history, results,
table cards, a side's code), a page not found, a refusal and a page not allowed. With `HANDFOOT_AXE_REPORT=1` and `-s`
each page's violations (every impact) are printed.
"""

import os

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from config.page_errors import DomainErrorMiddleware
from core.errors import Conflict
from tests.site.conftest import DESKTOP, TIMEOUT_MS, log_in
from tests.site.demo import PASSWORD, build_demo, side_entry_url
from tests.site.test_browser_accessibility import (
    OVERFLOW,
    SMALL_PHONE,
    director_pages,
    disputed_game,
    draft_event,
    log_disputed_game,
    public_pages,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SERIOUS = {"serious", "critical"}
AXE = Axe()
REPORT = os.environ.get("HANDFOOT_AXE_REPORT") == "1"
# The tables that scroll sideways: each with its name (empty when it has none), whether a
# keyboard reaches it and whether it is a region.
SCROLLING_TABLES = """() => [...document.querySelectorAll('.table-wrap')]
  .filter(el => el.scrollWidth > el.clientWidth)
  .map(el => ({name: el.getAttribute('aria-label') || '', focusable: el.tabIndex >= 0,
               region: el.getAttribute('role') === 'region'}))"""


def axe_problems(page, name: str) -> list[str]:
    violations = AXE.run(page).response["violations"]
    if REPORT:
        print(f"{page.viewport_size['width']}px {name}: {len(violations)} violations",
              [(v["impact"], v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations])
    return [f"{name}: {v['impact']} {v['id']} ({v['help']}) at "
            + "; ".join(str(node["target"]) for node in v["nodes"][:4])
            for v in violations if v["impact"] in SERIOUS]


def fit_problems(page, name: str) -> list[str]:
    problems = []
    if page.viewport_size["width"] <= SMALL_PHONE["width"] and (overflow := page.evaluate(OVERFLOW)) > 0:
        problems.append(f"{name}: {overflow}px wider than a 360 px screen")
    for table in page.evaluate(SCROLLING_TABLES):
        if not (table["name"] and table["focusable"] and table["region"]):
            problems.append(f"{name}: a table scrolls sideways outside a labelled, focusable region")
        if table["name"] == "Entrants":
            problems.append(f"{name}: the entrants table does not fit (its withdraw column cut off)")
    return problems


def scan(page, pages: dict[str, str]) -> list[str]:
    """Open each page, run axe on it and measure it: the problems in words."""
    problems: list[str] = []
    for name, url in pages.items():
        page.goto(url)
        page.wait_for_load_state("networkidle")
        problems += axe_problems(page, f"{name} ({url})") + fit_problems(page, f"{name} ({url})")
    return problems


def refusal_html() -> str:
    """The page a refusal that no page handled itself becomes (config.page_errors), as the
    server draws it for a visitor."""
    request = RequestFactory().get("/director/")
    request.user = AnonymousUser()
    refusal = Conflict("EVENT_FINISHED", "The event is finished and can no longer change.")
    response = DomainErrorMiddleware(lambda _: None).process_exception(request, refusal)
    assert response is not None and response.status_code == 409
    return response.content.decode()


def refusal_problems(page) -> list[str]:
    """The refusal page in the browser, at an address of the site (so its styles load)."""
    url = "/refused-for-the-scan/"
    page.route(f"**{url}", lambda route: route.fulfill(status=409, content_type="text/html",
                                                        body=refusal_html()))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.unroute(f"**{url}")
    assert page.get_by_role("heading", level=1).inner_text() == "Not done"
    return axe_problems(page, "refused") + fit_problems(page, "refused")


@pytest.mark.parametrize("viewport", [SMALL_PHONE, DESKTOP], ids=["360px", "desktop"])
def test_every_page_passes_axe_and_fits_a_360px_screen(chromium, live_server, viewport):
    demo = build_demo(past_nights=1)
    dispute, draft = disputed_game(demo), draft_event(demo)
    phone = viewport is SMALL_PHONE
    # axe is test tooling injected into the page: the site's Content-Security-Policy (no inline
    # scripts) is bypassed for it alone.
    context = chromium.new_context(viewport=viewport, base_url=live_server.url, bypass_csp=True,
                                   is_mobile=phone, has_touch=phone)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        entry = side_entry_url(dispute, 1)
        problems = scan(page, {**public_pages(demo), "side's entry": entry,
                               "not found": "/clubs/no-such-club/"})
        assert page.get_by_role("heading", level=1).inner_text() == "Page not found"
        problems += refusal_problems(page)
        log_dispute = log_disputed_game(demo)  # the table the public scan entered at
        log_in(page, demo.director_username, PASSWORD)
        problems += scan(page, director_pages(demo, dispute, draft, log_dispute))
        context.clear_cookies()
        log_in(page, "scorer", PASSWORD)  # a scorer may not change the event's settings
        problems += scan(page, {"not allowed": f"/director/events/{demo.event.slug}/edit/"})
        assert page.get_by_role("heading", level=1).inner_text() == "Not allowed"
    finally:
        context.close()

    assert problems == []

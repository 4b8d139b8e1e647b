"""Every page passes axe-core (the accessibility engine, bundled by the axe-playwright-python
package) with no serious or critical violation, on a 360 px phone and on a desktop; no page is
wider than a 360 px screen, and a table too wide for it scrolls inside a labelled region that a
keyboard reaches. On the phone each page also loads with no console error, no failed request
and no error answer, has a label on every form control and one h1 (tests/site/browser_pages.py).
One demo serves both screens: each page is opened on the phone, then on the desktop.

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
from tests.site.browser_pages import (
    OVERFLOW,
    SMALL_PHONE,
    director_pages,
    disputed_game,
    draft_event,
    form_problems,
    import_job_page,
    log_disputed_game,
    public_pages,
    watch,
)
from tests.site.conftest import DESKTOP, TIMEOUT_MS, log_in
from tests.site.demo import PASSWORD, build_demo, side_entry_url

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


class Screens:
    """The phone and the desktop, each its own browser (context), opened side by side. What
    goes wrong while the phone loads a page is collected in `loading` under the page's name."""

    def __init__(self, chromium, base_url: str) -> None:
        self.loading: list[str] = []
        self.current = {"name": ""}
        self.pages = [self._open(chromium, base_url, SMALL_PHONE), self._open(chromium, base_url, DESKTOP)]
        watch(self.phone, self.loading, self.current)

    @staticmethod
    def _open(chromium, base_url: str, viewport: dict):
        phone = viewport is SMALL_PHONE
        # axe is test tooling injected into the page: the site's Content-Security-Policy (no
        # inline scripts) is bypassed for it alone.
        context = chromium.new_context(viewport=viewport, base_url=base_url, bypass_csp=True,
                                       is_mobile=phone, has_touch=phone)
        context.set_default_timeout(TIMEOUT_MS)
        return context.new_page()

    @property
    def phone(self):
        return self.pages[0]

    def log_in(self, username: str) -> None:
        for page in self.pages:
            page.context.clear_cookies()
            log_in(page, username, PASSWORD)

    def scan(self, pages: dict[str, str]) -> list[str]:
        """Open each page on both screens and check it: the problems in words."""
        problems: list[str] = []
        for name, url in pages.items():
            self.current["name"] = name
            for page in self.pages:
                label = f"{name} ({url}, {page.viewport_size['width']}px)"
                page.goto(url)
                if page is self.phone:
                    # Late requests (a live page's first poll) are checked too.
                    page.wait_for_load_state("networkidle")
                    problems += form_problems(page, label)
                problems += axe_problems(page, label) + fit_problems(page, label)
        return problems

    def headings(self) -> set[str]:
        return {page.get_by_role("heading", level=1).inner_text() for page in self.pages}

    def close(self) -> None:
        for page in self.pages:
            page.context.close()


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


def test_every_page_passes_axe_and_fits_a_360px_phone_and_a_desktop(chromium, live_server):
    demo = build_demo(past_nights=1)
    dispute, draft = disputed_game(demo), draft_event(demo)
    screens = Screens(chromium, live_server.url)
    try:
        entry = side_entry_url(dispute, 1)
        problems = screens.scan({**public_pages(demo), "side's entry": entry,
                                 "not found": "/clubs/no-such-club/"})
        assert screens.headings() == {"Page not found"}
        screens.current["name"] = "refused"
        problems += [p for page in screens.pages for p in refusal_problems(page)]
        log_dispute = log_disputed_game(demo)  # the table the public scan entered at
        screens.log_in(demo.director_username)
        problems += screens.scan(director_pages(demo, dispute, draft, log_dispute,
                                                import_job_page(demo)))
        screens.log_in("scorer")  # a scorer may not change the event's settings
        problems += screens.scan({"not allowed": f"/director/events/{demo.event.slug}/edit/"})
        assert screens.headings() == {"Not allowed"}
    finally:
        screens.close()

    # The page not found, the refusal and the page not allowed answer so on purpose.
    expected = {"not found": "404", "refused": "409", "not allowed": "403"}
    loading = [p for p in screens.loading
               if not any(p.startswith(f"{name}: ") and status in p for name, status in expected.items())]
    assert problems + loading == []

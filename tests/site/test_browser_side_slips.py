"""Issue 22, finding 2 in a real browser: printed to PDF, the table card and each side's slip
are on pages of their own (so each side can be handed only its own code); at 360 px the
director shows one side's QR code at a time, and the next side's is one press away."""

import io

import pytest
from pypdf import PdfReader

from league.services.credentials import printed_code, side_credentials_ensure
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.factories import games_of, seated_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_360 = {"width": 360, "height": 780}
PASSWORD = "pw-director-1"


@pytest.fixture
def event(director):
    director.set_password(PASSWORD)
    director.save()
    return seated_event(club=director.memberships.get().club)


def browser_page(chromium, live_server, viewport):
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    return context, context.new_page()


def test_printed_the_card_and_each_sides_slip_are_separate_pages(chromium, live_server,
                                                                 director, event):
    context, page = browser_page(chromium, live_server, {"width": 1280, "height": 900})
    try:
        log_in(page, director.username, PASSWORD)
        page.goto(f"/events/{event.slug}/table-cards/?rotation=1")
        page.emulate_media(media="print")
        pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    finally:
        context.close()
    texts = [" ".join(p.extract_text().split()) for p in pdf.pages]
    games = games_of(event)
    credentials = side_credentials_ensure(games=games)
    codes = [printed_code(c.code) for g in games for c in credentials[g.pk]]
    # Two tables: a card, then one page per side's slip, for each: 6 pages, none blank.
    assert len(texts) == 6, texts
    assert all(text.strip() for text in texts)
    for n, text in enumerate(texts):
        on_page = [code for code in codes if code in text]
        if n % 3 == 0:
            assert on_page == [] and f"Table {n // 3 + 1}" in text  # the card: seating only
            assert "First dealer" in text
        else:
            assert on_page == [codes[n - 1 - n // 3]], (n, text)  # one slip, one code
            assert f"For side {n % 3} only" in text


def test_at_360_px_the_director_shows_one_sides_code_at_a_time(chromium, live_server,
                                                               director, event):
    context, page = browser_page(chromium, live_server, PHONE_360)
    try:
        log_in(page, director.username, PASSWORD)
        page.goto(f"/director/events/{event.slug}/")
        page.get_by_role("link", name="show side 1's code").first.click()
        page.wait_for_load_state()
        game = games_of(event)[0]
        first, second = side_credentials_ensure(games=[game])[game.pk]
        slip = page.locator("#side-slip")
        assert printed_code(first.code) in slip.inner_text()
        assert printed_code(second.code) not in page.inner_text("body")
        assert slip.locator("svg[role=img]").is_visible()
        box = slip.locator("svg[role=img]").bounding_box()
        assert box["width"] >= 150  # big enough to scan from the director's phone
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
        page.get_by_role("link", name="Show side 2's code").click()
        page.wait_for_load_state()
        assert printed_code(second.code) in page.locator("#side-slip").inner_text()
        assert printed_code(first.code) not in page.inner_text("body")
        page.goto(f"/events/{event.slug}/table-cards/?rotation=1")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    finally:
        context.close()

"""Printable score sheets in a real browser: printed to PDF from the rotation's table cards,
each table's sheet is one page holding its players by side, each round's dealer and minimum
meld and the books needed to go out; on screen the page passes axe and fits 360 px. Saves a
picture of a printed sheet (docs/screenshots/score-sheet.png) for the closing note."""

import io

import pytest
from pypdf import PdfReader

from games.services import event_rules
from league.models import Seat
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.factories import games_of, seated_event
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-director-1"


@pytest.fixture
def event(director):
    director.set_password(PASSWORD)
    director.save()
    return seated_event(players=12, club=director.memberships.get().club)


def open_page(chromium, live_server, viewport):
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    return context, context.new_page()


def seat_names(game):
    return {
        s.seat_number: s.player.name
        for s in Seat.objects.filter(table__game=game).select_related("player")
    }


def test_printed_each_table_is_one_page_with_its_names_dealers_and_minimum_melds(
    chromium, live_server, director, event, screenshots
):
    shot = screenshots / "score-sheet.png"
    context, page = open_page(chromium, live_server, {"width": 1280, "height": 900})
    try:
        log_in(page, director.username, PASSWORD)
        page.goto(f"/events/{event.slug}/table-cards/?rotation=1")
        page.get_by_role("link", name="Print its score sheet").click()
        page.wait_for_load_state()
        page.emulate_media(media="print")
        pdf_bytes = page.pdf(format="A4")
        page.set_viewport_size({"width": 794, "height": 1123})
        page.locator(".score-sheet").first.screenshot(path=str(shot))
    finally:
        context.close()
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf_bytes)).pages]
    games = games_of(event)
    rules = event_rules(event=event)
    assert len(pages) == len(games) == 3, pages
    for number, (text, game) in enumerate(zip(pages, games, strict=True), start=1):
        names = seat_names(game)
        assert f"Table {number} score sheet" in text
        assert (
            f"Side 1: {names[0]} & {names[2]}" in text
            and f"Side 2: {names[1]} & {names[3]}" in text
        )
        other = {n for g in games if g != game for n in seat_names(g).values()}
        assert not any(n in text for n in other)  # only this table's players
        for r in range(1, rules.rounds + 1):
            dealer = names[(game.first_dealer + r - 1) % 4]
            assert f"Round {r} Dealer: {dealer} Minimum meld {rules.meld_minimum(r)}" in text
        assert "To go out a side needs 2 clean, 2 dirty and 1 wild book" in text
        for box in (
            "Clean books",
            "Dirty books",
            "Red 3s",
            "Went out",
            "Points on the table",
            "Round total",
            "Game total",
        ):
            assert box in text
    assert shot.stat().st_size > 10_000


def test_on_screen_the_sheets_pass_axe_and_fit_360_px(chromium, live_server, director, event):
    context, page = open_page(chromium, live_server, {"width": 360, "height": 780})
    try:
        log_in(page, director.username, PASSWORD)
        page.goto(f"/director/events/{event.slug}/score-sheets/")
        page.wait_for_load_state("networkidle")
        problems = axe_problems(page, "score sheets") + fit_problems(page, "score sheets")
        other = page.goto(f"/director/events/{event.slug}/score-sheets/?rotation=9")
    finally:
        context.close()
    assert problems == []
    assert other.status == 404

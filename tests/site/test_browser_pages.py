"""The public pages in a real browser: live standings, phone layout, keyboard use."""

import pytest
from playwright.sync_api import expect

from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.demo import PASSWORD, build_demo, next_pending_game, play_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_event_standings_follow_a_confirmed_result_without_a_reload(desktop):
    demo = build_demo()
    desktop.goto(demo.event.get_absolute_url())
    standings = desktop.locator("#live-standings")
    before = standings.inner_text()
    desktop.evaluate("window.notReloaded = true")

    play_game(next_pending_game(demo.event), seed=99)

    desktop.wait_for_function(
        "before => document.querySelector('#live-standings').innerText !== before",
        arg=before, timeout=TIMEOUT_MS,
    )
    assert desktop.evaluate("window.notReloaded") is True
    assert "3 confirmed games" in standings.inner_text()


def test_event_page_fits_a_phone_screen(phone):
    demo = build_demo()

    phone.goto(demo.event.get_absolute_url())

    assert phone.get_by_role("heading", name="Rotation 2").is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    first_table = phone.locator(".table-plan").first
    assert first_table.locator(".seat").count() == 4
    assert first_table.locator(".seat.dealer").count() == 1


def test_skip_link_takes_keyboard_users_to_the_content(desktop):
    build_demo(played_rotations=0, start_next=False)
    desktop.goto("/")

    desktop.keyboard.press("Tab")
    skip = desktop.get_by_role("link", name="Skip to content")
    assert skip.evaluate("el => el === document.activeElement")
    desktop.keyboard.press("Enter")

    assert desktop.evaluate("location.hash") == "#main"


def test_director_prints_table_cards_with_a_scannable_link(desktop):
    demo = build_demo()
    log_in(desktop, demo.director_username, PASSWORD)

    desktop.goto(demo.event.get_absolute_url())
    desktop.get_by_role("link", name="Print table cards").last.click()

    cards = desktop.locator("article.table-card")
    # The click returns once the new address is committed, before the cards are drawn: wait for them.
    expect(cards).to_have_count(2)
    # The card has the seating; each side's QR code is on a slip of its own, under its players.
    assert cards.first.locator("svg[role=img]").count() == 0
    slips = desktop.locator("article.side-slip")
    assert slips.count() == 4
    assert slips.first.locator("h2").inner_text().startswith("Side 1: ")
    assert all(slip.locator("svg[role=img]").count() == 1 for slip in slips.all())
    assert all(svg.is_visible() for svg in slips.locator("svg[role=img]").all())
    desktop.emulate_media(media="print")
    assert desktop.locator(".site-header").is_hidden()

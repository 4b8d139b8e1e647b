"""The replay viewer in a real browser: stepping through a simulated game of each preset (four
and six players), jumping from the timeline and from a shared address, one seat's view, the
keyboard, axe-core, a 360 px phone; screenshots for docs/screenshots/."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse

from handfoot import replay_log
from tests.games.test_replay_pages import SIX, logged_game
from tests.site.conftest import DESKTOP, TIMEOUT_MS
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOW = "#replay-now"


def open_replay(page, game, hash_=""):
    page.goto(reverse("game-replay", args=[game.pk]) + hash_)
    page.wait_for_selector("#replay:not([hidden])")
    return page


def now(page):
    return page.locator(NOW).inner_text()


@pytest.mark.parametrize(("slugs", "seats"), [(("ann", "ben", "cat", "dan"), 4), (SIX, 6)])
def test_stepping_through_a_game_by_event_turn_and_round(desktop, slugs, seats):
    open_replay(desktop, logged_game(slugs=slugs, seed=7))
    assert desktop.locator(".replay-seat").count() == seats
    assert now(desktop).startswith("Round 1, turn 0, step 0 of ")
    assert "The deal" in now(desktop)
    stock_at_deal = desktop.locator(".replay-centre").inner_text()

    desktop.get_by_role("button", name="Step →").click()
    assert "step 1 of" in now(desktop) and "Ann draws" in now(desktop)
    assert desktop.url.endswith("#r1-s1")
    assert desktop.locator(".replay-centre").inner_text() != stock_at_deal  # a card was drawn

    desktop.get_by_role("button", name="Turn ›").click()
    assert ", turn 2, " in now(desktop)
    desktop.get_by_role("button", name="Round »").click()
    assert now(desktop).startswith("Round 2, turn 0, step 0")
    desktop.get_by_role("button", name="← Step").click()
    assert now(desktop).startswith("Round 1, ")  # back into the end of round 1
    assert "Round 1: Side 1 " in desktop.locator("#replay-moments li.now").last.inner_text()
    # cards are drawn as cards and named for screen readers
    first = desktop.locator(".replay-seat .pc").first
    assert first.locator(".visually-hidden").inner_text().split(" of ")[-1] in {
        "spades", "hearts", "diamonds", "clubs"} or first.inner_text() == "joker"


@pytest.mark.parametrize(("preset", "slugs"), [
    ("classic", SIX), ("pagat", ("ann", "ben", "cat", "dan")), ("six-deck", SIX),
    ("canasta", ("ann", "ben", "cat", "dan")), ("eleven", ("ann", "ben", "cat", "dan"))])
def test_each_rounds_last_step_shows_the_engines_round_score(desktop, preset, slugs):
    game = logged_game(slugs=slugs, seed=3, preset=preset)
    log = game.submissions.get().document
    report = replay_log(log)
    assert report.valid, report.error
    open_replay(desktop, game)
    for number, (round_log, engine) in enumerate(zip(log["rounds"], report.rounds, strict=True), start=1):
        last = len(round_log["events"])
        desktop.evaluate(f"location.hash = '#r{number}-s{last}'")
        desktop.wait_for_function("n => document.querySelector('#replay-now').textContent"
                                  ".includes('step ' + n + ' of ' + n)", arg=last)
        shown = [int(t.split()[0].replace("\u2212", "-").replace(",", ""))
                 for t in desktop.locator(".replay-score").all_inner_texts()]
        assert shown == [side.score for side in engine.sides], (preset, number)


def test_jump_from_the_timeline_and_from_a_shared_address(desktop):
    game = logged_game(seed=8)
    open_replay(desktop, game)
    moment = desktop.locator("#replay-moments a", has_text="takes the pile").first
    target = moment.get_attribute("href")
    moment.click()
    assert desktop.url.endswith(target)
    step = int(target.split("-s")[1])
    # The page moves on the hash change, after the click returns: wait for it.
    desktop.wait_for_function("n => document.querySelector('#replay-now').textContent"
                              ".includes('step ' + n + ' of ')", arg=step)
    assert f"step {step} of" in now(desktop) and "takes the pile" in now(desktop)

    other = desktop.context.new_page()
    open_replay(other, game, "#r3-s20")
    assert other.locator(NOW).inner_text().startswith("Round 3, ") and "step 20 of" in other.locator(NOW).inner_text()
    assert other.get_by_role("button", name="Round 3").get_attribute("aria-pressed") == "true"
    other.close()


def test_one_seats_view_hides_the_other_hands(desktop):
    open_replay(desktop, logged_game(seed=9), "#r1-s10")
    everyone = desktop.locator(".replay-seat .pc-list").count()
    desktop.get_by_label("Show").select_option(label="from seat 2's view (Ben)")
    seats = desktop.locator(".replay-seat")
    assert seats.nth(1).locator(".pc-list").count() >= 1
    for i in (0, 2, 3):
        assert seats.nth(i).locator(".pc-list").count() == 0
        assert "(hidden)" in seats.nth(i).inner_text()
    assert desktop.locator(".replay-seat .pc-list").count() < everyone
    desktop.get_by_label("Four-colour cards").check()
    assert "four-colour" in desktop.locator("#replay").get_attribute("class")


def test_keyboard_steps_turns_rounds_and_ends(desktop):
    open_replay(desktop, logged_game(seed=10))
    desktop.locator("h1").click()
    desktop.keyboard.press("ArrowRight")
    desktop.keyboard.press("ArrowRight")
    assert desktop.url.endswith("#r1-s2")
    desktop.keyboard.press("ArrowLeft")
    assert desktop.url.endswith("#r1-s1")
    desktop.keyboard.press("End")
    total = now(desktop).split(" of ")[1].split(":")[0]
    assert f"step {total} of {total}" in now(desktop)
    desktop.keyboard.press("Home")
    assert desktop.url.endswith("#r1-s0")
    desktop.keyboard.press("PageDown")
    assert desktop.url.endswith("#r2-s0")
    desktop.keyboard.press("ArrowDown")
    assert ", turn 1, " in now(desktop)


def test_replay_passes_axe_fits_a_phone_and_is_photographed(chromium, live_server, desktop,
                                                            screenshots):
    game = logged_game(seed=1)
    open_replay(desktop, game, "#r1-s60")
    results = Axe().run(desktop)
    serious = [v["id"] for v in results.response["violations"] if v["impact"] in {"serious", "critical"}]
    assert serious == []
    desktop.set_viewport_size(DESKTOP)
    desktop.locator("#replay").screenshot(path=str(screenshots / "replay-desktop.png"))

    context = chromium.new_context(viewport={"width": 360, "height": 780}, base_url=live_server.url,
                                   is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    phone = context.new_page()
    open_replay(phone, game, "#r1-s60")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    results = Axe().run(phone)
    assert [v["id"] for v in results.response["violations"] if v["impact"] in {"serious", "critical"}] == []
    phone.locator("#replay").screenshot(path=str(screenshots / "replay-360.png"))
    context.close()


CARD_CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")


def test_on_a_phone_the_steps_stay_on_screen_cards_are_words_and_the_deal_explained(chromium,
                                                                                    live_server):
    context = chromium.new_context(viewport={"width": 360, "height": 740}, base_url=live_server.url,
                                   is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        open_replay(page, logged_game(seed=8))
        side = page.locator(".replay-side").first.inner_text()
        assert "Until it lays down, the cards its players hold count against it: that is the \u2212" in side
        assert "if the round ended now" in side
        # read down past the hands and melds to the round's moments: the steps are still there
        page.locator("#moments-title").scroll_into_view_if_needed()
        step = page.get_by_role("button", name="Step →")
        box = step.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740
        step.click()
        assert "step 1 of" in now(page)
        words = page.locator(".replay-static").inner_text()
        assert "takes the pile" in words and CARD_CODE.findall(words) == []
        assert re.search(r"(ace|king|queen|jack|\d+) of (hearts|spades|diamonds|clubs)", words)
        problems = axe_problems(page, "replay at 360 px") + fit_problems(page, "replay at 360 px")
    finally:
        context.close()
    assert problems == []

"""Screenshots of the main pages at phone and desktop width into docs/screenshots/.

Runs only with HANDFOOT_SCREENSHOTS=1, so CI never rewrites the committed images.
"""

import os
from pathlib import Path

import pytest

from tests.site.conftest import DESKTOP, PHONE, log_in
from tests.site.demo import PASSWORD, build_demo, next_pending_game, side_entry_url

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(os.environ.get("HANDFOOT_SCREENSHOTS") != "1",
                       reason="set HANDFOOT_SCREENSHOTS=1 to rewrite docs/screenshots/"),
]

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def main_pages(demo) -> dict[str, str]:
    league = demo.season.league
    return {
        "home": "/",
        "club": f"/clubs/{demo.club.slug}/",
        "season": f"/clubs/{demo.club.slug}/leagues/{league.slug}/seasons/{demo.season.slug}/",
        "event": demo.event.get_absolute_url(),
        "player": demo.players[0].get_absolute_url(),
        "leaderboard": "/leaderboard/",
    }


def test_screenshots_of_the_main_pages(desktop, phone):
    # The run command's demo: a season of nights, two finished tournaments, tonight running.
    demo = build_demo(past_nights=3, player_count=16, tournament=True)
    OUT.mkdir(parents=True, exist_ok=True)
    for width, page in (("desktop", desktop), ("phone", phone)):
        for name, url in main_pages(demo).items():
            page.goto(url)
            page.wait_for_load_state("networkidle")
            page.screenshot(path=OUT / f"{name}-{width}.png", full_page=True)
    phone.goto(side_entry_url(next_pending_game(demo.event), 0))
    phone.wait_for_load_state()
    phone.screenshot(path=OUT / "table-entry-phone.png", full_page=True)
    log_in(desktop, demo.director_username, PASSWORD)
    desktop.goto(f"/director/events/{demo.event.slug}/")
    desktop.screenshot(path=OUT / "director-event-desktop.png", full_page=True)
    desktop.goto(f"/events/{demo.event.slug}/table-cards/?rotation=2")
    desktop.screenshot(path=OUT / "table-cards-desktop.png", full_page=True)
    assert PHONE["width"] < DESKTOP["width"]

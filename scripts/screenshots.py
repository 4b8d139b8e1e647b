"""Regenerate docs/screenshots/ from today's pages: `make screenshots`.

Builds the run command's demo in a fresh embedded database (a temporary folder: SQLite, tasks
in-process), serves the site on a free local port and photographs the main pages at phone and
desktop width with the system's Chromium (on PATH or CHROMIUM_PATH) through Playwright.
HANDFOOT_TODAY=YYYY-MM-DD moves the demo's dates; its content is the same on every day.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from site_pages.demo import Demo

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium() -> str:
    path = os.environ.get("CHROMIUM_PATH") or next(
        filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    if not path:
        sys.exit("Chromium not found: install chromium or set CHROMIUM_PATH.")
    return path


def serve() -> str:
    """The site on a free port of 127.0.0.1, in a background thread; returns its address."""
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler)
    server.set_app(get_wsgi_application())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def pages(demo: Demo) -> dict[str, str]:
    league = demo.season.league
    return {
        "home": "/",
        "club": f"/clubs/{demo.club.slug}/",
        "season": f"/clubs/{demo.club.slug}/leagues/{league.slug}/seasons/{demo.season.slug}/",
        "event": demo.event.get_absolute_url(),
        "player": demo.players[0].get_absolute_url(),
        "leaderboard": "/leaderboard/",
    }


def shoot(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.screenshot(path=OUT / f"{name}.png", full_page=True)
    print(f"  docs/screenshots/{name}.png")


def director_pages(desktop: Page, demo: Demo, entered_game_id: int | None) -> None:
    """The director's pages for running the room: a game with an entry awaiting confirmation
    (withdraw beside it), a player's page (rename, merge, retire), the bulk registration's
    check of pasted names, and the house rules form."""
    if entered_game_id is not None:
        shoot(desktop, f"/director/games/{entered_game_id}/", "director-game-withdraw")
    player = demo.players[1]
    shoot(desktop, f"/director/clubs/{demo.club.slug}/players/{player.slug}/", "director-player-merge")
    desktop.goto(f"/director/events/{demo.event.slug}/")
    desktop.get_by_label("Names, one per line").fill(
        "Ada Lovelace\nGrace Hoper\nLinus Torvalds\nBarbara Liskov\nJon Backus")
    desktop.get_by_role("button", name="Enter these players").click()
    desktop.wait_for_load_state("networkidle")
    desktop.screenshot(path=OUT / "director-paste-review.png", full_page=True)
    print("  docs/screenshots/director-paste-review.png")
    shoot(desktop, f"/director/events/{demo.event.slug}/house-rules/", "director-house-rules-desktop")


def photograph(base_url: str, demo: Demo, pending_entry_url: str,
               entered_game_id: int | None = None) -> None:
    from playwright.sync_api import sync_playwright

    from site_pages.demo import DIRECTOR_PASSWORD

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        desktop = browser.new_context(viewport=DESKTOP, base_url=base_url).new_page()
        phone = browser.new_context(viewport=PHONE, base_url=base_url, is_mobile=True,
                                    has_touch=True).new_page()
        for width, page in (("desktop", desktop), ("phone", phone)):
            for name, url in pages(demo).items():
                shoot(page, url, f"{name}-{width}")
        phone.goto(pending_entry_url)
        phone.wait_for_load_state()
        phone.screenshot(path=OUT / "table-entry-phone.png", full_page=True)
        print("  docs/screenshots/table-entry-phone.png")
        desktop.goto("/accounts/login/")
        desktop.get_by_label("Username").fill(demo.director_username)
        desktop.get_by_label("Password").fill(DIRECTOR_PASSWORD)
        desktop.get_by_role("button", name="Log in").click()
        desktop.wait_for_load_state()
        shoot(desktop, f"/director/events/{demo.event.slug}/", "director-event-desktop")
        director_pages(desktop, demo, entered_game_id)
        shoot(desktop, f"/events/{demo.event.slug}/table-cards/?rotation=2", "table-cards-desktop")
        browser.close()


def entry_awaiting_confirmation(demo: Demo, *, exclude: object) -> object:
    """Another pending game of the running rotation, entered by its first side (score sheets)
    and not yet confirmed: what the director's game page offers to withdraw."""
    from games import services as results
    from league.models import Game, Rotation
    from site_pages.demo import sheets_from_report

    game = (Game.objects.filter(table__rotation__event=demo.event, status=Game.Status.PENDING,
                                table__rotation__status=Rotation.Status.STARTED)
            .exclude(pk=getattr(exclude, "pk", None))
            .order_by("table__rotation__number", "table__number").last())
    if game is None:
        return None
    from handfoot.checking import check_document
    from handfoot.simulate import simulate_game

    table = results.game_table(game=game)
    log = simulate_game(rules=table.rules_spec, players=len(table.players), seed=7,
                        first_dealer=table.first_dealer)
    log["seats"] = table.players
    for number, sheet in enumerate(sheets_from_report(check_document(log).to_dict()), start=1):
        results.submission_create(game=game, document=sheet, entrant=results.Entrant.for_side(game, 0),
                                  idempotency_key=f"screenshot-{game.pk}-{number}")
    return game


def main() -> None:
    started = time.monotonic()
    data = tempfile.mkdtemp(prefix="handfoot-screenshots-")
    os.environ.update(DATA_DIR=data, DATABASE_URL="", CELERY_BROKER_URL="",
                      DJANGO_SETTINGS_MODULE="config.settings")
    sys.path.insert(0, str(REPO))
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from league.models import Game, Rotation
        from league.services.credentials import game_side_credentials
        from site_pages.demo import demo_load

        call_command("migrate", verbosity=0)
        print("Building the demo ...")
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        demo = demo_load()
        pending = (Game.objects.filter(table__rotation__event=demo.event,
                                       status=Game.Status.PENDING,
                                       table__rotation__status=Rotation.Status.STARTED)
                   .order_by("table__rotation__number", "table__number").first())
        entered = entry_awaiting_confirmation(demo, exclude=pending)
        OUT.mkdir(parents=True, exist_ok=True)
        photograph(serve(), demo, game_side_credentials(game=pending)[0].entry_url,
                   entered.pk if entered else None)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print(f"Screenshots written to docs/screenshots/ in {time.monotonic() - started:.0f} s.")


if __name__ == "__main__":
    main()

"""The event's History in a real browser at 360 px: a night's lines in words (entries,
check-ins, house rules, seating, start, results, a decided dispute), who did each, nothing cut
off, a swap undone from the page after an "are you sure?". With HANDFOOT_SCREENSHOTS=1 the page
is saved as docs/screenshots/history.png (desktop) and history-360.png."""

import datetime
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import services as results
from games.services import Entrant
from league import services as league
from league.models import Event, Registration
from tests.games.factories import sheet
from tests.site.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
NAMES = ("Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov",
         "Donald Knuth", "Frances Allen", "John Backus")


def _night():
    user = get_user_model().objects.create_user("dana", password="pass-word-123")
    club = league.club_create(name="Riverside Card Club", director=user)
    event = league.event_create(club=club, name="Friday Social", by=user,
                                date=datetime.date.today())
    league.event_update(event=event, rules_overrides={"going_out_bonus": 250}, by=user)
    league.event_set_status(event=event, status=Event.Status.REGISTRATION, by=user)
    league.registration_add_players(event=event, choices=list(NAMES), by=user)
    for registration in Registration.objects.filter(event=event).order_by("pk"):
        league.registration_check_in(registration=registration, by=user)
    league.event_set_status(event=event, status=Event.Status.RUNNING, by=user)
    rotation = league.rotation_generate(event=event, by=user)
    league.rotation_start(rotation=rotation, by=user)
    game = rotation.tables.order_by("number").first().game
    for n in (1, 2, 3, 4):
        results.submission_create(game=game, document=sheet(n), entrant=Entrant.for_side(game, 0),
                                  idempotency_key=f"a{n}")
        results.submission_create(game=game, document=sheet(n, table_points=560),
                                  entrant=Entrant.for_side(game, 1), idempotency_key=f"b{n}")
    results.result_confirm(game=game, version_number=1,
                           entrant=results.entrant_for(game=game, user=user))
    return event, user


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_the_history_reads_in_words_at_360_px_and_a_swap_is_undone(chromium, live_server):
    event, _ = _night()
    context = chromium.new_context(viewport={"width": 360, "height": 780}, is_mobile=True,
                                   has_touch=True, base_url=live_server.url)
    page = context.new_page()
    log_in(page, "dana", "pass-word-123")
    page.goto(f"/director/events/{event.slug}/history/")
    body = page.locator("main").inner_text()
    for words in ("Created Friday Social as a draft.", "Changed the house rules:",
                  "Opened registration.", "Entered 8 players", "Checked in Ada Lovelace.",
                  "Started the event.", "Seated rotation 1 as a draft", "Started rotation 1",
                  "Entered the round 1 score sheet at rotation 1, table 1",
                  "Decided the dispute at rotation 1, table 1"):
        assert words in body, words
    assert "dana" in body and "by its table link" in body
    assert "_" not in page.locator("table.history").inner_text()
    assert _fits(page)
    if os.environ.get("HANDFOOT_SCREENSHOTS") == "1":
        OUT.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=OUT / "history-360.png", full_page=True)
    context.close()


def test_a_check_in_is_undone_from_the_history_after_are_you_sure(desktop):
    event, _ = _night()
    log_in(desktop, "dana", "pass-word-123")
    desktop.goto(f"/director/events/{event.slug}/history/")
    if os.environ.get("HANDFOOT_SCREENSHOTS") == "1":
        OUT.mkdir(parents=True, exist_ok=True)
        desktop.screenshot(path=OUT / "history.png", full_page=True)
    asked = []
    desktop.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    desktop.get_by_role("button", name="Undo: Checked in Ada Lovelace.").click()
    desktop.wait_for_load_state()
    desktop.get_by_text("Undone: Checked in Ada Lovelace.").wait_for()
    assert asked == ["Undo this? Checked in Ada Lovelace."]
    assert desktop.get_by_text("Ada Lovelace is no longer checked in.").count() >= 1

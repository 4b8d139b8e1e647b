"""A director runs the room in a real browser: a duplicate name caught and merged, twelve pasted
names checked in with one action, house rules changed through the form (an out-of-range value refused
in words), a rotation reopened and closed again, a bye option changing the standings, a wrong
round entry withdrawn and restored. With HANDFOOT_SCREENSHOTS=1 the pages are saved as docs/screenshots/director-*.png.
"""

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from league import services as league
from league.models import Event, Player, Registration, Rotation
from tests.analytics.factories import confirm, make_game
from tests.site.conftest import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TWELVE = ("Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov",
          "Donald Knuth", "Frances Allen", "John Backus", "Margaret Hamilton", "Ken Thompson",
          "Radia Perlman", "Tony Hoare")


def shot(page, name: str) -> None:
    if os.environ.get("HANDFOOT_SCREENSHOTS") == "1":
        OUT.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=OUT / f"director-{name}.png", full_page=True)


def click(page, name: str) -> None:
    """Press a button; an "are you sure?" (data-confirm) is answered yes."""
    if not getattr(page, "accepts_dialogs", False):
        page.on("dialog", lambda dialog: dialog.accept())
        page.accepts_dialogs = True
    page.get_by_role("button", name=name, exact=True).first.click()
    page.wait_for_load_state()


@pytest.fixture
def club_and_director():
    user = get_user_model().objects.create_user("dana", password="pass-word-123")
    club = league.club_create(name="Riverside Card Club", director=user)
    return club, user


def _event(club, **fields) -> Event:
    import datetime

    return league.event_create(club=club, name="Friday Social", date=datetime.date(2026, 11, 27),
                               **fields)


def test_a_duplicate_name_is_caught_and_the_old_duplicate_merged(desktop, club_and_director):
    club, _ = club_and_director
    grace = league.player_create(club=club, name="Grace Hopper")
    duplicate = league.player_create(club=club, name="Gráce Hoper")
    past = _event(club)
    others = [league.player_create(club=club, name=n) for n in ("Ada", "Alan", "Edsger")]
    confirm(make_game(event=past, players=[duplicate, *others]), [[400, 150]])
    event = _event(club)
    league.event_set_status(event=event, status=Event.Status.REGISTRATION)
    log_in(desktop, "dana", "pass-word-123")
    assert desktop.url.endswith("/director/")

    desktop.goto(f"/director/events/{event.slug}/")
    desktop.get_by_label("Or a new player's name").fill("grace hopper")
    click(desktop, "Enter")
    assert desktop.get_by_role("heading", name="Already a player?").is_visible()
    shot(desktop, "name-offer")
    click(desktop, "Enter Grace Hopper")
    assert Registration.objects.get(event=event).player == grace
    assert Player.objects.filter(club=club).count() == 5

    desktop.get_by_role("link", name=f"Players of {club.name}").click()
    assert desktop.get_by_text("same person as Gráce Hoper?").is_visible()
    shot(desktop, "players")
    desktop.get_by_role("link", name="Gráce Hoper").click()
    desktop.get_by_label("Keep this player").select_option(label="Grace Hopper")
    click(desktop, "Merge Gráce Hoper into the chosen player")
    assert desktop.get_by_text("Gráce Hoper merged into Grace Hopper").is_visible()
    shot(desktop, "player")
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert past.rotations.get().seats.filter(player=grace).exists()


def test_twelve_pasted_names_all_checked_in_with_one_action(phone, club_and_director):
    club, _ = club_and_director
    event = _event(club)
    league.event_set_status(event=event, status=Event.Status.REGISTRATION)
    log_in(phone, "dana", "pass-word-123")
    phone.goto(f"/director/events/{event.slug}/")

    phone.get_by_label("Names, one per line").fill("\n".join(TWELVE))
    click(phone, "Enter these players")
    assert phone.get_by_role("heading", name="Entrants (12)").is_visible()
    url_before = phone.url
    phone.get_by_role("button", name="Check in all").click()
    phone.get_by_text("12 of 12 checked in.").wait_for()
    assert phone.url == url_before  # swapped in place, no reload
    assert phone.get_by_label("Or a new player's name").is_visible()
    assert event.registrations.filter(checked_in=True).count() == 12

    phone.get_by_label("Find an entrant").fill("hop")
    visible = phone.locator("#entrant-rows tr:not([hidden])")
    assert visible.count() == 1 and "Grace Hopper" in visible.inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "registrations-phone")

    phone.get_by_label("Find an entrant").fill("")
    phone.get_by_role("button", name="Undo check-in of Tony Hoare").click()
    phone.get_by_text("11 of 12 checked in.").wait_for()
    assert not Registration.objects.get(event=event, player__name="Tony Hoare").checked_in


def test_house_rules_changed_through_the_form_and_out_of_range_refused(desktop, club_and_director):
    club, _ = club_and_director
    event = _event(club)
    log_in(desktop, "dana", "pass-word-123")
    desktop.goto(f"/director/events/{event.slug}/house-rules/")

    desktop.get_by_label("Bonus for going out").fill("9000")
    click(desktop, "Save house rules")
    assert desktop.get_by_text("Bonus for going out must be from 0 to 5,000 points, not 9,000.").is_visible()
    event.refresh_from_db()
    assert event.rules_overrides == {}

    desktop.get_by_label("Bonus for going out").fill("300")
    desktop.get_by_label("Rounds in a game").fill("3")
    desktop.get_by_label("Ask the partner").select_option(label="No")
    assert "changed" in desktop.locator("tr", has=desktop.get_by_label("Bonus for going out")).get_attribute("class")
    click(desktop, "Save house rules")
    saved = desktop.get_by_text("House rules saved:")
    assert saved.is_visible() and "instead of" in saved.inner_text()  # each change named
    event.refresh_from_db()
    assert event.rules_overrides == {"going_out_bonus": 300, "rounds": 3, "permission": False}
    desktop.goto(f"/director/events/{event.slug}/house-rules/")
    assert desktop.locator("tr.changed").count() == 4  # meld minimums follow the rounds
    shot(desktop, "house-rules")


def test_a_rotation_reopened_and_closed_again(desktop, club_and_director):
    club, _ = club_and_director
    event = _event(club)
    league.event_set_status(event=event, status=Event.Status.REGISTRATION)
    for name in TWELVE[:8]:
        player = league.player_create(club=club, name=name)
        Registration.objects.create(event=event, player=player, checked_in=True)
    league.event_set_status(event=event, status=Event.Status.RUNNING)
    rotation = league.rotation_generate(event=event)
    league.rotation_start(rotation=rotation)
    for table in rotation.tables.all():
        confirm(table.game, [[300, 200]])
    log_in(desktop, "dana", "pass-word-123")
    desktop.goto(f"/director/events/{event.slug}/")

    click(desktop, "Close rotation 1")
    click(desktop, "Reopen rotation 1")
    assert Rotation.objects.get(pk=rotation.pk).status == Rotation.Status.STARTED
    assert desktop.get_by_role("button", name="Seat the next rotation").count() == 0
    click(desktop, "Close rotation 1")
    assert Rotation.objects.get(pk=rotation.pk).status == Rotation.Status.CLOSED
    history = desktop.locator("#history").inner_text()
    assert "Reopened rotation 1." in history and history.count("Closed rotation 1.") == 2
    shot(desktop, "event")


def test_a_bye_option_changes_the_standings_as_documented(desktop, club_and_director):
    """docs/analytics.md: with per-game standings a player who sat out is ranked by the
    average of the games played, so the unbeaten player who sat out once moves to the top."""
    from analytics.standings import services as analytics_services

    club, _ = club_and_director
    event = _event(club)
    names = ("Ada", "Barbara", "Claude", "Dennis", "Edith")
    p = [league.player_create(club=club, name=n) for n in names]
    for player in p:
        Registration.objects.create(event=event, player=player, checked_in=True)
    # Barbara plays three games (won, won, lost; 1,150 points); Edith sits out rotation 1 and
    # wins both her games (600 points): level on match points, Barbara ahead on points.
    for number, (seats, totals) in enumerate((
        ([p[1], p[0], p[2], p[3]], [600, 100]),
        ([p[1], p[0], p[4], p[2]], [400, 100]),
        ([p[4], p[1], p[3], p[0]], [200, 150]),
    ), start=1):
        confirm(make_game(event=event, players=seats, rotation_number=number), [totals])
    analytics_services.event_recompute(event_id=event.pk)
    log_in(desktop, "dana", "pass-word-123")

    desktop.goto(event.get_absolute_url())
    assert desktop.locator(".standings-table tbody tr").first.locator("th").inner_text() == "Barbara"

    desktop.goto(f"/director/events/{event.slug}/edit/")
    desktop.get_by_label("Sit-outs and late arrivals").select_option(label="Rank by the average per game played")
    click(desktop, "Save settings")
    assert desktop.get_by_text("Settings saved.").is_visible()

    desktop.goto(event.get_absolute_url())
    first = desktop.locator(".standings-table tbody tr").first
    assert first.locator("th").inner_text() == "Edith"
    assert desktop.get_by_text("Ranked by the average per game played").is_visible()
    assert desktop.get_by_role("columnheader", name="Points per game", exact=True).is_visible()
    shot(desktop, "standings-per-game")


def test_a_wrong_entry_withdrawn_and_restored(desktop, club_and_director):
    """A side typed round 1 wrong (a dispute); the director withdraws that sheet from the game
    page (the dispute ends, the entry stays, struck through, with who and when), then restores
    it; the event's history names both steps."""
    from games import services as results
    from games.models import Submission
    from league.models import Game
    from tests.factories import make_game
    from tests.games.factories import sheet

    club, _ = club_and_director
    event = _event(club)
    players = [league.player_create(club=club, name=n) for n in ("Ada", "Barbara", "Claude", "Dennis")]
    league.event_set_status(event=event, status=Event.Status.REGISTRATION)
    league.event_set_status(event=event, status=Event.Status.RUNNING)
    game = make_game(event=event, players=players)
    for side, table_points in ((0, 555), (1, 560)):
        for n in (1, 2, 3, 4):
            results.submission_create(
                game=game, document=sheet(n, table_points=table_points if n == 1 else 555),
                entrant=results.Entrant.for_side(game, side), idempotency_key=f"s{side}-{n}")
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    log_in(desktop, "dana", "pass-word-123")
    desktop.goto(f"/director/games/{game.pk}/")

    assert desktop.get_by_role("button", name="Withdraw the round 1 score sheet of Side 1 (Ada & Claude)").count() == 1
    click(desktop, "Withdraw the round 1 score sheet of Side 2 (Barbara & Dennis)")
    assert desktop.get_by_text("The round 1 score sheet is withdrawn").is_visible()
    assert desktop.get_by_text("withdrawn by dana at").is_visible()
    assert Game.objects.get(pk=game.pk).status == Game.Status.ENTERED
    assert Submission.objects.filter(game=game).count() == 8
    shot(desktop, "game-withdrawn")

    click(desktop, "Restore the round 1 score sheet of Side 2 (Barbara & Dennis)")
    assert desktop.get_by_text("The round 1 score sheet counts again.").is_visible()
    assert Game.objects.get(pk=game.pk).status == Game.Status.DISPUTED
    assert desktop.get_by_role("button", name="Restore the round 1 score sheet of Side 2 (Barbara & Dennis)").count() == 0

    desktop.goto(f"/director/events/{event.slug}/")
    history = desktop.locator("#history").inner_text()
    assert "Withdrew the round 1 score sheet of Side 2 (Barbara & Dennis) at rotation 1, table 1." in history
    assert "Restored the round 1 score sheet of Side 2 (Barbara & Dennis) at rotation 1, table 1." in history

"""Issue 26 end to end in a real browser, with a real SMTP server started by the test: a director
invites a player, who takes the profile from the mail, sees tonight's seat as soon as it is
seated, answers the reminder, gets the result after confirmation, stops those mails with one
click, hides their name (and sees it hidden on the public pages), downloads their data and
deletes the account, with the standings unchanged."""

import datetime
import json
import re
from pathlib import Path

import pytest
from django.utils import timezone

from analytics.models import StandingsSnapshot
from games import services as results
from league.models import Attendance, Event, Player, Rotation, Seat
from league.services.credentials import side_credentials_ensure
from notifications.models import Contact
from notifications.services.nights import due_reminders_send, night_start
from tests.factories import EventFactory, MembershipFactory, UserFactory
from tests.games.factories import named_game, stockout_log
from tests.notifications.smtp import SmtpServer
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems
from tests.site.test_browser_table_entry import PHONE_360

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def smtp(settings, live_server):
    server = SmtpServer()
    server.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": server.port},
        }
    }
    settings.SITE_URL = live_server.url
    yield server
    server.stop()


@pytest.fixture
def phone(chromium, live_server):
    context = chromium.new_context(
        viewport=PHONE_360,
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
        accept_downloads=True,
    )
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def _last_mail(smtp, to):
    mails = [m for m in smtp.messages if m["To"] == to]
    assert mails, f"no mail to {to}"
    return mails[-1]


def _text(mail):
    return mail.get_body(("plain",)).get_content()


def test_a_player_takes_part_from_invitation_to_deleting_the_account(
    desktop, phone, smtp, live_server
):
    game = named_game(
        event=EventFactory(
            status=Event.Status.RUNNING, date=timezone.localdate(), name="Tuesday night"
        )
    )
    side_credentials_ensure(games=[game])
    event = game.table.rotation.event
    Rotation.objects.filter(event=event).update(status=Rotation.Status.DRAFT)
    ann = Player.objects.get(slug="ann")
    MembershipFactory(club=event.club, role="director", user=UserFactory(username="dee"))

    # 1. The director invites Ann by mail.
    log_in(desktop, "dee", "pass-word-123")
    desktop.goto(f"/director/clubs/{event.club.slug}/players/ann/")
    desktop.get_by_role("link", name="Let Ann take this profile").click()
    desktop.get_by_label("Ann's e-mail address").fill("ann@example.net")
    desktop.get_by_role("button", name="Send the link").click()
    desktop.get_by_text("The link is on its way to Ann.").wait_for()
    link = re.search(r"(http://\S+/claim/\S+/)", _text(_last_mail(smtp, "ann@example.net"))).group(
        1
    )

    # 2. Ann takes the profile from the mail, making an account.
    phone.goto(link)
    assert axe_problems(phone, "claim") == []
    phone.get_by_label("Username").fill("ann")
    phone.get_by_label("Password", exact=True).fill("a-long-pass-phrase-9")
    phone.get_by_label("Password confirmation").fill("a-long-pass-phrase-9")
    phone.get_by_role("button", name="Make my account and take the profile").click()
    phone.get_by_role("heading", name="My page").wait_for()
    assert "Not seated yet" in phone.content()

    # 3. Tonight's seat shows as soon as the rotation is seated.
    Rotation.objects.filter(event=event).update(status=Rotation.Status.STARTED)
    phone.reload()
    assert "Rotation 1: table 1, seat 1" in phone.content()
    assert "Partner: Cat" in phone.content()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_problems(phone, "my page") == []

    # 4. The reminder of next week's night, answered with one click.
    next_week = EventFactory(
        club=event.club,
        name="Next Tuesday",
        starts_at=datetime.time(19, 30),
        date=timezone.localdate() + datetime.timedelta(days=7),
    )
    due_reminders_send(now=night_start(next_week) - datetime.timedelta(hours=2))
    coming = re.search(r"Coming: (\S+)", _text(_last_mail(smtp, "ann@example.net"))).group(1)
    phone.goto(coming)
    phone.get_by_role("button", name="Answer: coming").click()
    phone.get_by_text("Thank you, Ann: coming.").wait_for()
    assert Attendance.objects.get(event=next_week, player=ann).answer == "yes"

    # 5. The result, confirmed by both sides, comes by mail.
    results.submission_create(
        game=game,
        document=stockout_log(),
        entrant=results.Entrant.for_side(game, 0),
        idempotency_key="k",
    )
    version = game.result_versions.order_by("-number").first()
    results.result_confirm(
        game=game, version_number=version.number, entrant=results.Entrant.for_side(game, 1)
    )
    result_mail = _last_mail(smtp, "ann@example.net")
    assert result_mail["Subject"].startswith("Your result at Tuesday night")
    assert "You played for side 1." in _text(result_mail)

    # 6. One click in the mail program stops the result mails (no login).
    unsubscribe = result_mail["List-Unsubscribe"].strip("<>")
    answer = phone.request.post(unsubscribe, form={"List-Unsubscribe": "One-Click"})
    assert answer.ok
    contact = Contact.objects.get(player=ann)
    assert (contact.results, contact.reminders) == (False, True)

    # 7. Ann hides her name: the public pages show "Player N".
    before = sorted(
        (r["rank"], r["total_points"]) for r in StandingsSnapshot.objects.get(event=event).rows
    )
    phone.goto("/me/")
    phone.get_by_label("No name").check()
    phone.get_by_role("button", name="Save", exact=True).click()
    phone.get_by_text(f"Public pages now show you as “Player {ann.pk}”.").wait_for()
    public = phone.context.browser.new_context(base_url=live_server.url).new_page()
    public.goto(event.get_absolute_url())
    assert f"Player {ann.pk}" in public.locator("#live-standings").inner_text()
    assert "Ann" not in public.locator("main").inner_text()
    public.goto(ann.get_absolute_url())
    assert "Ann" not in public.locator("main").inner_text()
    public.context.close()

    # 8. Her data, downloaded.
    with phone.expect_download() as download:
        phone.get_by_role("link", name="Download everything the site holds about me").click()
    data = json.loads(Path(download.value.path()).read_text())
    assert data["players"][0]["name"] == "Ann" and data["contact"][0]["email"] == "ann@example.net"

    # 9. The account deleted: the standings keep their figures.
    phone.get_by_label("Delete my account").check()
    phone.get_by_role("button", name="Delete my account").click()
    phone.get_by_role("heading", name="Your account is deleted").wait_for()
    ann.refresh_from_db()
    assert ann.user is None and ann.name == f"Former player {ann.pk}"
    assert not Contact.objects.filter(player=ann).exists()
    after = sorted(
        (r["rank"], r["total_points"]) for r in StandingsSnapshot.objects.get(event=event).rows
    )
    assert after == before
    assert Seat.objects.filter(player=ann).count() == 1  # her games stay

"""Issue 42: the result mail's dispute link works until the time the mail promises
(confirmation + MAIL_DISPUTE_HOURS), even after the night has ended; it takes a dispute then,
never a new entry. The mail is read back from a real SMTP server and its link followed."""

import datetime
import re

import pytest
from django.conf import settings
from django.utils import timezone

from games import services as results
from games.models import ResultVersion
from league.models import AuditEntry, Event, Seat
from league.services.credentials import side_credentials_ensure
from notifications.models import Contact
from notifications.services.results import result_mails_send
from tests.factories import MembershipFactory
from tests.games.factories import named_game, stockout_log

pytestmark = pytest.mark.django_db

REASON = "Round 2 was 1,230 to 990, not the other way round."


@pytest.fixture
def mailed_game(smtp):
    """A confirmed game whose first player got the result mail; the night has since ended."""
    game = named_game()
    side_credentials_ensure(games=[game])
    results.submission_create(
        game=game, document=stockout_log(), entrant=results.Entrant.for_side(game, 0),
        idempotency_key="log-0",
    )
    version = game.result_versions.order_by("-number").first()
    results.result_confirm(
        game=game, version_number=version.number, entrant=results.Entrant.for_side(game, 1)
    )
    seat = Seat.objects.filter(table__game=game).select_related("player").order_by("seat_number")[0]
    Contact.objects.create(player=seat.player, email="reader@example.net")
    assert result_mails_send(game_id=game.pk) == 1
    Event.objects.filter(pk=game.table.rotation.event_id).update(status=Event.Status.FINISHED)
    text = smtp.messages[0].get_body(("plain",)).get_content()
    return game, seat, text


def _link(text: str) -> str:
    match = re.search(r"You can dispute it until (.+?):\r?\n(\S+)", text)
    assert match, text
    return match.group(2).removeprefix("http://league.example")


def _confirmed_hours_ago(game, hours: float) -> None:
    ResultVersion.objects.filter(game=game, status=ResultVersion.Status.CONFIRMED).update(
        confirmed_at=timezone.now() - datetime.timedelta(hours=hours)
    )


def test_the_mails_link_takes_a_dispute_after_the_night_inside_the_window(client, mailed_game):
    game, seat, text = mailed_game
    _confirmed_hours_ago(game, settings.MAIL_DISPUTE_HOURS - 1)  # the night is long over
    link = _link(text)

    page = client.get(link)
    body = page.content.decode()
    assert page.status_code == 200, body
    assert "The confirmed result" in body and "Dispute this result" in body
    assert "Save this round" not in body and "upload a move log" not in body  # no new entry

    answer = client.post(link + "dispute/", {"reason": REASON}, follow=True)
    assert answer.status_code == 200
    assert "the director can see that you dispute this result" in answer.content.decode()
    assert "You disputed this result on" in answer.content.decode()
    line = AuditEntry.objects.get(action="result_dispute")
    assert line.data["reason"] == REASON and line.data["side"] == seat.side
    assert line.summary.startswith("Disputed the confirmed result at rotation 1, table 1")

    director = MembershipFactory(club=game.table.rotation.event.club).user
    client.force_login(director)
    results_page = client.get(f"/director/events/{game.table.rotation.event.slug}/results/")
    assert "Players dispute 1 confirmed result" in results_page.content.decode()
    assert REASON in results_page.content.decode()


def test_the_mails_link_still_refuses_a_new_entry_after_the_night(client, mailed_game):
    game, _, text = mailed_game
    link = _link(text)
    sheet = client.post(link + "sheet/", {"round": 1})
    assert sheet.status_code == 410
    assert "while the event is running" in sheet.content.decode()


def test_after_the_promised_time_the_link_takes_no_dispute(client, mailed_game):
    game, _, text = mailed_game
    _confirmed_hours_ago(game, settings.MAIL_DISPUTE_HOURS + 1)
    link = _link(text)
    assert client.get(link).status_code == 410
    client.post(link + "dispute/", {"reason": REASON})
    assert not AuditEntry.objects.filter(action="result_dispute").exists()


def test_a_dispute_without_a_reason_is_asked_for_one(client, mailed_game):
    game, _, text = mailed_game
    answer = client.post(_link(text) + "dispute/", {"reason": "  "})
    assert answer.status_code == 400
    assert not AuditEntry.objects.filter(action="result_dispute").exists()

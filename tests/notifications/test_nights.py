"""Reminders before a night with one-click answers, on the club's schedule, and the finished
night's results: through a real SMTP server, each once."""

import datetime
import re

import pytest
from django.utils import timezone

from league.models import Attendance, Event, Registration
from notifications.models import ClubMail, Contact
from notifications.services.nights import (
    due_reminders_send,
    night_results_send,
    night_start,
)
from tests.factories import EventFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    event = EventFactory(
        name="Tuesday league",
        date=timezone.localdate() + datetime.timedelta(days=1),
        starts_at=datetime.time(19, 30),
        place="The Crown",
    )
    players = [PlayerFactory(club=event.club, name=n) for n in ("Ann Lee", "Ben Ode", "Cy Park")]
    for player in players[:2]:
        Contact.objects.create(player=player, email=f"{player.slug}@example.net")
    Contact.objects.create(player=players[2], email="cy@example.net", reminders=False)
    return event, players


def test_the_reminder_goes_out_on_the_clubs_schedule_once(smtp, night):
    event, _ = night
    start = night_start(event)
    ClubMail.objects.create(club=event.club, reminder_hours=12)
    assert due_reminders_send(now=start - datetime.timedelta(hours=13)) == 0  # too early
    assert due_reminders_send(now=start - datetime.timedelta(hours=11)) == 2  # Cy said no thanks
    assert due_reminders_send(now=start - datetime.timedelta(hours=10)) == 0  # once
    message = smtp.messages[0]
    text = message.get_body(("plain",)).get_content()
    assert "Tuesday league is on" in text and "from 19:30, at The Crown" in text
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_a_called_off_night_is_not_reminded(smtp, night):
    event, _ = night
    Event.objects.filter(pk=event.pk).update(cancelled_at=timezone.now())
    assert due_reminders_send(now=night_start(event) - datetime.timedelta(hours=2)) == 0


def test_answering_from_the_reminder_needs_one_click_and_no_login(client, smtp, night):
    event, players = night
    due_reminders_send(now=night_start(event) - datetime.timedelta(hours=2))
    mail = next(m for m in smtp.messages if m["To"] == f"{players[0].slug}@example.net")
    text = mail.get_body(("plain",)).get_content()
    coming = re.search(r"Coming: http://league.example(\S+)", text).group(1)
    page = client.get(coming)  # a mail program's preview opens links: nothing is answered
    assert (
        page.status_code == 200 and "you have not answered yet" in page.content.decode()
        and "Answer: coming" in page.content.decode()
    )
    assert not Attendance.objects.exists()
    done = client.post(coming)
    assert "Thank you, Ann Lee: coming." in done.content.decode()
    assert Attendance.objects.get(player=players[0], event=event).answer == "yes"
    maybe = re.search(r"Maybe: http://league.example(\S+)", text).group(1)
    client.post(maybe)
    assert Attendance.objects.get(player=players[0], event=event).answer == "maybe"
    assert client.post(coming[:-4] + "abc/").status_code == 404


def test_the_finished_nights_results_go_to_its_players_once(smtp, night):
    event, players = night
    Registration.objects.create(event=event, player=players[0])
    rows = [
        {"rank": 1, "name": "Ann Lee", "match_points": 4, "total_points": 4200},
        {"rank": 2, "name": "Ben Ode", "match_points": 2, "total_points": 3100},
    ]
    assert night_results_send(event=event, rows=rows) == 0  # not finished yet
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    assert night_results_send(event=event, rows=rows) == 1  # only who played
    assert night_results_send(event=event, rows=rows) == 0
    text = smtp.messages[0].get_body(("plain",)).get_content()
    assert "1. Ann Lee: 4 match points, 4,200 points" in text and "is finished" in text


def test_the_club_chooses_when_reminders_go_out(client, night):
    from django.urls import reverse

    from tests.factories import MembershipFactory

    event, _ = night
    client.force_login(MembershipFactory(club=event.club, role="director").user)
    url = reverse("director-club-mail", args=[event.club.slug])
    assert 'value="24"' in client.get(url).content.decode()
    assert client.post(url, {"reminder_hours": "6"}).status_code == 302
    assert ClubMail.objects.get(club=event.club).reminder_hours == 6
    refused = client.post(url, {"reminder_hours": "-3"})
    assert "whole number of hours" in refused.content.decode()
    assert client.post(url, {"reminder_hours": "99999"}).status_code == 400
    assert ClubMail.objects.get(club=event.club).reminder_hours == 6


def test_reading_the_club_mail_page_stores_nothing_and_a_change_is_in_the_history(client, night):
    from django.urls import reverse

    from league.models import AuditEntry
    from tests.factories import MembershipFactory

    event, _ = night
    ClubMail.objects.filter(club=event.club).delete()
    client.force_login(MembershipFactory(club=event.club, role="director").user)
    url = reverse("director-club-mail", args=[event.club.slug])
    assert 'value="24"' in client.get(url).content.decode()  # the default, shown
    assert not ClubMail.objects.filter(club=event.club).exists()  # and not stored by a GET
    client.post(url, {"reminder_hours": "6"})
    client.post(url, {"reminder_hours": "6"})  # the same again: no second line
    client.post(url, {"reminder_hours": "0"})
    lines = list(AuditEntry.objects.filter(club=event.club, action="club_mail_reminders")
                 .order_by("pk").values_list("summary", flat=True))
    assert lines == ["Reminders: 6 hours before each night (were 24 hours before each night).",
                     "Reminders: never (were 6 hours before each night)."]
    assert "No reminders go out." in client.get(url).content.decode()


def test_the_answer_page_says_not_answered_yet_until_the_button_is_pressed(client):
    """A reminder's "coming" link opens a page with one button: until it is pressed the page
    says the player has not answered (the link's answer is only what the button sends)."""
    from django.urls import reverse

    from notifications.services.nights import rsvp_token

    event = EventFactory(date=timezone.localdate() + datetime.timedelta(days=3),
                         status=Event.Status.REGISTRATION)
    ann = PlayerFactory(club=event.club, name="Ann Lee")
    url = reverse("rsvp", args=[rsvp_token(event=event, player=ann, answer="yes")])
    page = client.get(url).content.decode()
    assert "you have not answered yet" in page and "Answer: coming" in page
    assert not Attendance.objects.filter(event=event, player=ann).exists()
    assert "Thank you, Ann Lee: coming." in client.post(url).content.decode()
    no = reverse("rsvp", args=[rsvp_token(event=event, player=ann, answer="no")])
    page = client.get(no).content.decode()
    assert "your answer so far: <strong>coming</strong>" in page and "Answer: not coming" in page

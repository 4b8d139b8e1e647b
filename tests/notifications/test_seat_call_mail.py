"""The seat-call mail (issue 47): when a rotation starts, only the players who asked for it get
their seat in words (text and HTML), with the time it started in the club's zone; once per seat.
The choice is off unless the player turns it on on their own page."""

import re
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from league.models import Club
from league.services.rotations import rotation_generate, rotation_start
from notifications.models import Contact, SentMail
from notifications.services.seat_calls import seat_call_mails_send
from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tests.league.factories import running_event

pytestmark = pytest.mark.django_db

ZONE = "Asia/Kolkata"  # +05:30: a minute-exact offset no server zone shares by chance


@pytest.fixture
def night():
    event, _ = running_event(players=0, name="Tuesday night")
    Club.objects.filter(pk=event.club_id).update(time_zone=ZONE)
    event.club.refresh_from_db()
    players = [PlayerFactory(club=event.club, name=n)
               for n in ("Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz")]
    for player in players:
        event.registrations.create(player=player, checked_in=True)
    director = MembershipFactory(club=event.club, role="director").user
    return event, players, rotation_generate(event=event, by=director), director


def test_only_players_who_asked_get_their_seat_when_the_rotation_starts(
        smtp, night, django_capture_on_commit_callbacks):
    event, players, rotation, director = night
    Contact.objects.create(player=players[0], email="ann@example.net", seat_calls=True)
    Contact.objects.create(player=players[1], email="ben@example.net")  # results etc., no seat
    Contact.objects.create(player=players[2], email="cy@example.net", seat_calls=False)
    assert seat_call_mails_send(rotation_id=rotation.pk) == 0  # a draft calls nobody
    with django_capture_on_commit_callbacks(execute=True):
        rotation_start(rotation=rotation, by=director)
    assert [m["To"] for m in smtp.messages] == ["ann@example.net"]
    message = smtp.messages[0]
    seat = rotation.seats.select_related("table").get(player=players[0])
    place = f"table {seat.table.number}, seat {seat.seat_number + 1}"
    assert message["Subject"] == f"Tuesday night, rotation 1: {place}"
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    partner = rotation.seats.exclude(pk=seat.pk).get(table=seat.table, side=seat.side)
    words = f"Rotation 1: {place}, partner {partner.player.name}."
    assert "Hello Ann Lee," in text and words in text and words in html
    rotation.refresh_from_db()
    local = rotation.started_at.astimezone(ZoneInfo(ZONE)).strftime("%H:%M")
    assert f"rotation 1 started at {local}." in text and f"started at {local}." in html
    assert re.search(r"/mail/unsubscribe/", message["List-Unsubscribe"])


def test_a_seat_call_is_mailed_once(smtp, night):
    _, players, rotation, director = night
    Contact.objects.create(player=players[0], email="ann@example.net", seat_calls=True)
    rotation_start(rotation=rotation, by=director)
    assert seat_call_mails_send(rotation_id=rotation.pk) == 1
    assert seat_call_mails_send(rotation_id=rotation.pk) == 0
    assert SentMail.objects.filter(reason="seat").count() == 1 and len(smtp.messages) == 1


def test_a_player_turns_seat_mail_on_on_their_own_page_and_it_is_off_until_then(client):
    user = UserFactory()
    player = PlayerFactory(name="Ann Lee", user=user)
    client.force_login(user)
    page = client.get(reverse("my-page")).content.decode()
    box = re.search(r'<input type="checkbox" name="seat_calls"[^>]*>', page).group(0)
    assert "checked" not in box and "Mail me my seat when a rotation starts" in page
    client.post(reverse("my-mail", args=[player.pk]),
                {"email": "ann@example.net", "results": "on", "seat_calls": "on"})
    assert Contact.objects.get(player=player).seat_calls is True
    box = re.search(r'<input type="checkbox" name="seat_calls"[^>]*>',
                    client.get(reverse("my-page")).content.decode()).group(0)
    assert "checked" in box
    client.post(reverse("my-mail", args=[player.pk]), {"email": "ann@example.net"})
    assert Contact.objects.get(player=player).seat_calls is False

"""Issue 47: each table of the rotation being played shows its clock on the wall; the chime is
there only when the event turned it on; the wall's version moves when extra time is given, a
round is entered or the round time changes (so a poll brings the new clock)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.services.table_clocks import table_extra_time_grant
from league import services
from league.models import Event, Rotation
from tests.games.test_round_times import enter_round
from tests.site.factories import games_of, seated_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = seated_event(players=8, rotations=2, status=Rotation.Status.CLOSED,
                         name="Clock night", round_minutes=30)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    Rotation.objects.filter(event=event, number=2).update(
        status=Rotation.Status.STARTED, started_at=timezone.now() - timedelta(minutes=12))
    event.refresh_from_db()
    return event


def fragment(client: Client, event: Event, etag: str | None = None):
    headers = {"HTTP_X_REQUESTED_WITH": "fetch"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(reverse("event-wall", args=[event.slug]), **headers)


def test_each_table_being_played_shows_its_clock_and_no_chime_by_default(client, event):
    text = client.get(reverse("event-wall", args=[event.slug])).content.decode()
    assert text.count('role="timer"') == 2  # rotation 2's two tables; rotation 1 is closed
    assert text.count("Round 1: 18 minutes left") == 2
    assert "data-clock-chime" not in text and "js/clock.js" in text


def test_the_chime_is_marked_only_when_the_event_turned_it_on(client, event):
    Event.objects.filter(pk=event.pk).update(wall_chime=True)
    assert fragment(client, event).content.decode().count('data-clock-chime="on"') == 2


def test_extra_time_a_round_entered_and_a_new_round_time_each_move_the_version(client, event):
    etag = fragment(client, event)["ETag"]
    assert fragment(client, event, etag).status_code == 304
    second = [g for g in games_of(event) if g.table.rotation.number == 2]
    table_extra_time_grant(table=second[0].table, minutes=5, by=None)
    after = fragment(client, event, etag)
    assert after.status_code == 200 and "5 more minutes given by the director." in after.content.decode()
    etag = after["ETag"]
    enter_round(client, second[1], 0, 1, 1, "b1")
    after = fragment(client, event, etag)
    assert after.status_code == 200 and "Round 2: 29 minutes left" in after.content.decode()
    etag = after["ETag"]
    services.event_update(event=Event.objects.get(pk=event.pk), round_minutes=45)
    after = fragment(client, event, etag)
    assert after.status_code == 200 and "Round 1: 38 minutes left" in after.content.decode()

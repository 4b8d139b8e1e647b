"""Issue 47: the pace panel on the director's room view: the rotation being played, its tables
the latest first in words with a slow badge and their clocks, and extra time given in one tap.
Only the event's directors see or post it."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import AuditEntry, Event, Rotation, TableExtraTime
from tests.factories import MembershipFactory, UserFactory
from tests.games.test_round_times import enter_round
from tests.site.factories import games_of, seated_event

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def event():
    """Rotation 1 is being played, started 40 minutes ago, 30 minutes a round; tables 1 and 2."""
    event = seated_event(players=8, rotations=1, name="Pace night", round_minutes=30,
                         status=Rotation.Status.STARTED)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    Rotation.objects.filter(event=event).update(started_at=timezone.now() - timedelta(minutes=40))
    return event


@pytest.fixture
def director(client, event):
    client.force_login(MembershipFactory(club=event.club, role="director").user)
    return client


def panel(client, event, **headers):
    return client.get(reverse("director-event-pace", args=[event.slug]), **headers)


def grant(client, event, table=1, minutes="5", **headers):
    return client.post(reverse("director-event-pace-extra-time", args=[event.slug]),
                       {"rotation": "1", "table": str(table), "minutes": minutes}, **headers)


def test_the_event_page_loads_the_panel_which_orders_tables_latest_first(director, client, event):
    page = director.get(reverse("director-event", args=[event.slug])).text
    assert f'hx-get="/director/events/{event.slug}/pace/"' in page and "js/clock.js" in page
    first, second = games_of(event)
    enter_round(client, second, 0, 1, 22, "b1")  # table 2: round 1 in 18 minutes, round 2 for 22
    text = panel(director, event, **HX).text
    assert "<html" not in text and 'hx-trigger="every 20s"' in text
    one = "Table 1: round 1 began 40 minutes ago; the room averages 18; 10 minutes over."
    two = "Table 2: round 2 began 22 minutes ago; the room averages 18."
    assert one in text and two in text and text.index(one) < text.index(two)
    assert text.count(">slow</span>") == 1 and "1 slow table." in text
    assert "Round 1: 10 minutes over" in text and "Round 2: 8 minutes left" in text
    assert "Give 5 more minutes" in text and "30 minutes a round." in text


def test_one_tap_gives_five_minutes_says_so_and_history_keeps_it(director, event):
    response = grant(director, event, **HX)
    assert response.status_code == 200
    assert "Gave table 1 5 more minutes." in response.text
    assert "5 more minutes given by the director." in response.text
    assert "Round 1: 5 minutes over" in response.text
    history = director.get(reverse("director-event-history", args=[event.slug])).text
    assert "Gave table 1 (rotation 1) 5 more minutes for round 1." in history


def test_without_javascript_the_panel_is_a_page_and_a_grant_goes_back_to_it(director, event):
    page = panel(director, event)
    assert "<html" in page.text and "The room's pace" in page.text
    response = grant(director, event, table=2, minutes="15")
    assert response.status_code == 302 and response["Location"] == reverse("director-event-pace", args=[event.slug])
    assert TableExtraTime.objects.get().minutes == 15
    assert "Gave table 2 15 more minutes." in director.get(response["Location"]).text


@pytest.mark.parametrize("minutes", ["0", "61", "ten", ""])
def test_minutes_out_of_range_are_refused_in_words_and_change_nothing(director, event, minutes):
    text = grant(director, event, minutes=minutes, **HX).text
    assert "Choose a table and from 1 to 60 more minutes." in text
    assert not TableExtraTime.objects.exists() and "minutes:" not in text


def test_a_finished_table_is_refused_in_words(director, client, event):
    first = games_of(event)[0]
    for number in range(1, 5):
        enter_round(client, first, 0, number, 40 - 8 * number, f"a{number}")
    text = grant(director, event, **HX).text
    assert "Table 1 of rotation 1 has finished its game" in text
    assert "Table 1: finished." in text and not TableExtraTime.objects.exists()


def test_no_rotation_being_played_and_no_round_time_are_said(director, event):
    Event.objects.filter(pk=event.pk).update(round_minutes=None)
    text = panel(director, event, **HX).text
    assert "No round time, so no clocks" in text and 'role="timer"' not in text
    assert "Give 5 more minutes" not in text
    Rotation.objects.filter(event=event).update(status=Rotation.Status.CLOSED)
    assert "No rotation is being played" in panel(director, event, **HX).text


def test_only_the_events_directors_see_or_post(client, event):
    url = reverse("director-event-pace", args=[event.slug])
    assert panel(client, event).status_code == 302  # to sign in
    assert grant(client, event).status_code == 302
    client.force_login(UserFactory())
    assert panel(client, event).status_code == 403
    assert grant(client, event).status_code == 403
    Event.objects.filter(pk=event.pk).update(is_public=False)
    assert client.get(url).status_code == 404
    assert not TableExtraTime.objects.exists()
    assert not AuditEntry.objects.filter(action="table_extra_time").exists()

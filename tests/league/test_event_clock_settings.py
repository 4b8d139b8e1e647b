"""Issue 47: the director sets the round time (or none) and the wall's chime on the event form;
a round time outside 5-240 minutes is refused in words and changes nothing."""

import pytest
from django.urls import reverse

from core.errors import Invalid
from league import services
from league.models import AuditEntry, Event
from tests.factories import EventFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(client):
    membership = MembershipFactory(role="director")
    client.force_login(membership.user)
    client.club = membership.club
    return client


def settings_form(event: Event, **overrides: str) -> dict[str, object]:
    data: dict[str, object] = {
        "name": event.name, "date": "2026-12-19", "kind": "tournament",
        "rules_preset": "classic", "rules_overrides": "", "format": "rotating",
        "table_sizes": ["4"], "odd_handling": "sit_out", "planned_rotations": "3",
        "scoring": "match_points", "is_public": "on", "tie_break_1": "total_points",
    }
    data.update(overrides)
    return data


def test_the_round_time_and_the_chime_are_set_on_the_form_and_said_in_history(director_client):
    event = EventFactory(club=director_client.club)
    url = reverse("director-event-edit", args=[event.slug])
    page = director_client.get(url).text
    assert "Round time in minutes" in page and "empty: no clock" in page
    response = director_client.post(url, settings_form(event, round_minutes="35", wall_chime="on"))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.round_minutes == 35 and event.wall_chime
    summary = AuditEntry.objects.filter(event=event, action="event_settings").get().summary
    assert "round time in minutes none \u2192 35" in summary and "chime on the wall no \u2192 yes" in summary
    assert 'value="35"' in director_client.get(url).text


def test_an_empty_round_time_means_no_clock_and_the_chime_is_off_by_default(director_client):
    event = EventFactory(club=director_client.club, round_minutes=30, wall_chime=True)
    response = director_client.post(reverse("director-event-edit", args=[event.slug]),
                                    settings_form(event, round_minutes=""))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.round_minutes is None and not event.wall_chime


@pytest.mark.parametrize("minutes", ["4", "241", "-3", "half an hour"])
def test_a_round_time_out_of_range_is_refused_in_words(director_client, minutes):
    event = EventFactory(club=director_client.club, round_minutes=30)
    response = director_client.post(reverse("director-event-edit", args=[event.slug]),
                                    settings_form(event, round_minutes=minutes, name="Renamed"))
    assert response.status_code == 200
    assert "Give the round time in minutes, from 5 to 240, or leave it empty for no clock." in response.text
    event.refresh_from_db()
    assert event.round_minutes == 30 and event.name != "Renamed"


@pytest.mark.parametrize("minutes", [4, 241, 0, True, "30"])
def test_the_service_refuses_a_round_time_out_of_range(minutes):
    event = EventFactory(round_minutes=30)
    with pytest.raises(Invalid) as refused:
        services.event_update(event=event, round_minutes=minutes)
    assert refused.value.message == "Round time: give minutes from 5 to 240, or none for no clock."
    event.refresh_from_db()
    assert event.round_minutes == 30


def test_the_service_creates_an_event_with_a_round_time():
    club = MembershipFactory(role="director").club
    event = services.event_create(club=club, name="Clocked", date=EventFactory.date, round_minutes=5)
    assert event.round_minutes == 5 and not event.wall_chime

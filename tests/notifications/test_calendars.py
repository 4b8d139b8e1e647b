"""Calendar feeds, parsed back with icalendar: a club's nights, a league's, a player's own with
seats; a moved night is updated in place (same UID, a higher SEQUENCE) and a called-off one is
shown cancelled."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from league.models import Event, Registration, Rotation
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory, make_game

pytestmark = pytest.mark.django_db


def _feed(client, url):
    answer = client.get(url)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(answer.content)


def _entries(calendar):
    return {str(c["uid"]): c for c in calendar.walk("VEVENT")}


def test_a_clubs_feed_lists_its_public_nights_with_time_and_place(client):
    soon = timezone.localdate() + datetime.timedelta(days=7)
    night = EventFactory(
        name="Tuesday league",
        date=soon,
        starts_at=datetime.time(19, 30),
        place="The Crown, back room",
    )
    EventFactory(club=night.club, name="Private", is_public=False, date=soon)
    entries = _entries(_feed(client, reverse("club-calendar", args=[night.club.slug])))
    assert list(entries) == [f"event-{night.pk}@hand-and-foot-league"]
    entry = entries[f"event-{night.pk}@hand-and-foot-league"]
    assert str(entry["summary"]) == "Tuesday league"
    assert str(entry["location"]) == "The Crown, back room"
    start = entry.decoded("dtstart")
    assert (start.date(), start.hour, start.minute) == (soon, 19, 30)
    assert entry.decoded("dtend") - start == datetime.timedelta(hours=3)
    assert str(entry["status"]) == "CONFIRMED"


def test_a_moved_night_is_updated_in_place_and_a_called_off_one_is_cancelled(client):
    soon = timezone.localdate() + datetime.timedelta(days=3)
    night = EventFactory(date=soon, starts_at=datetime.time(19, 0))
    url = reverse("club-calendar", args=[night.club.slug])
    uid = f"event-{night.pk}@hand-and-foot-league"
    before = _entries(_feed(client, url))[uid]
    Event.objects.filter(pk=night.pk).update(
        date=soon + datetime.timedelta(days=1),
        updated_at=night.updated_at + datetime.timedelta(minutes=5),
    )
    moved = _entries(_feed(client, url))[uid]
    assert moved.decoded("dtstart").date() == soon + datetime.timedelta(days=1)
    assert int(moved["sequence"]) > int(before["sequence"])
    Event.objects.filter(pk=night.pk).update(
        cancelled_at=timezone.now(), updated_at=night.updated_at + datetime.timedelta(hours=1)
    )
    cancelled = _entries(_feed(client, url))[uid]
    assert str(cancelled["status"]) == "CANCELLED"
    assert int(cancelled["sequence"]) > int(moved["sequence"])


def test_a_night_without_a_time_is_a_whole_day(client):
    night = EventFactory(date=timezone.localdate())
    entry = _entries(_feed(client, reverse("club-calendar", args=[night.club.slug])))
    assert list(entry.values())[0].decoded("dtstart") == timezone.localdate()


def test_a_leagues_feed_lists_the_nights_of_its_seasons(client):
    league = LeagueFactory()
    season = SeasonFactory(league=league)
    night = EventFactory(club=league.club, season=season, date=timezone.localdate())
    EventFactory(club=league.club, date=timezone.localdate())  # not in the league
    url = reverse("league-calendar", args=[league.club.slug, league.slug])
    assert list(_entries(_feed(client, url))) == [f"event-{night.pk}@hand-and-foot-league"]


def test_a_players_own_feed_is_secret_and_shows_their_seats_once_published(client):
    night = EventFactory(date=timezone.localdate(), is_public=False)
    players = [PlayerFactory(club=night.club) for _ in range(4)]
    for player in players:
        Registration.objects.create(event=night, player=player)
    make_game(event=night, players=players)
    me = players[2]
    me.calendar_token = "s3cret-token-of-twenty-plus-characters"
    me.save()
    url = reverse("player-calendar", args=[me.calendar_token])
    Rotation.objects.filter(event=night).update(status=Rotation.Status.DRAFT)
    draft = _entries(_feed(client, url))[f"event-{night.pk}@hand-and-foot-league"]
    assert "table" not in str(draft["description"])  # not seated yet as far as anyone knows
    Rotation.objects.filter(event=night).update(status=Rotation.Status.STARTED)
    entry = _entries(_feed(client, url))[f"event-{night.pk}@hand-and-foot-league"]
    assert str(entry["description"]) == "Rotation 1: table 1, seat 3"
    assert client.get(reverse("player-calendar", args=["x" * 30])).status_code == 404
    assert (
        client.get(reverse("club-calendar", args=[night.club.slug])).content.count(b"VEVENT") == 0
    )


def test_an_event_page_offers_its_night_for_a_calendar(client):
    night = EventFactory(date=timezone.localdate(), starts_at=datetime.time(19, 30), place="Hall 2")
    page = client.get(night.get_absolute_url()).content.decode()
    assert "from 19:30" in page and "Hall 2" in page
    link = reverse("event-calendar", args=[night.slug])
    assert f'href="{link}"' in page
    assert list(_entries(_feed(client, link))) == [f"event-{night.pk}@hand-and-foot-league"]
    private = EventFactory(date=timezone.localdate(), is_public=False)
    assert client.get(reverse("event-calendar", args=[private.slug])).status_code in (403, 404)


def test_a_director_sets_the_time_and_place_and_calls_a_night_off(client):
    from tests.factories import MembershipFactory

    night = EventFactory(date=timezone.localdate() + datetime.timedelta(days=2))
    client.force_login(MembershipFactory(club=night.club, role="director").user)
    form = client.get(reverse("director-event-edit", args=[night.slug])).content.decode()
    assert 'name="starts_at"' in form and 'name="place"' in form
    feed = reverse("club-calendar", args=[night.club.slug])
    uid = f"event-{night.pk}@hand-and-foot-league"
    first = _entries(_feed(client, feed))[uid]
    client.post(reverse("director-event-call-off", args=[night.slug]), {"off": "yes"})
    night.refresh_from_db()
    assert night.cancelled_at is not None
    called_off = _entries(_feed(client, feed))[uid]
    assert str(called_off["status"]) == "CANCELLED"
    assert int(called_off["sequence"]) >= int(first["sequence"])
    assert "This night is called off." in client.get(night.get_absolute_url()).content.decode()
    client.post(reverse("director-event-call-off", args=[night.slug]), {"off": "no"})
    night.refresh_from_db()
    assert night.cancelled_at is None

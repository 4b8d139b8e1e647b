"""A club's own time zone: chosen when the club is started and on its page (the site's
`TIME_ZONE` only the default), refused when it is not a zone, given to the clubs there were by the
migration, and the zone the club's pages read and take times in: a night typed 19:30 reads
19:30 on its pages and in its calendar, a moment (a line of the history) reads on the club's
clock, and the next request is back on the site's zone."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from core.errors import Invalid
from league import services
from league.errors import Code
from league.models import AuditEntry, Club, Event
from league.services.audit import audit_record
from tests.factories import ClubFactory, EventFactory, MembershipFactory, UserFactory

NEW_YORK, BERLIN = "America/New_York", "Europe/Berlin"


@pytest.fixture
def director_client(client):
    membership = MembershipFactory(role="director", club=ClubFactory(time_zone=NEW_YORK))
    client.force_login(membership.user)
    return client, membership.club


@pytest.mark.django_db
def test_a_director_chooses_the_clubs_time_zone_when_starting_it(client):
    client.force_login(UserFactory())
    page = client.get(reverse("director-home")).content.decode()
    assert 'name="time_zone"' in page and "America/New York" in page
    client.post(reverse("director-club-create"), {"name": "Hudson Club", "time_zone": NEW_YORK})
    assert Club.objects.get(name="Hudson Club").time_zone == NEW_YORK


@pytest.mark.django_db
def test_a_club_started_without_a_zone_takes_the_sites_time_zone(client, settings):
    settings.TIME_ZONE = BERLIN
    assert services.club_create(name="Spree Club").time_zone == BERLIN
    client.force_login(UserFactory())
    client.post(reverse("director-club-create"), {"name": "Harbour Club"})
    assert Club.objects.get(name="Harbour Club").time_zone == BERLIN


@pytest.mark.django_db
def test_a_zone_that_is_not_one_is_refused_and_changes_nothing():
    club = ClubFactory(time_zone=BERLIN)
    with pytest.raises(Invalid) as refused:
        services.club_update(club=club, time_zone="Mars/Olympus_Mons")
    assert refused.value.code == Code.BAD_TIME_ZONE and "Mars/Olympus_Mons" in refused.value.message
    with pytest.raises(Invalid):
        services.club_create(name="Nowhere Club", time_zone="UTC+3")
    club.refresh_from_db()
    assert club.time_zone == BERLIN and not Club.objects.filter(name="Nowhere Club").exists()


@pytest.mark.django_db
def test_the_director_changes_the_clubs_zone_on_its_page(director_client):
    client, club = director_client
    page = client.get(reverse("director-club", args=[club.slug])).content.decode()
    assert "New York time" in page
    answer = client.post(reverse("director-club-time-zone", args=[club.slug]),
                         {"time_zone": BERLIN}, follow=True)
    assert "now plays on Berlin time" in answer.content.decode()
    club.refresh_from_db()
    assert club.time_zone == BERLIN
    answer = client.post(reverse("director-club-time-zone", args=[club.slug]),
                         {"time_zone": "Berlin"}, follow=True)
    assert "Choose a time zone from the list." in answer.content.decode()
    club.refresh_from_db()
    assert club.time_zone == BERLIN


@pytest.mark.django_db
def test_a_night_typed_half_past_seven_reads_half_past_seven_on_its_page_and_in_its_calendar(
        director_client):
    client, club = director_client
    day = timezone.localdate() + datetime.timedelta(days=10)
    form = {
        "club": club.pk, "name": "Hudson Tuesday", "date": day.isoformat(), "starts_at": "19:30",
        "kind": "tournament", "rules_preset": "classic", "rules_overrides": "",
        "format": "rotating", "table_sizes": ["4"], "odd_handling": "sit_out",
        "planned_rotations": "3", "scoring": "match_points", "is_public": "on",
        "tie_break_1": "total_points", "tie_break_2": "wins",
    }
    client.post(reverse("director-event-create"), form)
    night = Event.objects.get(name="Hudson Tuesday")
    assert (night.date, night.starts_at) == (day, datetime.time(19, 30))
    page = client.get(reverse("event-detail", args=[night.slug])).content.decode()
    assert "from 19:30 (New York time)" in page
    feed = Calendar.from_ical(client.get(reverse("event-calendar", args=[night.slug])).content)
    start = next(iter(feed.walk("VEVENT"))).decoded("dtstart")
    assert start == datetime.datetime.combine(day, datetime.time(19, 30), ZoneInfo(NEW_YORK))


@pytest.mark.django_db
def test_a_clubs_history_reads_on_the_clubs_clock_and_the_next_request_on_the_sites(client,
                                                                                    settings):
    """The same moment (23:30 UTC) is 19:30 in New York and 01:30 the next day in Berlin."""
    moment = datetime.datetime(2026, 7, 1, 23, 30, tzinfo=datetime.UTC)
    shown = {NEW_YORK: "Wed 1 Jul 19:30", BERLIN: "Thu 2 Jul 01:30"}
    for zone, words in shown.items():
        membership = MembershipFactory(role="director", club=ClubFactory(time_zone=zone))
        event = EventFactory(club=membership.club)
        audit_record(club=event.club, event=event, user=membership.user, action="note",
                     summary="Opened the doors.")
        AuditEntry.objects.filter(event=event).update(created_at=moment)
        client.force_login(membership.user)
        page = client.get(reverse("director-event-history", args=[event.slug])).content.decode()
        assert words in page, zone
        assert timezone.get_current_timezone_name() == settings.TIME_ZONE  # not left behind


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_migration_gives_the_clubs_there_were_the_sites_time_zone(settings):
    """The migration's step run on this database as it was before it (the column dropped,
    a club there): PostgreSQL rolls the change of schema back with the test."""
    settings.MIGRATION_MODULES = {}  # the suite runs without migrations: read them here
    # The original migrations, not the squashed one that replaces them on a new database.
    loader = MigrationLoader(None, ignore_no_migrations=True, replace_migrations=False)
    migration = loader.get_migration("league", "0013_club_time_zone")
    before = loader.project_state(("league", "0012_substitution"))
    after = loader.project_state(("league", "0013_club_time_zone"))
    with connection.schema_editor() as editor:
        editor.remove_field(Club, Club._meta.get_field("time_zone"))
    before.apps.get_model("league", "Club").objects.create(name="Old Club", slug="old-club")
    settings.TIME_ZONE = "America/Chicago"
    with connection.schema_editor() as editor:
        migration.apply(before, editor)
    assert Club.objects.get(slug="old-club").time_zone == "America/Chicago"
    assert after.models["league", "club"].fields["time_zone"].default() == "America/Chicago"


@pytest.mark.django_db
def test_the_api_takes_and_gives_the_clubs_time_zone(api_client):
    user = UserFactory()
    api_client.force_authenticate(user)
    made = api_client.post("/api/clubs/", {"name": "Hudson Club", "time_zone": NEW_YORK},
                           format="json")
    assert made.status_code == 201 and made.json()["time_zone"] == NEW_YORK
    club_id = made.json()["id"]
    moved = api_client.patch(f"/api/clubs/{club_id}/", {"time_zone": BERLIN}, format="json")
    assert moved.status_code == 200 and moved.json()["time_zone"] == BERLIN
    refused = api_client.patch(f"/api/clubs/{club_id}/", {"time_zone": "Berlin"}, format="json")
    assert refused.status_code == 400
    assert Club.objects.get(pk=club_id).time_zone == BERLIN

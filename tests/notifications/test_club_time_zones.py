"""A club's own time zone in what goes out of the site: two clubs six hours apart (New York and
Berlin, whose daylight-saving changes fall on different dates), each with nights typed 19:30.
Their calendars say 19:30 in the club's zone (parsed back with icalendar, compared as aware
moments, and through the feed's own VTIMEZONE), a weekly series across the club's
daylight-saving change stays at 19:30, the reminder goes out at each club's own hour and mail
writes its times in the club's zone. Dates follow today: the series is built around each zone's
next daylight-saving change."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from games.models import ResultVersion
from league.models import Event
from notifications.models import ClubMail, Contact
from notifications.services.nights import due_reminders_send
from notifications.services.results import result_mails_send
from tests.factories import ClubFactory, EventFactory, PlayerFactory
from tests.notifications.test_result_mail import confirmed_game  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

NEW_YORK, BERLIN = "America/New_York", "Europe/Berlin"
HALF_PAST_SEVEN = datetime.time(19, 30)


def _offset(zone: str, day: datetime.date) -> datetime.timedelta:
    return datetime.datetime.combine(day, datetime.time(12), ZoneInfo(zone)).utcoffset()


def next_change(zone: str, after: datetime.date) -> datetime.date:
    """The first day after `after` whose noon is on the other side of a daylight-saving change."""
    for n in range(1, 400):
        day = after + datetime.timedelta(days=n)
        if _offset(zone, day) != _offset(zone, day - datetime.timedelta(days=1)):
            return day
    raise AssertionError(f"{zone} has no daylight-saving change within a year")


def weekly_nights(club, around: datetime.date) -> list[Event]:
    """Six nights a week apart at 19:30, three before the change's day and three from it."""
    return [
        EventFactory(club=club, name=f"Week {n}", date=around + datetime.timedelta(weeks=n),
                     starts_at=HALF_PAST_SEVEN, place="The Crown")
        for n in range(-3, 3)
    ]


@pytest.fixture
def two_clubs():
    return ClubFactory(name="Hudson Club", time_zone=NEW_YORK), ClubFactory(
        name="Spree Club", time_zone=BERLIN)


def _feed(client, club) -> Calendar:
    answer = client.get(reverse("club-calendar", args=[club.slug]))
    assert answer.status_code == 200
    return Calendar.from_ical(answer.content)


def test_each_clubs_calendar_keeps_its_weekly_night_at_half_past_seven_across_daylight_saving(
        client, two_clubs):
    today = timezone.localdate()
    for club in two_clubs:
        change = next_change(club.time_zone, today + datetime.timedelta(days=21))
        nights = weekly_nights(club, change)
        calendar = _feed(client, club)
        zones = {str(tz["tzid"]): tz for tz in calendar.walk("VTIMEZONE")}
        assert set(zones) == {club.time_zone}
        from_the_feed = zones[club.time_zone].to_tz()  # the rules the feed itself carries
        starts = {str(e["summary"]): e for e in calendar.walk("VEVENT")}
        offsets = set()
        for night in nights:
            entry = starts[night.name]
            start = entry.decoded("dtstart")
            expected = datetime.datetime.combine(night.date, HALF_PAST_SEVEN, ZoneInfo(club.time_zone))
            assert entry["dtstart"].params["TZID"] == club.time_zone
            assert start == expected  # the same moment
            assert (start.hour, start.minute) == (19, 30)
            local = start.astimezone(datetime.UTC).astimezone(from_the_feed)
            assert (local.hour, local.minute) == (19, 30), night.date
            assert entry.decoded("dtend") - start == datetime.timedelta(hours=3)
            offsets.add(start.utcoffset())
        assert len(offsets) == 2  # the series crossed the change and stayed at 19:30


def test_the_same_evening_in_the_two_clubs_is_six_hours_apart_in_their_calendars(client, two_clubs):
    new_york, berlin = two_clubs
    # a day both zones are on winter (or both on summer) time: six hours apart
    day = timezone.localdate() + datetime.timedelta(days=7)
    while _offset(BERLIN, day) - _offset(NEW_YORK, day) != datetime.timedelta(hours=6):
        day += datetime.timedelta(days=1)
    for club in two_clubs:
        EventFactory(club=club, name="Club night", date=day, starts_at=HALF_PAST_SEVEN)
    there = {club.pk: next(iter(_feed(client, club).walk("VEVENT"))).decoded("dtstart")
             for club in two_clubs}
    assert there[new_york.pk] - there[berlin.pk] == datetime.timedelta(hours=6)


def _reminded_club(club):
    ClubMail.objects.create(club=club, reminder_hours=24)
    player = PlayerFactory(club=club, name=f"Reader of {club.name}")
    Contact.objects.create(player=player, email=f"{club.slug}@example.net")


@pytest.mark.parametrize("changing", [NEW_YORK, BERLIN])
def test_the_reminder_goes_out_at_each_clubs_own_hour_the_day_before_across_daylight_saving(
        smtp, two_clubs, changing):
    """Both clubs play on the day one of them changes its clocks, reminders a day ahead: each
    club is reminded at 19:30 on its own clock the evening before (23 or 25 hours ahead for the
    club whose clocks change), Berlin's six hours before New York's."""
    new_york, berlin = two_clubs
    day = next_change(changing, timezone.localdate() + datetime.timedelta(days=2))
    for club in two_clubs:
        _reminded_club(club)
        EventFactory(club=club, name=f"{club.name} night", date=day, starts_at=HALF_PAST_SEVEN)
    evening_before = day - datetime.timedelta(days=1)

    def at(clock: datetime.time, club) -> datetime.datetime:
        return datetime.datetime.combine(evening_before, clock, ZoneInfo(club.time_zone))

    just_before, just_after = datetime.time(19, 29), datetime.time(19, 31)
    assert due_reminders_send(now=at(just_before, berlin)) == 0
    assert due_reminders_send(now=at(just_after, berlin)) == 1
    assert [m["To"] for m in smtp.messages] == [f"{berlin.slug}@example.net"]
    assert due_reminders_send(now=at(just_before, new_york)) == 0
    assert due_reminders_send(now=at(just_after, new_york)) == 1
    assert [m["To"] for m in smtp.messages][1:] == [f"{new_york.slug}@example.net"]
    for message in smtp.messages:
        assert "from 19:30" in message.get_body(("plain",)).get_content()


def test_the_result_mail_gives_the_dispute_deadline_on_the_clubs_clock(smtp, settings,
                                                                        confirmed_game):  # noqa: F811
    game, _ = confirmed_game
    club = game.table.rotation.event.club
    club.time_zone = NEW_YORK
    club.save()
    confirmed = datetime.datetime(2026, 7, 1, 20, 15, tzinfo=datetime.UTC)
    ResultVersion.objects.filter(game=game).update(confirmed_at=confirmed)
    deadline = (confirmed + datetime.timedelta(hours=settings.MAIL_DISPUTE_HOURS)).astimezone(
        ZoneInfo(NEW_YORK))
    assert result_mails_send(game_id=game.pk) == 3
    text = smtp.messages[0].get_body(("plain",)).get_content()
    assert f"until {deadline:%-d %B %Y, %H:%M}" in text
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE  # only while it was written

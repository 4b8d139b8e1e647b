"""Issue 23: HANDFOOT_TODAY on an existing demo moves its dates (by whole weeks, so weekdays and
tonight's night stay right) and says so in one line, instead of "already loaded" and nothing;
and the home page files events by their status as well as their date."""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import RoundResult
from league.models import Event, Season, Seat
from site_pages.demo import DEMO_CLUB_SLUG, LEAGUE_WEEKDAY, build_demo, weekday_on_or_before

pytestmark = pytest.mark.django_db

BUILT = datetime.date(2026, 11, 3)  # a Tuesday


def demo_command(monkeypatch, today: datetime.date) -> str:
    monkeypatch.setenv("HANDFOOT_TODAY", today.isoformat())
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue().strip()


def dates() -> dict[str, datetime.date]:
    return dict(Event.objects.filter(club__slug=DEMO_CLUB_SLUG).values_list("name", "date"))


@pytest.fixture
def demo():
    """The demo's league nights (its tournaments move with them the same way: the home page's
    test has them)."""
    return build_demo(today=BUILT, past_nights=2)


@pytest.fixture
def demo_with_tournaments():
    return build_demo(today=BUILT, past_nights=2, tournament=True)


def test_a_later_handfoot_today_moves_the_demo_by_whole_weeks_and_says_so(monkeypatch, demo):
    before = dates()
    seats, rounds = Seat.objects.count(), RoundResult.objects.count()
    later = BUILT + datetime.timedelta(weeks=3, days=4)  # a Saturday three weeks on

    said = demo_command(monkeypatch, later)

    assert said.count("\n") == 0
    assert said.startswith("Demo data is already loaded; moved its dates 3 weeks later")
    assert "Tuesday 24 November 2026" in said
    after = dates()
    assert {name: day - datetime.timedelta(weeks=3) for name, day in after.items()} == before
    tonight = Event.objects.get(pk=demo.event.pk)
    assert tonight.date == weekday_on_or_before(later, LEAGUE_WEEKDAY) == datetime.date(2026, 11, 24)
    assert tonight.status == Event.Status.RUNNING
    assert tonight.slug.endswith("2026-11-24")
    assert all(day.weekday() == LEAGUE_WEEKDAY for name, day in after.items() if "Tuesday" in name)
    assert Season.objects.get(pk=demo.season.pk).starts_on == demo.season.starts_on + datetime.timedelta(weeks=3)
    assert (Seat.objects.count(), RoundResult.objects.count()) == (seats, rounds)


def test_the_same_week_again_changes_nothing_and_says_so(monkeypatch, demo):
    demo_command(monkeypatch, BUILT + datetime.timedelta(weeks=2))
    before = dates()
    said = demo_command(monkeypatch, BUILT + datetime.timedelta(weeks=2, days=5))
    assert said == ("Demo data is already loaded; its dates already follow today (tonight's "
                    "league night: Tuesday 17 November 2026). Nothing changed.")
    assert dates() == before


def test_an_earlier_handfoot_today_moves_it_back(monkeypatch, demo):
    before = dates()
    said = demo_command(monkeypatch, BUILT - datetime.timedelta(weeks=1))
    assert "moved its dates 1 week earlier" in said
    assert {name: day + datetime.timedelta(weeks=1) for name, day in dates().items()} == before


def test_the_home_page_files_the_moved_demo_by_status(monkeypatch, client, demo_with_tournaments):
    """With the demo's clock ahead of the server's (its finished nights dated after today), a
    finished event is never "upcoming", and "Recent" is not empty."""
    demo_command(monkeypatch, datetime.date.today() + datetime.timedelta(weeks=8))
    page = client.get("/").content.decode()
    upcoming, recent = page.split('id="recent-heading"')

    assert "Tuesday Night 1" in recent and "Tuesday Night 1" not in upcoming
    assert "Harvest Classic" in recent and "No events played yet" not in recent
    assert "Tuesday Night 3" in upcoming  # tonight's, still running
    assert "Winter Open" in upcoming

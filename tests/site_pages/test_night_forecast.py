"""Issue 47: when the night will end, in words on the wall (and the director's room view): the
club's time zone, tables by number, and a forecast that moves as rounds are entered."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Event
from site_pages.views.night_forecast import forecast_context
from tests.games.factories import named_game, running_event
from tests.games.test_round_times import enter_round, started

pytestmark = pytest.mark.django_db

NEW_YORK = "America/New_York"


@pytest.fixture
def game():
    event = running_event(planned_rotations=1)
    event.club.time_zone = NEW_YORK
    event.club.save()
    return named_game(event=event)


def minutes_ahead(words: str, zone: str) -> list[int]:
    """Each HH:MM in `words` as minutes after now on the clock of `zone` (within a day)."""
    now = timezone.localtime(timezone.now(), ZoneInfo(zone))
    return [(int(h) * 60 + int(m) - now.hour * 60 - now.minute) % (24 * 60)
            for h, m in re.findall(r"(\d\d):(\d\d)", words)]


def wall_fragment(client, event) -> str:
    page = client.get(reverse("event-wall", args=[event.slug]), HTTP_X_REQUESTED_WITH="fetch")
    assert page.status_code == 200
    return page.content.decode()


def test_the_forecast_speaks_of_the_last_table_and_each_table_in_the_clubs_time(client, game):
    started(game, 10)
    forecast = forecast_context(event=game.table.rotation.event)["forecast"]
    assert re.fullmatch(r"Last table about \d\d:\d\d, between \d\d:\d\d and \d\d:\d\d\.",
                        forecast["room"])
    about, earliest, latest = minutes_ahead(forecast["room"], NEW_YORK)
    # a 4-round game 10 minutes in: about 2 hours on New York's clock, not UTC's (5 hours off)
    assert 60 <= earliest <= about <= latest <= 240
    assert forecast["tables"] == [f"Table 1 about {forecast['room'][17:22]}"]
    assert forecast["counting"] == "No more rotations planned after this one."


def test_no_forecast_before_the_first_rotation_starts_or_once_the_night_is_over(client, game):
    event = game.table.rotation.event
    assert forecast_context(event=event) == {}  # seated, not started
    started(game, 10)
    assert forecast_context(event=event) != {}
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    assert forecast_context(event=event) == {}


def table_time(html: str) -> str:
    found = re.search(r"Table 1 about (\d\d:\d\d)\.", html)
    assert found is not None, html
    return found.group(1)


def test_the_wall_shows_the_forecast(client, game):
    started(game, 10)
    html = wall_fragment(client, game.table.rotation.event)
    assert '<h2 id="night-forecast-title" class="visually-hidden">When the night ends</h2>' in html
    assert "Last table about" in html and table_time(html)
    assert "table_number" not in html and "rotation_number" not in html


def test_the_forecast_moves_when_rounds_are_entered(client, game):
    started(game, 100)
    enter_round(client, game, 0, 1, 70, "a1")  # round 2 has taken 70 minutes already
    event = game.table.rotation.event
    before = forecast_context(event=event)["forecast"]["tables"][0]
    for number, minutes_ago in ((2, 45), (3, 20)):
        enter_round(client, game, 0, number, minutes_ago, f"a{number}")
    after = forecast_context(event=event)["forecast"]["tables"][0]
    [left_before] = minutes_ahead(before, NEW_YORK)
    [left_after] = minutes_ahead(after, NEW_YORK)
    assert left_after <= 45 < 60 <= left_before  # only round 4 is left, not two and a half


def test_a_rotation_to_come_is_counted_after_the_one_being_played(client, game):
    event = game.table.rotation.event
    Event.objects.filter(pk=event.pk).update(planned_rotations=3)
    event.refresh_from_db()
    started(game, 10)
    alone = forecast_context(event=event)["forecast"]
    assert alone["counting"] == "Counting 2 more rotations after this one."
    [table_done] = minutes_ahead(alone["tables"][0], NEW_YORK)
    night_done = minutes_ahead(alone["room"], NEW_YORK)[0]
    assert night_done >= table_done + 2 * 60
    assert timedelta(minutes=night_done) < timedelta(hours=12)


def test_the_wall_redraws_the_forecast_when_a_round_is_entered(client, game):
    started(game, 100)
    enter_round(client, game, 0, 1, 70, "a1")
    event = game.table.rotation.event
    before = table_time(wall_fragment(client, event))
    enter_round(client, game, 0, 2, 30, "a2")
    after = table_time(wall_fragment(client, event))
    [left_before] = minutes_ahead(before, NEW_YORK)
    [left_after] = minutes_ahead(after, NEW_YORK)
    assert left_after < left_before

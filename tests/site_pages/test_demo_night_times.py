"""Issue 47: the demo's finished nights carry a real night's times, so the forecast has a club
pace to learn from: rounds of 20-45 minutes, tables at their own pace, rotations one after the
other."""

from datetime import timedelta

import pytest

from games.selectors.round_times import club_past_round_times
from league.models import Event
from site_pages.demo import build_demo
from site_pages.views.night_forecast import forecast_context

pytestmark = pytest.mark.django_db


def test_the_demos_past_nights_have_rounds_of_twenty_to_forty_five_minutes():
    demo = build_demo(past_nights=2)
    past = club_past_round_times(club=demo.club, before=demo.event)
    assert {t.rotation_number for t in past} == {1, 2} and len(past) == 8
    sheets = [t for t in past if len(t.ends) == 4]
    assert sheets  # the tables that entered round by round
    rounds = [d / timedelta(minutes=1) for t in sheets for d in t.durations()]
    assert all(20 <= m <= 45 for m in rounds)
    games = {round((t.done_at - t.started_at) / timedelta(minutes=1)) for t in past}
    assert len(games) > 4  # tables differ in pace
    for night in Event.objects.filter(club=demo.club, status=Event.Status.FINISHED):
        tables = [t for t in past if t.table_id in set(
            night.rotations.values_list("tables", flat=True))]
        first = max(t.done_at for t in tables if t.rotation_number == 1)
        second = min(t.started_at for t in tables if t.rotation_number == 2)
        assert timedelta(minutes=3) <= second - first <= timedelta(minutes=8)


def test_the_demos_running_night_shows_a_forecast():
    demo = build_demo(past_nights=2)
    forecast = forecast_context(event=demo.event)["forecast"]
    assert forecast["room"].startswith("Last table about ")
    assert len(forecast["tables"]) == 2

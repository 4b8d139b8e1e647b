"""Issue 42: /me/ says a season line as people would. A player below the season's minimum
attendance has no place yet; the page used to say "None of 6"."""

import datetime

import pytest
from django.urls import reverse

from analytics.standings import services as standings_services
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, PlayerFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db


def _season_with_one_night_each(min_attendance: int):
    club = ClubFactory()
    user = UserFactory(username="ann")
    ann = PlayerFactory(club=club, name="Ann", user=user)
    others = [PlayerFactory(club=club, name=n) for n in ("Ben", "Cat", "Dan")]
    season = SeasonFactory(league__club=club, aggregate="sum", min_attendance=min_attendance)
    night = EventFactory(club=club, season=season, scoring="match_points",
                         date=datetime.date(2026, 11, 3))
    confirm(make_game(event=night, players=[ann, *others]), [[7200, 3555]])
    standings_services.event_recompute(event_id=night.pk)
    return user, season


def test_a_player_below_the_minimum_reads_that_they_have_no_place_yet(client):
    user, season = _season_with_one_night_each(min_attendance=3)
    client.force_login(user)
    page = client.get(reverse("my-page")).content.decode()
    assert "None of" not in page
    assert (f"{season}: no place yet: you have played 1 night of the 3 a place needs "
            "(4 players in the table), 7,200 points") in page


def test_a_ranked_player_reads_their_place(client):
    user, season = _season_with_one_night_each(min_attendance=1)
    client.force_login(user)
    assert f"{season}: 1 of 4, 1 night, 7,200 points" in client.get(reverse("my-page")).content.decode()

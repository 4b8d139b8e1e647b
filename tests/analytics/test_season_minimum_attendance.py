"""Issue 42: the season table orders the players below the minimum attendance as its note says:
after everyone ranked, without a place, "in the same order" (season score, then total points,
then nights), even when one of them has more points than a ranked player."""

import datetime
import re

import pytest
from django.urls import reverse

from analytics import selectors
from analytics.standings import services as standings_services
from analytics.standings.compute import Night, season_standings
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, PlayerFactory, SeasonFactory


def test_players_below_the_minimum_follow_in_the_ranked_order():
    # p9 (one night) has more points than p1 and p2 (ranked) and than p3 (one night, same score).
    nights = [Night(1, "p1", (1,), 2, 550), Night(2, "p1", (1,), 0, 0),
              Night(1, "p2", (2,), 2, 100), Night(2, "p2", (2,), 2, 60),
              Night(1, "p3", (3,), 2, 500), Night(2, "p9", (9,), 2, 900),
              Night(1, "p4", (4,), 0, 100), Night(2, "p5", (5,), 0, 300)]
    rows = season_standings(nights, aggregate="sum", best_n=None, min_attendance=2)
    assert [(r["key"], r["rank"]) for r in rows] == [
        ("p2", 1), ("p1", 2), ("p9", None), ("p3", None), ("p5", None), ("p4", None)]


@pytest.mark.django_db
def test_the_season_page_lists_a_low_attendance_player_with_more_points_as_it_says(client):
    club = ClubFactory()
    ann, ben, cat, dan, eve, fay = (PlayerFactory(club=club, name=n)
                                    for n in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"))
    season = SeasonFactory(league__club=club, aggregate="sum", min_attendance=2)
    first = EventFactory(club=club, season=season, scoring="match_points",
                         date=datetime.date(2026, 11, 3))
    second = EventFactory(club=club, season=season, scoring="match_points",
                          date=datetime.date(2026, 11, 10))
    confirm(make_game(event=first, players=[ann, ben, cat, dan]), [[500, 100]])  # Ann & Cat win
    confirm(make_game(event=second, players=[ann, ben, eve, fay]), [[50, 900]])  # Ben & Fay win
    standings_services.event_recompute(event_id=first.pk)
    standings_services.event_recompute(event_id=second.pk)
    rows = selectors.season_standings(season=season).rows
    # Ranked: Ben (2 match points, 1,000 points), Ann (2, 550). One night each, unranked: Fay
    # (2, 900: more points than Ann) before Cat (2, 500), then Dan (0, 100), Eve (0, 50).
    assert [(r["name"], r["rank"]) for r in rows] == [
        ("Ben", 1), ("Ann", 2), ("Fay", None), ("Cat", None), ("Dan", None), ("Eve", None)]
    page = client.get(reverse("season-standings", args=[season.pk])).content.decode()
    assert "listed after everyone ranked, without a place" in page and "in the same order" in page
    table = page[page.index("<tbody>"):page.index("</tbody>")]
    assert re.findall(r'<th scope="row">(\w+)', table) == ["Ben", "Ann", "Fay", "Cat", "Dan", "Eve"]

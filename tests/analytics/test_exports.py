"""The night's and the season's results and standings as CSV and XLSX: headers in words,
numbers as the pages show them, read back with the csv module and openpyxl; a private night
stays out of what others download."""

import csv
import io

import openpyxl
import pytest
from django.urls import reverse

from analytics.standings.services import event_recompute
from games.services.paper import result_enter_paper
from league.models import Rotation
from tests.factories import MembershipFactory, SeasonFactory
from tests.site.factories import games_of, seated_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    season = SeasonFactory(name="Autumn")
    event = seated_event(
        players=8,
        club=season.league.club,
        season=season,
        name="Tuesday night",
        status=Rotation.Status.CLOSED,
    )
    director = MembershipFactory(club=event.club, role="director").user
    first, second = games_of(event)
    result_enter_paper(game=first, user=director, expected_revision=0, totals=[4125, 2310])
    result_enter_paper(
        game=second,
        user=director,
        expected_revision=0,
        rounds=[[500, 300], [-100, 900], [1200, 1200], [2000, 15]],
    )
    event_recompute(event_id=event.pk)
    return season, event, director


def workbook(response):
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert "attachment" in response["Content-Disposition"]
    return openpyxl.load_workbook(io.BytesIO(response.content))


def rows(ws):
    return [list(r) for r in ws.iter_rows(values_only=True)]


def test_the_nights_workbook_has_standings_and_games_in_words(client, night):
    _, event, _ = night
    book = workbook(client.get(reverse("event-results-xlsx", args=[event.slug])))
    assert book.sheetnames == ["Standings", "Games"]
    standings = rows(book["Standings"])
    assert standings[0] == [
        "Place",
        "Name",
        "Games",
        "Won",
        "Tied",
        "Lost",
        "Match points",
        "Total points",
        "Point difference",
        "Points left in hand",
    ]
    first = dict(zip(standings[0], standings[1], strict=True))
    assert first["Place"] == 1 and first["Games"] == 1 and first["Won"] == 1
    assert first["Total points"] == 4125 and first["Match points"] == 2
    assert book["Standings"]["H2"].number_format == "#,##0"  # 4,125 as the page shows it
    games = rows(book["Games"])
    assert games[0] == [
        "Rotation",
        "Table",
        "Round",
        "Side",
        "Players",
        "Score",
        "Went out",
        "Clean books",
        "Dirty books",
        "Wild books",
        "Red 3s",
        "Points left in hand",
        "Game total",
    ]
    by_side = {(r[1], r[2], r[3]): r for r in games[1:]}
    assert by_side[(1, "game total", 1)][5] == 4125
    assert by_side[(2, 2, 2)][5] == 900 and by_side[(2, 2, 2)][12] == 2415
    assert by_side[(2, 2, 2)][6] is None  # scores only: the detail is blank, never zero
    assert not any("_" in str(h) for h in standings[0] + games[0])


def test_the_seasons_workbook_and_games_csv(client, night):
    season, event, _ = night
    book = workbook(client.get(reverse("season-results-xlsx", args=[season.pk])))
    standings = rows(book["Standings"])
    assert standings[0] == [
        "Place",
        "Name",
        "Nights",
        "Nights counted",
        "Match points",
        "Total points",
    ]
    assert len(standings) == 9
    games = rows(book["Games"])
    assert games[0] == ["Date", "Night", "Rotation", "Table", "Side", "Players", "Game total"]
    assert [r[6] for r in games[1:]] == [4125, 2310, 3600, 2415]
    assert games[1][1] == "Tuesday night" and games[1][0].date() == event.date
    assert book["Games"]["A2"].number_format == "d mmm yyyy"
    response = client.get(reverse("season-games-csv", args=[season.pk]))
    assert response["Content-Type"].startswith("text/csv")
    read = list(csv.reader(io.StringIO(response.content.decode())))
    assert read[0] == ["Date", "Night", "Rotation", "Table", "Side", "Players", "Game total"]
    assert read[1][1:] == ["Tuesday night", "1", "1", "1", "Player A & Player C", "4125"]
    assert read[1][0] == event.date.isoformat()


def test_figures_are_rounded_as_the_pages_show_them():
    from analytics.exports import shown_value

    assert shown_value("match_points", 1.3333333) == 1.33
    assert shown_value("match_points", 2.0) == 2
    assert shown_value("total_points", 4125.0) == 4125
    assert shown_value("name", "Ann") == "Ann"


def test_a_private_nights_games_stay_out_of_what_others_download(client, night):
    season, event, director = night
    event.is_public = False
    event.save(update_fields=["is_public"])
    assert client.get(reverse("event-results-xlsx", args=[event.slug])).status_code == 404
    book = workbook(client.get(reverse("season-results-xlsx", args=[season.pk])))
    assert len(rows(book["Games"])) == 1  # the header alone
    client.force_login(director)
    book = workbook(client.get(reverse("season-results-xlsx", args=[season.pk])))
    assert len(rows(book["Games"])) == 5


def test_the_event_and_season_pages_link_the_downloads(client, night):
    season, event, _ = night
    page = client.get(reverse("event-detail", args=[event.slug])).content.decode()
    assert reverse("event-results-xlsx", args=[event.slug]) in page
    club, league = season.league.club, season.league
    page = client.get(reverse("season-detail", args=[club.slug, league.slug, season.slug]))
    assert reverse("season-results-xlsx", args=[season.pk]) in page.content.decode()
    assert reverse("season-games-csv", args=[season.pk]) in page.content.decode()

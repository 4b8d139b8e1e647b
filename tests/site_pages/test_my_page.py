"""A player's own page: tonight's seats once seated, coming or not, how the name shows, the
data download and deleting the account with the standings unchanged."""

import datetime
import json

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from analytics.models import StandingsSnapshot
from analytics.standings import services as standings_services
from league.models import Attendance, Event, Player, Registration, Rotation
from league.services.attendance import attendance_register_coming
from league.services.credentials import side_credentials_ensure
from notifications.models import Contact
from tests.analytics.factories import confirm
from tests.factories import EventFactory, PlayerFactory, UserFactory, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def me(client):
    user = UserFactory(username="ann")
    tonight = EventFactory(
        date=timezone.localdate(),
        name="Tuesday night",
        starts_at=datetime.time(19, 30),
        status=Event.Status.RUNNING,
    )
    players = [
        PlayerFactory(club=tonight.club, name=n)
        for n in ("Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz")
    ]
    players[0].user = user
    players[0].save()
    for p in players:
        Registration.objects.create(event=tonight, player=p)
    client.force_login(user)
    return user, tonight, players


def test_tonights_seat_shows_as_soon_as_it_is_seated(client, me):
    _, tonight, players = me
    page = client.get(reverse("my-page")).content.decode()
    assert "Not seated yet" in page
    game = make_game(event=tonight, players=players)
    side_credentials_ensure(games=[game])
    Rotation.objects.filter(event=tonight).update(status=Rotation.Status.DRAFT)
    assert "Not seated yet" in client.get(reverse("my-page")).content.decode()
    Rotation.objects.filter(event=tonight).update(status=Rotation.Status.STARTED)
    page = client.get(reverse("my-page")).content.decode()
    assert "Rotation 1: table 1, seat 1" in page and "(side 1)" in page
    assert "Partner: Cy Park" in page and "Against: Ben Ode, Di Ruiz" in page
    token = game.side_credentials.get(side=0).token
    assert reverse("play-game", args=[token]) in page
    confirm(game, [[500, 200]])
    assert "Result: 500 to 200" in client.get(reverse("my-page")).content.decode()


def test_coming_or_not_and_the_yes_list_registered_in_one_step(client, me):
    _, tonight, players = me
    next_week = EventFactory(
        club=tonight.club,
        date=timezone.localdate() + datetime.timedelta(days=7),
        name="Next Tuesday",
    )
    url = reverse("my-answer", args=[players[0].pk, next_week.pk])
    assert client.post(url, {"answer": "maybe"}).status_code == 302
    assert client.post(url, {"answer": "yes"}).status_code == 302
    assert Attendance.objects.get(event=next_week, player=players[0]).answer == "yes"
    client.post(url, {"answer": "sometimes"})
    assert Attendance.objects.get(event=next_week, player=players[0]).answer == "yes"
    other = reverse("my-answer", args=[players[1].pk, next_week.pk])
    assert client.post(other, {"answer": "yes"}).status_code == 404  # not my player
    Attendance.objects.create(event=next_week, player=players[2], answer="yes")
    Attendance.objects.create(event=next_week, player=players[3], answer="no")
    entered = attendance_register_coming(event=next_week, by=None)
    assert [p.name for p in entered] == ["Ann Lee", "Cy Park"]
    assert attendance_register_coming(event=next_week, by=None) == []


def test_a_hidden_name_and_private_statistics(client, me):
    _, _, players = me
    url = reverse("my-privacy", args=[players[0].pk])
    client.post(url, {"name_shown": "initial", "stats_public": "yes"})
    players[0].refresh_from_db()
    assert players[0].shown_name == "Ann L."
    client.post(url, {"name_shown": "hidden"})
    players[0].refresh_from_db()
    assert players[0].shown_name == f"Player {players[0].pk}" and not players[0].stats_public


def test_my_data_download_and_deleting_the_account_keeps_the_standings(client, me):
    user, tonight, players = me
    Contact.objects.create(player=players[0], email="ann@example.net")
    game = make_game(event=tonight, players=players)
    confirm(game, [[500, 200]])
    standings_services.event_recompute(event_id=tonight.pk)
    before = sorted(
        (r["rank"], r["total_points"]) for r in StandingsSnapshot.objects.get(event=tonight).rows
    )
    assert "Ann Lee" in json.dumps(StandingsSnapshot.objects.get(event=tonight).rows)
    data = json.loads(client.get(reverse("my-data")).content)
    assert data["account"]["username"] == "ann"
    assert data["players"][0]["name"] == "Ann Lee"
    assert data["players"][0]["seats"][0] == {
        "event": "Tuesday night",
        "rotation": 1,
        "table": 1,
        "seat": 1,
        "side": 1,
    }
    assert data["contact"][0]["email"] == "ann@example.net"
    assert client.post(reverse("my-account-delete"), {}).status_code == 302  # not confirmed
    assert User.objects.filter(username="ann").exists()
    answer = client.post(reverse("my-account-delete"), {"confirm": "delete"})
    assert answer.status_code == 200 and "Your account is deleted" in answer.content.decode()
    assert not User.objects.filter(username="ann").exists()
    gone = Player.objects.get(pk=players[0].pk)
    assert gone.name == f"Former player {gone.pk}" and gone.user is None
    assert not Contact.objects.filter(player=gone).exists()
    standings_services.event_recompute(event_id=tonight.pk)
    rows = StandingsSnapshot.objects.get(event=tonight).rows
    assert sorted(r["total_points"] for r in rows) == [200, 200, 500, 500]
    assert "Ann Lee" not in json.dumps(rows)
    assert before == sorted((r["rank"], r["total_points"]) for r in rows)


def test_my_mail_choices(client, me):
    _, _, players = me
    url = reverse("my-mail", args=[players[0].pk])
    client.post(url, {"email": "not an address", "results": "on"})
    assert not Contact.objects.filter(player=players[0]).exists()
    client.post(url, {"email": "ann@example.net", "results": "on"})
    contact = Contact.objects.get(player=players[0])
    assert (contact.email, contact.reminders, contact.results, contact.nights) == (
        "ann@example.net",
        False,
        True,
        False,
    )
    assert 'value="ann@example.net"' in client.get(reverse("my-page")).content.decode()
    client.post(url, {"email": ""})
    assert not Contact.objects.filter(player=players[0]).exists()
    other = reverse("my-mail", args=[players[1].pk])
    assert client.post(other, {"email": "x@example.net"}).status_code == 404


def _public_addresses(tonight, players, logged):
    """Every public page, file, feed and API answer that names a player of tonight's event, as
    an anonymous visitor reaches them (`logged`: a game with a move log, for its replay)."""
    season = tonight.season
    club = tonight.club
    ann, ben = players[0], players[1]
    return [
        tonight.get_absolute_url(), reverse("event-wall", args=[tonight.slug]),
        reverse("event-standings", args=[tonight.slug]),
        reverse("event-standings-csv", args=[tonight.slug]),
        reverse("event-games-csv", args=[tonight.slug]),
        reverse("event-results-xlsx", args=[tonight.slug]),
        reverse("event-calendar", args=[tonight.slug]),
        reverse("club-detail", args=[club.slug]), reverse("club-calendar", args=[club.slug]),
        reverse("league-detail", args=[club.slug, season.league.slug]),
        reverse("season-standings", args=[season.pk]),
        reverse("season-standings-csv", args=[season.pk]),
        reverse("season-games-csv", args=[season.pk]),
        reverse("season-results-xlsx", args=[season.pk]),
        reverse("leaderboard"), f"{reverse('head-to-head')}?club={club.slug}",
        ann.get_absolute_url(), ben.get_absolute_url(),
        reverse("game-replay", args=[logged.pk]),
        reverse("api-result-replay", args=[logged.pk]),
        reverse("api-results") + f"?event={tonight.slug}",
        reverse("api-result", args=[logged.pk]),
        f"/api/players/{ann.pk}/", "/api/players/", f"/api/players/?club={club.pk}",
        reverse("api-event-standings", args=[tonight.slug]),
        reverse("api-season-standings", args=[season.pk]),
        reverse("api-leaderboard"), f"{reverse('api-leaderboard')}?club={club.slug}&min_games=0",
        reverse("api-player-ratings", args=[ann.pk]), reverse("api-player-ratings", args=[ben.pk]),
        reverse("api-player-statistics", args=[ann.pk]),
        reverse("api-player-statistics", args=[ben.pk]),
    ]


def _everything_said(response) -> str:
    """The body (each sheet's text for an XLSX file) and the headers of an answer."""
    headers = " ".join(f"{k}: {v}" for k, v in response.items())
    if response.get("Content-Type", "").startswith("application/vnd.openxmlformats"):
        import io

        import openpyxl
        book = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
        cells = [str(c) for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)
                 for c in row if c is not None]
        return headers + " ".join(cells)
    return headers + response.content.decode()


@pytest.mark.parametrize("chosen", ["full", "initial", "hidden"])
def test_a_name_shows_on_every_public_page_file_feed_and_replay_only_as_chosen(client, me, chosen):
    """The privacy walk: Ann chooses how her name shows; an anonymous visitor then reads every
    public page, CSV and XLSX file, calendar, the replay page and the API. Her full name is
    there only when she chose it (nor her slug, made from her name, in an address, a link or an
    API answer); her public name is."""
    from games.services import Entrant, submission_create
    from handfoot.simulate import simulate_game
    from tests.factories import SeasonFactory

    _, tonight, players = me
    players[0].slug = "ann-lee"  # the slug made from her name
    players[0].save(update_fields=["slug"])
    tonight.season = SeasonFactory(league__club=tonight.club)
    tonight.save(update_fields=["season"])
    confirm(make_game(event=tonight, players=players), [[500, 200]])
    logged = make_game(event=tonight, players=players, rotation_number=2)
    log = simulate_game("classic", 4, seed=1)
    log["seats"] = [p.slug for p in players]
    submission_create(game=logged, document=log, entrant=Entrant.for_side(logged, 0),
                      idempotency_key="walk-log")
    Rotation.objects.filter(event=tonight).update(status=Rotation.Status.STARTED)  # seats shown
    client.post(reverse("my-privacy", args=[players[0].pk]), {"name_shown": chosen})
    standings_services.event_recompute(event_id=tonight.pk)  # as the job after the change does
    players[0].refresh_from_db()
    public = players[0].shown_name
    assert public == {"full": "Ann Lee", "initial": "Ann L.", "hidden": f"Player {players[0].pk}"}[chosen]
    client.logout()
    seen_public = []
    for url in _public_addresses(tonight, players, logged):
        response = client.get(url)
        assert response.status_code == 200, url
        said = _everything_said(response)
        if chosen != "full":
            assert "Ann Lee" not in said, url
            assert "ann-lee" not in said and "ann-lee" not in url, url
        if public in said:
            seen_public.append(url)
    # The API names her by number; her slug (her name) finds her only while it is public.
    by_slug = [client.get(f"/api/{what}/players/{tonight.club.slug}/ann-lee/")
               for what in ("ratings", "statistics")]
    found = client.get("/api/players/", {"club": tonight.club.pk, "name": "lee"}).json()["results"]
    if chosen == "full":
        assert [r.status_code for r in by_slug] == [301, 301]
        assert by_slug[0]["Location"] == reverse("api-player-ratings", args=[players[0].pk])
        assert [p["slug"] for p in found] == ["ann-lee"]
    else:
        assert [r.status_code for r in by_slug] == [404, 404]
        assert "ann-lee" not in by_slug[0].content.decode()
        assert found == []  # a search never finds the name she hides
    # the walk reads real pages: the replay, its API and the standings show her public name
    for url in (reverse("game-replay", args=[logged.pk]), reverse("api-result-replay", args=[logged.pk]),
                reverse("api-result", args=[logged.pk]), reverse("event-standings", args=[tonight.slug])):
        assert url in seen_public, url
    if chosen == "hidden":
        body = client.get(players[0].get_absolute_url()).content.decode()
        assert "keeps their statistics private" in body


def test_my_season_line(client, me):
    from tests.factories import SeasonFactory

    _, tonight, players = me
    season = SeasonFactory(league__club=tonight.club)
    Event.objects.filter(pk=tonight.pk).update(season=season)
    confirm(make_game(event=tonight, players=players), [[500, 200]])
    standings_services.event_recompute(event_id=tonight.pk)
    page = client.get(reverse("my-page")).content.decode()
    assert "No season standings yet." not in page
    assert f"{season}: 1 of 4, 1 night, 500 points" in page


def test_my_page_offers_the_answers_for_the_nights_ahead(client, me):
    _, tonight, _ = me
    EventFactory(club=tonight.club, name="Next Tuesday",
                 date=timezone.localdate() + datetime.timedelta(days=7))
    page = client.get(reverse("my-page")).content.decode()
    for words in ("Coming", "Not coming", "Maybe"):
        assert f">{words}</button>" in page

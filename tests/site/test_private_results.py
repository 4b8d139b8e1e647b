"""A private event's results stay private: the one visibility rule (`visible_events`) keeps its
game totals off every page, chart, CSV and API that anyone may open, while the club's own
directors still see them (so the scan below can find them when they leak)."""

import re

import pytest

from analytics import services as analytics
from analytics.standings.services import event_recompute
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db

# The private game's side totals, and the points for/against of its sides over all their games
# (three public games of 1000 to 500 plus it), in the forms a page or a file may print them: as
# whole numbers (not inside a random token or id that happens to hold the digits).
SECRET_TOTALS = [re.compile(rf"(?<!\w){number}(?!\w)")
                 for number in ("7,?385", "4,?620", "10,?385", "6,?120")]


@pytest.fixture
def league_with_a_private_night():
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(4)]
    public = EventFactory(club=club, is_public=True)
    private = EventFactory(club=club, is_public=False)
    for number in (1, 2, 3):
        confirm(make_game(event=public, players=players, rotation_number=number), [[1000, 500]])
    secret = make_game(event=private, players=players)
    confirm(secret, [[7385, 4620]])
    for event in (public, private):
        event_recompute(event_id=event.pk)
    analytics.club_recompute(club_id=club.pk)
    return club, players, public, private, secret


def public_urls(club, players, public, private, secret):
    a, b, c, d = players  # a and c are partners (side 0), b and d (side 1)
    urls = ["/", f"/clubs/{club.slug}/", "/leaderboard/", f"/leaderboard/?club={club.slug}",
            f"/head-to-head/?club={club.slug}&a={a.pk}&b={b.pk}",
            f"/head-to-head/?club={club.slug}&a={a.pk},{c.pk}&b={b.pk},{d.pk}",
            f"/clubs/{club.slug}/partnerships/{a.pk}/{c.pk}/",
            f"/events/{public.slug}/", f"/events/{public.slug}/standings/",
            f"/events/{public.slug}/standings.csv",
            "/api/results/", f"/api/results/?event={private.slug}", "/api/games/",
            f"/api/standings/events/{public.slug}/",
            f"/api/ratings/leaderboard/?club={club.slug}&min_games=0"]
    for p in players:
        urls += [p.get_absolute_url(), f"{p.get_absolute_url()}stats.csv",
                 f"/api/ratings/players/{p.pk}/", f"/api/statistics/players/{p.pk}/"]
    return urls


def private_urls(private, secret):
    return [f"/events/{private.slug}/", f"/events/{private.slug}/standings/",
            f"/events/{private.slug}/standings.csv", f"/api/results/{secret.pk}/",
            f"/api/standings/events/{private.slug}/"]


def leaks(response) -> list[str]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode()
    return [total.pattern for total in SECRET_TOTALS if total.search(text)]


def test_no_page_chart_csv_or_api_shows_a_private_games_totals_to_anyone(
        client, league_with_a_private_night):
    club, players, public, private, secret = league_with_a_private_night
    found = {}
    for url in public_urls(club, players, public, private, secret):
        response = client.get(url)
        assert response.status_code == 200, url
        if leaks(response):
            found[url] = leaks(response)
    assert found == {}
    for url in private_urls(private, secret):
        assert client.get(url).status_code == 404, url


def test_the_clubs_director_sees_the_private_totals_on_the_same_pages(
        client, league_with_a_private_night):
    club, players, public, private, secret = league_with_a_private_night
    director = MembershipFactory(club=club, role="director").user
    client.force_login(director)
    a, b = players[0], players[1]
    player_page = client.get(a.get_absolute_url())
    assert "7385" in player_page.content.decode()  # the score distribution chart
    head_to_head = client.get(f"/head-to-head/?club={club.slug}&a={a.pk}&b={b.pk}")
    assert "10,385 for, 6,120 against" in head_to_head.content.decode()
    assert client.get(f"/api/standings/events/{private.slug}/").status_code == 200
    assert client.get(f"/api/results/{secret.pk}/").status_code == 200

"""The replay page of a logged game: public where the event is, the data sent once, cached."""

import json

import pytest
from django.urls import reverse

from games.replays import game_replay
from games.services import Entrant, submission_create
from handfoot.simulate import simulate_game
from tests.factories import UserFactory
from tests.games.factories import named_game, running_event, sheet

pytestmark = pytest.mark.django_db

FOUR = ("ann", "ben", "cat", "dan")
SIX = ("ann", "ben", "cat", "dan", "eve", "fay")


def logged_game(*, slugs=FOUR, seed=1, preset="classic", **event):
    """A game whose table entered a complete simulated move log (seats are the players), played
    under `preset`, the event's rules."""
    n = len(slugs)
    game = named_game(event=running_event(rules_preset=preset, **event), slugs=slugs,
                      first_dealer=n - 1)
    log = simulate_game(preset, n, seed=seed, sides=2 if n == 6 else None)
    log["seats"] = list(slugs)
    submission_create(game=game, document=log, entrant=Entrant.for_side(game, 0),
                      idempotency_key=f"log-{game.pk}")
    return game


def replay_url(game):
    return reverse("game-replay", args=[game.pk])


def page_data(response):
    html = response.content.decode()
    start = html.index('<script id="replay-data" type="application/json">')
    body = html[start:].split(">", 1)[1].split("</script>", 1)[0]
    return json.loads(body)


def test_replay_page_names_the_players_and_sends_the_data_once(client):
    game = logged_game()
    response = client.get(replay_url(game))
    assert response.status_code == 200
    html = response.content.decode()
    data = page_data(response)
    assert data["format"] == "hand-and-foot-replay/1"
    assert data["seats"] == ["Ann", "Ben", "Cat", "Dan"]
    assert len(data["rounds"]) == 4
    assert "Side 1: Ann &amp; Cat" in html
    assert "The story of the game" in html and "went out first in" in html
    assert 'src="/static/js/replay.js"' in html or "js/replay." in html
    assert "<script>" not in html  # no inline script (CSP)
    # the page lists every round's moments in words, linking each to its step
    assert f'href="#r2-s{data["rounds"][1]["moments"][0]["step"]}"' in html


def test_six_player_game_has_six_seats_and_two_sides(client):
    data = page_data(client.get(replay_url(logged_game(slugs=SIX, seed=4))))
    assert len(data["seats"]) == 6 and data["sides"] == 2
    assert len(data["rounds"][0]["start"]["hands"]) == 6


def test_private_event_replay_is_hidden_from_the_public(client):
    game = logged_game(is_public=False)
    assert client.get(replay_url(game)).status_code == 404
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    assert client.get(replay_url(game)).status_code == 200


def test_game_without_a_log_has_no_replay(client):
    game = named_game()
    submission_create(game=game, document=sheet(1), entrant=Entrant.for_side(game, 0),
                      idempotency_key="s1")
    response = client.get(replay_url(game))
    assert response.status_code == 404
    assert client.get(reverse("game-replay", args=[999999])).status_code == 404


def test_replay_is_computed_once_and_then_served_from_the_cache(client, monkeypatch,
                                                               django_assert_max_num_queries):
    from games import replays

    game = logged_game(seed=2)
    first = game_replay(game=game)
    built = []
    monkeypatch.setattr(replays, "build_replay", lambda *args: built.append(args))
    with django_assert_max_num_queries(12):
        response = client.get(replay_url(game))
    assert response.status_code == 200
    assert page_data(response)["totals"] == first["totals"]
    assert built == []  # the engine did not replay the log again (its speed: make bench)


def test_the_table_page_tells_the_story_and_links_the_replay(client):
    from tests.games.factories import side_link

    game = logged_game(seed=3)
    html = client.get(f"/play/{side_link(game, 0)}/").content.decode()
    assert "The story of the game" in html
    assert f'href="{replay_url(game)}"' in html
    assert "Books completed: Side 1 " in html

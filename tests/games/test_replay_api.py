"""GET /api/results/<id>/replay/: the replay page's data, versioned, under the same rule."""

import pytest

from games.models import Submission
from handfoot import replay_log
from tests.factories import UserFactory
from tests.games.test_replay_pages import logged_game

pytestmark = pytest.mark.django_db


def test_api_replay_is_the_versioned_timeline(client):
    game = logged_game(seed=5)
    response = client.get(f"/api/results/{game.pk}/replay/")
    assert response.status_code == 200
    data = response.json()
    assert data["format"] == "hand-and-foot-replay/1"
    assert data["seats"] == ["Ann", "Ben", "Cat", "Dan"]
    log = Submission.objects.get(game=game, kind="log").document
    assert data["totals"] == replay_log(log).totals
    assert len(data["rounds"][0]["steps"]) == len(log["rounds"][0]["events"])
    assert data["story"]


def test_api_replay_of_a_private_event_is_not_found_for_others(client):
    game = logged_game(is_public=False)
    response = client.get(f"/api/results/{game.pk}/replay/")
    assert response.status_code == 404
    client.force_login(UserFactory(is_staff=True))
    assert client.get(f"/api/results/{game.pk}/replay/").status_code == 200


def test_api_replay_without_a_log_says_so(client):
    from tests.games.factories import named_game

    game = named_game()
    response = client.get(f"/api/results/{game.pk}/replay/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NO_MOVE_LOG"

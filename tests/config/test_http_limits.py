"""Finding 6 (issue 11) at the HTTP layer: bad bodies and headers get 400/412/413, never a 500,
and nothing is stored."""

import json

import pytest

from games.models import Submission
from tests.factories import MembershipFactory
from tests.games.factories import named_game, sheet, side_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return named_game()


def submit(client, game, raw: str, **headers):
    return client.post(
        f"/api/results/{game.pk}/submissions/", raw, content_type="application/json",
        headers={"X-Entry-Token": side_link(game, 0), "Idempotency-Key": "k1", **headers},
    )


@pytest.mark.parametrize("url", ["/api/sheets/check/", "/api/logs/check/", "/api/auth/token/"])
def test_deeply_nested_brackets_are_400_on_any_endpoint(api_client, url):
    response = api_client.post(url, "[" * 9_000 + "]" * 9_000, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "PARSE_ERROR"


def test_nesting_deeper_than_the_limit_is_refused_before_storage(api_client, game):
    document = {**sheet(1), "note": json.loads("[" * 40 + "]" * 40)}
    response = submit(api_client, game, json.dumps({"document": document, "side": 0}))
    assert response.status_code == 400
    assert "nested deeper than 32" in response.json()["error"]["message"]
    assert not Submission.objects.exists()


@pytest.mark.parametrize("where", ["value", "key"])
def test_nul_character_anywhere_is_400_and_nothing_is_stored(api_client, game, where):
    document = sheet(1)
    if where == "value":
        document["players"] = "4\u0000"
    else:
        document["sides"][0]["clean\u0000"] = 1
    response = submit(api_client, game, json.dumps({"document": document, "side": 0}))
    assert response.status_code == 400
    assert "NUL" in response.json()["error"]["message"]
    assert not Submission.objects.exists()


def test_nul_in_the_idempotency_key_body_field_is_400(api_client, game):
    body = {"document": sheet(1), "side": 0, "idempotency_key": "a\u0000b"}
    response = api_client.post(
        f"/api/results/{game.pk}/submissions/", json.dumps(body), content_type="application/json",
        headers={"X-Entry-Token": side_link(game, 0)},
    )
    assert response.status_code == 400
    assert not Submission.objects.exists()


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_400_and_nothing_is_stored(api_client, game, literal):
    raw = json.dumps({"document": sheet(1), "side": 0}).replace('"table_points": 555',
                                                                f'"table_points": {literal}', 1)
    assert literal in raw
    response = submit(api_client, game, raw)
    assert response.status_code == 400
    assert not Submission.objects.exists()


def test_body_over_the_limit_is_413_whatever_content_length_says(api_client, settings):
    settings.API_MAX_BODY_BYTES = 1000
    response = api_client.post("/api/sheets/check/", json.dumps({"x": "y" * 2000}),
                               content_type="application/json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "BODY_TOO_LARGE"


@pytest.mark.parametrize("if_match", ['"²"', "²", "9" * 5000, '"12345678901234567890"', '"-1"'])
def test_odd_if_match_is_400_not_500(api_client, game, if_match):
    api_client.force_authenticate(
        MembershipFactory(club=game.table.rotation.event.club, role="director").user
    )
    response = api_client.post(
        f"/api/results/{game.pk}/corrections/",
        json.dumps({"reason": "typo", "sheets": [sheet(1)]}),
        content_type="application/json", headers={"If-Match": if_match},
    )
    assert response.status_code in (400, 412)
    assert response.json()["error"]["code"] == "BAD_IF_MATCH"

"""Issue 11, finding 3: one credential per side. A side's link enters and confirms for that side
only; it never confirms what it entered; only a director settles a dispute (or both sides
entering the same figures). The game's old per-game link is gone (issue 24)."""

import json

import pytest

from games.models import ResultVersion, Submission
from league.services.credentials import game_side_credentials
from tests.factories import MembershipFactory
from tests.games.factories import named_game, sheet, side_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return named_game()


def post(client, url, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def enter_all(client, game, token, prefix, **sheet_kwargs):
    for n in (1, 2, 3, 4):
        response = post(client, f"/api/results/{game.pk}/submissions/",
                        {"document": sheet(n, **sheet_kwargs)},
                        **{"Idempotency-Key": f"{prefix}{n}", "X-Entry-Token": token})
        assert response.status_code == 201, response.json()


def confirm(client, game, token, version=1):
    return post(client, f"/api/results/{game.pk}/confirmations/", {"version": version},
                **{"X-Entry-Token": token})


def test_each_side_has_its_own_link_and_code(game):
    credentials = game_side_credentials(game=game)
    assert [c.side for c in credentials] == [0, 1]
    assert len({c.token for c in credentials}) == 2
    assert len({c.code for c in credentials}) == 2
    assert all(len(c.code) == 7 for c in credentials)
    assert game_side_credentials(game=game) == credentials  # made once


def test_regression_one_link_cannot_enter_and_confirm(api_client, game):
    """The finding: enter as side 1, then confirm with the same link."""
    enter_all(api_client, game, side_link(game, 0), "a")
    refused = confirm(api_client, game, side_link(game, 0))
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "SAME_ENTRANT")
    # ... and it cannot pose as the other side either.
    posing = post(api_client, f"/api/results/{game.pk}/confirmations/", {"version": 1, "side": 1},
                  **{"X-Entry-Token": side_link(game, 0)})
    assert (posing.status_code, posing.json()["error"]["code"]) == (403, "SIDE_MISMATCH")
    assert game.result_versions.get().status == ResultVersion.Status.ENTERED

    confirmed = confirm(api_client, game, side_link(game, 1))
    assert confirmed.status_code == 200
    version = game.result_versions.get()
    assert (version.status, version.entered_by, version.confirmed_by) == (
        "confirmed", f"game:{game.pk}:side:0", f"game:{game.pk}:side:1")


def test_regression_a_table_link_cannot_settle_a_dispute(api_client, game):
    enter_all(api_client, game, side_link(game, 0), "a")
    enter_all(api_client, game, side_link(game, 1), "b", table_points=560)
    for side, version in ((0, 2), (1, 1)):
        response = confirm(api_client, game, side_link(game, side), version=version)
        assert (response.status_code, response.json()["error"]["code"]) == (
            403, "DIRECTOR_SETTLES_DISPUTES")
    assert set(game.result_versions.values_list("status", flat=True)) == {"disputed"}

    director = MembershipFactory(club=game.table.rotation.event.club).user
    api_client.force_authenticate(director)
    assert confirm(api_client, game, "", version=2).status_code == 200
    assert game.result_versions.get(number=2).status == "confirmed"


def test_a_scorer_cannot_settle_a_dispute_but_both_sides_agreeing_does(api_client, game):
    enter_all(api_client, game, side_link(game, 0), "a")
    enter_all(api_client, game, side_link(game, 1), "b", table_points=560)
    scorer = MembershipFactory(club=game.table.rotation.event.club, role="scorer").user
    api_client.force_authenticate(scorer)
    assert confirm(api_client, game, "", version=1).status_code == 403
    api_client.force_authenticate(None)
    # Side 2 finds its typo and enters side 1's figures: both sides agree.
    enter_all(api_client, game, side_link(game, 1), "c")
    assert game.result_versions.get(number=1).status == "confirmed"


def test_the_table_page_of_a_side_link_enters_for_that_side_only(client, game):
    page = client.get(f"/play/{side_link(game, 1)}/").content.decode()
    assert "Which side are you?" not in page
    assert "Ben &amp; Dan" in page
    data = {"idempotency_key": "k", "round": 1, "ended_by": "went_out", "side0_went_out": "on"}
    for n, side in enumerate(sheet(1)["sides"]):
        data |= {f"side{n}_{k}": v for k, v in side.items() if k != "went_out"}
    client.post(f"/play/{side_link(game, 1)}/sheet/", data)
    assert Submission.objects.get().entrant == f"game:{game.pk}:side:1"


def test_side_codes_open_their_sides_page(client, game):
    credential = game_side_credentials(game=game)[1]
    response = client.post("/play/", {"code": credential.code.lower()})
    assert response.status_code == 302 and response["Location"] == credential.entry_url


def test_a_side_link_is_the_only_link(client, api_client, game):
    """No per-game link or code is left on a game: a token that is not a side's opens nothing."""
    game_side_credentials(game=game)
    assert not hasattr(game, "entry_token") and not hasattr(game, "entry_code")
    assert client.get("/play/not-a-sides-token/").status_code == 404
    response = post(api_client, f"/api/results/{game.pk}/submissions/", {"document": sheet(1)},
                    **{"Idempotency-Key": "k", "X-Entry-Token": "not-a-sides-token"})
    assert (response.status_code, response.json()["error"]["code"]) == (403, "WRONG_TABLE_LINK")


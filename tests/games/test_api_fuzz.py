"""No input makes the results API fail with a 500."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.factories import named_game, sheet, side_link

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=12,
)
sheet_like = st.fixed_dictionaries(
    {"format": st.just("hand-and-foot-sheet/1")},
    optional={"round": json_values, "ended_by": json_values, "sides": json_values,
              "rules": json_values, "players": json_values},
)


@pytest.fixture
def game():
    return named_game()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=json_values | sheet_like, side=json_values, version=json_values)
def test_any_json_gets_a_4xx_or_success(api_client, game, document, side, version):
    headers = {"X-Entry-Token": side_link(game, 0), "Idempotency-Key": "fuzz"}
    url = f"/api/results/{game.pk}"
    for path, body in [
        ("/submissions/", {"document": document, "side": side}),
        ("/confirmations/", {"version": version, "side": side}),
    ]:
        response = api_client.post(url + path, json.dumps(body), content_type="application/json",
                                   headers=headers)
        assert response.status_code < 500, response.content
    response = api_client.post("/api/sheets/check/", json.dumps(document),
                               content_type="application/json")
    assert response.status_code < 500


@pytest.mark.parametrize("query", [{"game": "9" * 30}, {"game": "x"}, {"status": "nope"},
                                   {"event": "\x00"}, {"page": "999"}])
def test_odd_result_filters_are_not_500(api_client, game, query):
    assert api_client.get("/api/results/", query).status_code < 500


def test_correction_with_odd_sheets_is_400(api_client, game):
    from tests.factories import MembershipFactory

    api_client.force_authenticate(MembershipFactory(club=game.table.rotation.event.club).user)
    for sheets in [[1], ["x"], [{}], [sheet(9)], [None]]:
        response = api_client.post(f"/api/results/{game.pk}/corrections/",
                                   json.dumps({"reason": "r", "sheets": sheets}),
                                   content_type="application/json", headers={"If-Match": '"0"'})
        assert response.status_code == 400, (sheets, response.content)

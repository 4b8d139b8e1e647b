"""No input makes the results API fail with a 500."""

import json
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import ResultVersion, Submission
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


def post(client, url: str, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def assert_refused_cleanly(response) -> None:
    assert 400 <= response.status_code < 500, response.content
    assert response.json()["error"]["code"], response.content


# Valid sheets among the random documents, so that acceptance is fuzzed too.
documents = json_values | sheet_like | st.builds(sheet, st.integers(min_value=1, max_value=4))
sides = st.sampled_from([0, 1]) | json_values


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=documents, side=sides, version=json_values)
def test_any_json_is_refused_cleanly_or_accepted_as_sent(api_client, game, document, side, version):
    """Every example has its own idempotency key, so each one is judged on its own body: a 4xx
    with an error code and nothing stored, or a submission that holds the document sent."""
    key = f"fuzz-{uuid.uuid4()}"
    headers = {"X-Entry-Token": side_link(game, 0), "Idempotency-Key": key}
    url = f"/api/results/{game.pk}"
    stored = Submission.objects.count()
    response = post(api_client, f"{url}/submissions/", {"document": document, "side": side},
                    **headers)
    if response.status_code in (200, 201):
        submission = Submission.objects.get(idempotency_key=key)
        assert response.status_code == 201
        # Stored as sent; the event's rules and player count fill what a sheet leaves out.
        assert {k: submission.document[k] for k in document} == document
    else:
        assert_refused_cleanly(response)
        assert Submission.objects.count() == stored

    versions = list(ResultVersion.objects.filter(game=game).values_list("number", "status"))
    # The other side confirms (a side never confirms its own entry).
    response = post(api_client, f"{url}/confirmations/", {"version": version, "side": side},
                    **{"X-Entry-Token": side_link(game, 1)})
    if response.status_code == 200:
        assert response.json()["number"] == version
    else:
        assert_refused_cleanly(response)
        assert list(ResultVersion.objects.filter(game=game).values_list(
            "number", "status")) == versions

    response = api_client.post("/api/sheets/check/", json.dumps(document),
                               content_type="application/json")
    if response.status_code == 200:  # the engine's report: valid, or the reason it is not
        report = response.json()
        assert report["valid"] or report["error"]["code"], report
    else:
        assert_refused_cleanly(response)


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

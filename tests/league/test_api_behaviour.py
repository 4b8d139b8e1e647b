"""League API behaviour for a director: payloads, filters, nested seating and refusals."""

import pytest
from rest_framework.test import APIClient

from league.models import Event, Game, Rotation
from tests.factories import (
    ClubFactory,
    EventFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
)
from tests.league.factories import checked_in_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory()


@pytest.fixture
def api(club) -> APIClient:
    client = APIClient()
    client.force_authenticate(MembershipFactory(club=club, role="director").user)
    return client


def _error(response) -> dict:
    return response.json()["error"]


def test_create_event_with_house_rules(api, club):
    response = api.post(
        "/api/events/",
        {
            "club": club.pk, "name": "Spring Open", "date": "2027-03-01", "format": "rotating",
            "rules_overrides": {"going_out_bonus": 200}, "table_sizes": [4, 6],
            "odd_handling": "table_of_six", "tie_breaks": ["match_points", "head_to_head"],
        },
        format="json",
    )

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["slug"] == "spring-open-2027-03-01"
    assert body["status"] == "draft"
    assert isinstance(body["seed"], int)
    assert body["url"] == "/events/spring-open-2027-03-01/"


def test_bad_house_rule_is_refused_naming_the_parameter(api, club):
    response = api.post(
        "/api/events/",
        {"club": club.pk, "name": "X", "date": "2027-03-01", "rules_overrides": {"hand_size": 0}},
        format="json",
    )

    assert response.status_code == 400
    error = _error(response)
    assert error["code"] == "BAD_RULES"
    assert "hand_size" in error["message"]
    assert not Event.objects.exists()


def test_missing_fields_use_the_error_shape(api):
    response = api.post("/api/events/", {}, format="json")
    assert response.status_code == 400
    assert set(_error(response)) == {"code", "message", "details"}
    assert "club" in _error(response)["details"]


def test_malformed_json_is_a_400_not_a_500(api):
    response = api.post("/api/events/", "{not json", content_type="application/json")
    assert response.status_code == 400


def test_event_filters(api, club):
    season = SeasonFactory(league__club=club)
    EventFactory(club=club, name="A", date="2026-01-10", status="finished", season=season)
    EventFactory(club=club, name="B", date="2026-06-10", status="registration")
    EventFactory(name="Elsewhere", date="2026-06-11")

    def names(query):
        return sorted(e["name"] for e in api.get(f"/api/events/?{query}").json()["results"])

    assert names(f"club={club.pk}") == ["A", "B"]
    assert names("status=registration") == ["B"]
    assert names("date_from=2026-06-01") == ["B", "Elsewhere"]
    assert names("date=2026-01-10") == ["A"]
    assert names(f"season={season.pk}") == ["A"]


def test_status_steps_and_refusal(api, club):
    event = EventFactory(club=club)
    assert api.post(f"/api/events/{event.pk}/status/", {"status": "registration"}).json()["status"] == "registration"

    response = api.post(f"/api/events/{event.pk}/status/", {"status": "finished"})

    assert response.status_code == 409
    assert _error(response)["code"] == "BAD_STATUS_CHANGE"


def test_full_rotation_flow(api, club):
    event = EventFactory(club=club, status="running")
    checked_in_players(event, 8)

    created = api.post("/api/rotations/generate/", {"event": event.pk}, format="json")
    assert created.status_code == 201
    rotation = created.json()
    assert rotation["number"] == 1
    assert [len(t["seats"]) for t in rotation["tables"]] == [4, 4]

    seats = [s for t in rotation["tables"] for s in t["seats"]]
    swapped = api.post(
        f"/api/rotations/{rotation['id']}/swap/",
        {"player_a": seats[0]["player"], "player_b": seats[5]["player"]},
        format="json",
    ).json()
    assert swapped["tables"][0]["seats"][0]["player"] == seats[5]["player"]

    assert api.post(f"/api/rotations/{rotation['id']}/start/").json()["status"] == "started"
    closing = api.post(f"/api/rotations/{rotation['id']}/close/")
    assert closing.status_code == 409
    assert "table(s) 1, 2" in _error(closing)["message"]

    Game.objects.filter(table__rotation_id=rotation["id"]).update(status="confirmed")
    assert api.post(f"/api/rotations/{rotation['id']}/close/").json()["status"] == "closed"


def test_seating_replacement_is_validated(api, club):
    event = EventFactory(club=club, status="running")
    players = checked_in_players(event, 8)
    rotation = api.post("/api/rotations/generate/", {"event": event.pk}, format="json").json()
    ids = [p.pk for p in players]
    twice = {
        "tables": [
            {"seats": ids[0:4], "sides": [ids[0:4:2], ids[1:4:2]], "first_dealer": ids[0]},
            {"seats": [ids[0]] + ids[5:8], "sides": [[ids[0], ids[6]], [ids[5], ids[7]]], "first_dealer": ids[5]},
        ],
        "sit_out": [ids[4]],
    }

    response = api.post(f"/api/rotations/{rotation['id']}/seating/", twice, format="json")

    assert response.status_code == 400
    assert "more than once" in _error(response)["message"]

    good = {
        "tables": [
            {"seats": ids[0:4], "sides": [ids[0:4:2], ids[1:4:2]], "first_dealer": ids[1]},
            {"seats": ids[4:8], "sides": [ids[4:8:2], ids[5:8:2]], "first_dealer": ids[4]},
        ]
    }
    body = api.post(f"/api/rotations/{rotation['id']}/seating/", good, format="json").json()
    assert [s["player"] for s in body["tables"][0]["seats"]] == ids[0:4]
    assert body["tables"][0]["game"]["first_dealer"] == 1


def test_swap_with_unknown_player_id_is_a_400(api, club):
    event = EventFactory(club=club, status="running")
    checked_in_players(event, 8)
    rotation = api.post("/api/rotations/generate/", {"event": event.pk}, format="json").json()

    response = api.post(f"/api/rotations/{rotation['id']}/swap/", {"player_a": 999999, "player_b": 1}, format="json")

    assert response.status_code == 400


def test_delete_draft_rotation_then_not_a_started_one(api, club):
    event = EventFactory(club=club, status="running")
    checked_in_players(event, 8)
    first = api.post("/api/rotations/generate/", {"event": event.pk}, format="json").json()
    assert api.delete(f"/api/rotations/{first['id']}/").status_code == 204

    second = api.post("/api/rotations/generate/", {"event": event.pk}, format="json").json()
    api.post(f"/api/rotations/{second['id']}/start/")

    response = api.delete(f"/api/rotations/{second['id']}/")
    assert response.status_code == 409
    assert Rotation.objects.filter(pk=second["id"]).exists()


def test_registration_check_in_and_withdraw(api, club):
    event = EventFactory(club=club, status="registration")
    player = PlayerFactory(club=club)
    registration = api.post("/api/registrations/", {"event": event.pk, "player": player.pk}, format="json").json()

    checked = api.post(f"/api/registrations/{registration['id']}/check-in/", {"checked_in": True}, format="json")
    withdrawn = api.post(f"/api/registrations/{registration['id']}/withdraw/")

    assert checked.json()["checked_in"] is True
    assert withdrawn.json()["withdrawn_after_rotation"] == 0
    again = api.post("/api/registrations/", {"event": event.pk, "player": player.pk}, format="json")
    assert again.status_code == 409
    assert _error(again)["code"] == "ALREADY_REGISTERED"


def test_rotation_list_uses_a_constant_number_of_queries(api, club, django_assert_max_num_queries):
    event = EventFactory(club=club, status="running")
    checked_in_players(event, 16)
    api.post("/api/rotations/generate/", {"event": event.pk}, format="json")

    with django_assert_max_num_queries(12):
        response = api.get(f"/api/rotations/?event={event.pk}")

    assert len(response.json()["results"][0]["tables"]) == 4


def test_schema_describes_the_rotation_actions(api):
    schema = api.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for action in ("generate", "{id}/swap", "{id}/start", "{id}/close", "{id}/seating"):
        assert f"/api/rotations/{action}/" in paths


@pytest.mark.parametrize(
    "payload",
    [
        {"table_sizes": "four"},
        {"table_sizes": [4, "6"]},
        {"tie_breaks": {"wins": 1}},
        {"rules_overrides": [1, 2]},
        {"rules_overrides": {"meld_minimums": [50, "x"]}},
        {"rules_preset": "x" * 40},
        {"planned_rotations": -1},
        {"planned_rotations": 0},
        {"planned_rotations": 100000},
        {"date": "31/12/2026"},
        {"seed": "random"},
        {"kind": None},
        {"season": 999999},
    ],
)
def test_bad_event_payloads_are_refused_with_4xx(api, club, payload):
    body = {"club": club.pk, "name": "Bad", "date": "2027-01-01", **payload}
    response = api.post("/api/events/", body, format="json")
    assert response.status_code == 400, response.content
    assert "message" in _error(response)
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    "tables",
    [
        [],
        [{"seats": [1, 2, 3, 4], "sides": [], "first_dealer": 1}],
        [{"seats": [1, 2, 3, 4], "sides": [[1, 3], [2, 4]], "first_dealer": 99}],
        [{"seats": ["a"], "sides": [["a"]], "first_dealer": "a"}],
        "not a list",
    ],
)
def test_bad_seating_plans_are_refused_with_4xx(api, club, tables):
    event = EventFactory(club=club, status="running")
    checked_in_players(event, 8)
    rotation = api.post("/api/rotations/generate/", {"event": event.pk}, format="json").json()
    before = api.get(f"/api/rotations/{rotation['id']}/").json()

    response = api.post(f"/api/rotations/{rotation['id']}/seating/", {"tables": tables}, format="json")

    assert response.status_code == 400
    assert api.get(f"/api/rotations/{rotation['id']}/").json()["tables"] == before["tables"]


def test_seating_quality_endpoint(api, club):
    event = EventFactory(club=club, status="running")
    checked_in_players(event, 9)
    api.post("/api/rotations/generate/", {"event": event.pk}, format="json")

    quality = api.get(f"/api/events/{event.pk}/seating-quality/").json()

    assert quality["rotations"] == 1
    assert (quality["sit_outs_min"], quality["sit_outs_max"]) == (0, 1)


@pytest.mark.parametrize("query", ["event=99999999999999999999999", "rotation=99999999999999999999999", "event=x"])
def test_out_of_range_game_filters_are_a_400(api, query):
    assert api.get(f"/api/games/?{query}").status_code == 400


def test_reinstate_twice_is_a_conflict(api, club):
    event = EventFactory(club=club, status="registration")
    registration = checked_in_players(event, 1)[0].registrations.get()
    api.post(f"/api/registrations/{registration.pk}/withdraw/")

    assert api.post(f"/api/registrations/{registration.pk}/reinstate/").json()["withdrawn_after_rotation"] is None
    assert api.post(f"/api/registrations/{registration.pk}/reinstate/").status_code == 409


def test_add_member_invites_whoever_is_named_and_refuses_only_a_bad_role(api, club):
    UserFactory(username="known")
    unknown = api.post(f"/api/clubs/{club.pk}/members/", {"username": "ghost", "role": "scorer"}, format="json")
    known = api.post(f"/api/clubs/{club.pk}/members/", {"username": "known", "role": "scorer"}, format="json")
    bad_role = api.post(f"/api/clubs/{club.pk}/members/", {"username": "known", "role": "king"}, format="json")
    assert (unknown.status_code, known.status_code, bad_role.status_code) == (202, 202, 400)
    assert unknown.json().keys() == known.json().keys()
    assert "role" in _error(bad_role)["details"]


def test_event_lookup_by_slug(api, club):
    event = EventFactory(club=club, slug="the-cup")
    assert [e["id"] for e in api.get("/api/events/?slug=the-cup").json()["results"]] == [event.pk]

"""The results API: who may do what, the error shape, idempotency and If-Match."""

import json

import pytest

from games.models import Submission
from handfoot.simulate import simulate_game
from league.models import Event, Membership
from tests.factories import MembershipFactory, UserFactory
from tests.games.factories import named_game, running_event, sheet, side_link, stockout_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return named_game()


def club_user(game, role):
    return MembershipFactory(club=game.table.rotation.event.club, role=role).user


def post(client, url, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def submit_url(game):
    return f"/api/results/{game.pk}/submissions/"


def error_code(response):
    return response.json()["error"]["code"]


# --- role matrix -------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["scorer", "director"])
def test_club_members_enter_results(api_client, game, role):
    api_client.force_authenticate(club_user(game, role))
    response = post(api_client, submit_url(game), {"document": sheet(1)}, **{"Idempotency-Key": "k1"})
    assert response.status_code == 201, response.json()
    assert response.json()["submission"]["entrant"].startswith("user:")


@pytest.mark.parametrize("who", ["anonymous", "outsider", "other_director"])
def test_others_may_not_enter_results_of_a_public_event(api_client, game, who):
    if who == "outsider":
        api_client.force_authenticate(UserFactory())
    elif who == "other_director":
        api_client.force_authenticate(MembershipFactory().user)
    response = post(api_client, submit_url(game), {"document": sheet(1)}, **{"Idempotency-Key": "k"})
    # Without any credential: 401, naming the scheme to use; signed in but not allowed: 403.
    assert response.status_code == (401 if who == "anonymous" else 403)
    if who == "anonymous":
        assert response["WWW-Authenticate"] == "Token"
    assert not Submission.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "outsider", "other_director"])
def test_private_event_results_are_not_found_for_others(api_client, who):
    game = named_game(event=running_event(is_public=False))
    if who == "outsider":
        api_client.force_authenticate(UserFactory())
    elif who == "other_director":
        api_client.force_authenticate(MembershipFactory().user)
    assert api_client.get(f"/api/results/{game.pk}/").status_code == 404
    response = post(api_client, submit_url(game), {"document": sheet(1)}, **{"Idempotency-Key": "k"})
    if who == "anonymous":
        # Refused before any lookup, the same way for every game: nothing about it is revealed.
        assert response.status_code == 401
        missing = post(api_client, "/api/results/999999/submissions/", {"document": sheet(1)},
                       **{"Idempotency-Key": "k"})
        assert missing.json() == response.json()
    else:
        assert response.status_code == 404
    assert game.pk not in [r["game"] for r in api_client.get("/api/results/").json()["results"]]


def test_table_link_enters_for_its_side(api_client, game):
    response = post(api_client, submit_url(game), {"document": sheet(1), "side": 1},
                    **{"Idempotency-Key": "k", "X-Entry-Token": side_link(game, 1)})
    assert response.status_code == 201
    assert response.json()["submission"]["entrant"] == f"game:{game.pk}:side:1"


def test_table_link_of_another_game_is_refused(api_client, game):
    other = named_game(event=game.table.rotation.event, slugs=("eve", "fay", "gus", "hal"),
                       table_number=2)
    response = post(api_client, submit_url(game), {"document": sheet(1), "side": 0},
                    **{"Idempotency-Key": "k", "X-Entry-Token": side_link(other, 0)})
    assert response.status_code == 403
    assert error_code(response) == "WRONG_TABLE_LINK"


@pytest.mark.parametrize("status", ["draft", "registration", "finished"])
def test_table_link_is_refused_when_the_event_is_not_running(api_client, game, status):
    Event.objects.filter(pk=game.table.rotation.event_id).update(status=status)
    response = post(api_client, submit_url(game), {"document": sheet(1), "side": 0},
                    **{"Idempotency-Key": "k", "X-Entry-Token": side_link(game, 0)})
    assert response.status_code == 410
    assert error_code(response) == "EVENT_NOT_RUNNING"


def test_a_body_side_that_disagrees_with_the_link_is_refused(api_client, game):
    response = post(api_client, submit_url(game), {"document": sheet(1), "side": 1},
                    **{"Idempotency-Key": "k", "X-Entry-Token": side_link(game, 0)})
    assert (response.status_code, error_code(response)) == (403, "SIDE_MISMATCH")
    assert not Submission.objects.exists()


def test_the_side_is_taken_from_the_link(api_client, game):
    response = post(api_client, submit_url(game), {"document": sheet(1)},
                    **{"Idempotency-Key": "k", "X-Entry-Token": side_link(game, 1)})
    assert response.status_code == 201
    assert response.json()["submission"]["entrant"] == f"game:{game.pk}:side:1"


# --- double entry over the API ------------------------------------------------------------------


def enter_all(api_client, game, side, prefix, **sheet_kwargs):
    for n in (1, 2, 3, 4):
        response = post(api_client, submit_url(game), {"document": sheet(n, **sheet_kwargs), "side": side},
                        **{"Idempotency-Key": f"{prefix}{n}", "X-Entry-Token": side_link(game, side)})
        assert response.status_code == 201, response.json()
    return response


def test_two_sides_agree_and_the_result_is_confirmed(api_client, game):
    enter_all(api_client, game, 0, "a")
    response = enter_all(api_client, game, 1, "b")
    result = response.json()["result"]
    assert result["status"] == "confirmed"
    assert result["current"]["totals"] == [4 * 3855, 4 * 615]


def test_confirmation_endpoint_confirms_the_shown_figures(api_client, game):
    enter_all(api_client, game, 0, "a")
    response = post(api_client, f"/api/results/{game.pk}/confirmations/", {"version": 1, "side": 1},
                    **{"X-Entry-Token": side_link(game, 1)})
    assert response.status_code == 200
    assert response.json()["status"] == "confirmed"


def test_disputed_result_shows_both_versions(api_client, game):
    enter_all(api_client, game, 0, "a")
    enter_all(api_client, game, 1, "b", table_points=560)
    detail = api_client.get(f"/api/results/{game.pk}/").json()
    assert detail["status"] == "disputed"
    assert [v["status"] for v in detail["versions"]] == ["disputed", "disputed"]
    assert len(detail["submissions"]) == 8


def test_invalid_sheet_is_refused_with_the_engine_message(api_client, game):
    bad = sheet(1)
    bad["sides"][0]["went_out"] = False
    response = post(api_client, submit_url(game), {"document": bad, "side": 0},
                    **{"Idempotency-Key": "k", "X-Entry-Token": side_link(game, 0)})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "SHEET_GOING_OUT" and error["message"]


def test_log_upload_is_checked_and_stored(api_client, game):
    response = post(api_client, submit_url(game), {"document": stockout_log(), "side": 0},
                    **{"Idempotency-Key": "k", "X-Entry-Token": side_link(game, 0)})
    assert response.status_code == 201
    assert response.json()["result"]["status"] == "entered"


# --- idempotency --------------------------------------------------------------------------------


def test_same_idempotency_key_twice_returns_the_first(api_client, game):
    headers = {"Idempotency-Key": "same", "X-Entry-Token": side_link(game, 0)}
    first = post(api_client, submit_url(game), {"document": sheet(1), "side": 0}, **headers)
    second = post(api_client, submit_url(game), {"document": sheet(1), "side": 0}, **headers)
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["replayed"] is True
    assert first.json()["submission"]["id"] == second.json()["submission"]["id"]


def test_same_idempotency_key_other_body_is_409(api_client, game):
    headers = {"Idempotency-Key": "same", "X-Entry-Token": side_link(game, 0)}
    post(api_client, submit_url(game), {"document": sheet(1), "side": 0}, **headers)
    response = post(api_client, submit_url(game), {"document": sheet(2), "side": 0}, **headers)
    assert (response.status_code, error_code(response)) == (409, "IDEMPOTENCY_KEY_REUSED")


def test_idempotency_key_is_required(api_client, game):
    response = post(api_client, submit_url(game), {"document": sheet(1), "side": 0},
                    **{"X-Entry-Token": side_link(game, 0)})
    assert (response.status_code, error_code(response)) == (400, "IDEMPOTENCY_KEY_REQUIRED")


# --- corrections --------------------------------------------------------------------------------


@pytest.fixture
def confirmed_game(api_client, game):
    enter_all(api_client, game, 0, "a")
    enter_all(api_client, game, 1, "b")
    return game


def correct(api_client, game, if_match='"1"', **body):
    body = {"reason": "Round 3 miscounted", "sheets": [sheet(3, table_points=600)], **body}
    headers = {"If-Match": if_match} if if_match is not None else {}
    return post(api_client, f"/api/results/{game.pk}/corrections/", body, **headers)


def test_director_corrects_with_if_match_and_history_is_kept(api_client, confirmed_game):
    game = confirmed_game
    api_client.force_authenticate(club_user(game, "director"))
    assert api_client.get(f"/api/results/{game.pk}/")["ETag"] == '"1"'
    response = correct(api_client, game)
    assert response.status_code == 201, response.json()
    assert response["ETag"] == '"2"'
    detail = api_client.get(f"/api/results/{game.pk}/").json()
    assert [(v["number"], v["status"]) for v in detail["versions"]] == [
        (2, "confirmed"), (1, "superseded")]
    assert detail["versions"][0]["reason"] == "Round 3 miscounted"
    assert detail["current"]["totals"][0] == 3 * 3855 + 3900


def test_stale_correction_is_412(api_client, confirmed_game):
    api_client.force_authenticate(club_user(confirmed_game, "director"))
    assert correct(api_client, confirmed_game).status_code == 201
    response = correct(api_client, confirmed_game, sheets=[sheet(3, table_points=650)])
    assert (response.status_code, error_code(response)) == (412, "STALE_VERSION")


def test_correction_without_if_match_is_428(api_client, confirmed_game):
    api_client.force_authenticate(club_user(confirmed_game, "director"))
    assert correct(api_client, confirmed_game, if_match=None).status_code == 428


@pytest.mark.parametrize("who", ["anonymous", "outsider", "scorer", "other_director"])
def test_only_the_club_director_corrects(api_client, confirmed_game, who):
    users = {"outsider": UserFactory, "other_director": lambda: MembershipFactory().user,
             "scorer": lambda: club_user(confirmed_game, Membership.Role.SCORER)}
    if who in users:
        api_client.force_authenticate(users[who]())
    assert correct(api_client, confirmed_game).status_code == (401 if who == "anonymous" else 403)


# --- malformed input ------------------------------------------------------------------------------


def test_malformed_json_is_400_with_the_error_shape(api_client, game):
    response = api_client.post(submit_url(game), "{not json", content_type="application/json",
                               headers={"X-Entry-Token": side_link(game, 0)})
    assert response.status_code == 400
    assert set(response.json()["error"]) == {"code", "message", "details"}


@pytest.mark.parametrize("body", [[1, 2], "text", 5, None])
def test_body_of_the_wrong_type_is_400(api_client, game, body):
    response = post(api_client, submit_url(game), body, **{"X-Entry-Token": side_link(game, 0)})
    assert response.status_code == 400


@pytest.mark.parametrize("document", [5, "x", [], {"format": "nope"}, {"format": "hand-and-foot-sheet/1"}])
def test_documents_of_the_wrong_shape_are_400(api_client, game, document):
    response = post(api_client, submit_url(game), {"document": document, "side": 0},
                    **{"Idempotency-Key": "k", "X-Entry-Token": side_link(game, 0)})
    assert response.status_code == 400
    assert response.json()["error"]["code"] in {"BAD_FORMAT", "INVALID"}


def test_huge_body_is_413(api_client, game):
    response = api_client.post(submit_url(game), "x" * 2_100_000, content_type="application/json",
                               headers={"X-Entry-Token": side_link(game, 0)})
    assert response.status_code == 413


# --- stateless checks and schemas -----------------------------------------------------------------


def test_sheet_check_scores_without_storing(api_client):
    response = post(api_client, "/api/sheets/check/", {**sheet(2), "rules": "classic"})
    assert response.status_code == 200
    assert response.json()["totals"] == [3855, 615]
    assert not Submission.objects.exists()


def test_sheet_check_reports_what_cannot_be_right(api_client):
    bad = {**sheet(2), "rules": "classic"}
    bad["sides"][1]["table_points"] = 3
    report = post(api_client, "/api/sheets/check/", bad).json()
    assert report["valid"] is False and report["error"]["code"] == "BAD_FORMAT"


def test_log_check_replays(api_client):
    report = post(api_client, "/api/logs/check/", stockout_log()).json()
    assert report["valid"] and report["totals"] == [-4155, -7705]


def test_log_sent_to_sheet_check_is_refused(api_client):
    response = post(api_client, "/api/sheets/check/", stockout_log())
    # A whole game's log is larger than any sheet: refused unread, saying where logs go.
    assert (response.status_code, error_code(response)) == (413, "BODY_TOO_LARGE")
    assert "a move log goes to /api/logs/check/" in response.json()["error"]["message"]
    short_log = simulate_game("classic", 4, seed=3, rounds=1)  # 11 KB: fits a sheet's limit
    response = post(api_client, "/api/sheets/check/", short_log)
    assert (response.status_code, error_code(response)) == (400, "WRONG_KIND")


@pytest.mark.parametrize("name", ["move-log", "score-sheet"])
def test_schemas_are_published(api_client, name):
    response = api_client.get(f"/api/schemas/{name}/")
    assert response.status_code == 200
    assert "$schema" in json.loads(response.content)


def test_results_list_filters_by_event_and_status(api_client, confirmed_game):
    other = named_game(slugs=("eve", "fay", "gus", "hal"))
    slug = confirmed_game.table.rotation.event.slug
    rows = api_client.get("/api/results/", {"event": slug}).json()["results"]
    assert [r["game"] for r in rows] == [confirmed_game.pk]
    rows = api_client.get("/api/results/", {"status": "pending"}).json()["results"]
    assert [r["game"] for r in rows] == [other.pk]


def test_signed_in_player_enters_for_their_own_side(api_client, game):
    player = game.table.seats.get(seat_number=1).player
    player.user = UserFactory()
    player.save()
    api_client.force_authenticate(player.user)
    response = post(api_client, submit_url(game), {"document": sheet(1)}, **{"Idempotency-Key": "p"})
    assert response.status_code == 201
    assert response.json()["submission"]["entrant"] == f"game:{game.pk}:side:1"


@pytest.mark.parametrize(("who", "shown"), [
    ("anonymous", ["Player {pk}", "Cat"]), ("other", ["Player {pk}", "Cat"]),
    ("director", ["Ann", "Cat"]),
])
def test_result_sides_name_players_as_they_chose_except_to_the_clubs_directors(api_client, game,
                                                                              who, shown):
    """Ann chose no name: the results API (list and detail) says "Player N" for her, as the
    public pages do; the club's directors read the real name, as they do in the player API."""
    from league.models import Player

    ann = Player.objects.get(club=game.table.rotation.event.club, slug="ann")
    ann.name_shown = Player.NameShown.HIDDEN
    ann.save(update_fields=["name_shown"])
    if who != "anonymous":
        api_client.force_authenticate(club_user(game, "director") if who == "director"
                                      else UserFactory())
    expected = [name.format(pk=ann.pk) for name in shown]
    detail = api_client.get(f"/api/results/{game.pk}/").json()
    listed = api_client.get("/api/results/", {"game": game.pk}).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert detail["sides"][0]["players"] == expected
    assert rows[0]["sides"][0]["players"] == expected

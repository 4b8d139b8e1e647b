"""Finding 4 (issue 11): table codes, links and logins cannot be guessed at full speed; the
anonymous engine checks are throttled per client. Each refusal is 429 with Retry-After.
Finding 1 (issue 22): only failures are counted and refused; a right credential gets in."""

import json

import pytest
from django.core.cache import caches

from league.services.credentials import game_side_credentials
from tests.factories import UserFactory
from tests.games.factories import named_game, sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings):
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates
            },
        }

    return set_rates


def retry_after(response) -> int:
    return int(response["Retry-After"])


def test_anonymous_sheet_checks_are_throttled_per_client(api_client, rates):
    rates(check="5/minute")
    body = json.dumps({**sheet(1), "rules": "classic"})
    answers = [api_client.post("/api/sheets/check/", body, content_type="application/json")
               for _ in range(6)]
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert 1 <= retry_after(answers[-1]) <= 60
    assert answers[-1].json()["error"]["code"] == "THROTTLED"
    # Another client (address) is not affected.
    other = api_client.post("/api/logs/check/", "{}", content_type="application/json",
                            REMOTE_ADDR="10.0.0.9")
    assert other.status_code != 429


def test_x_forwarded_for_does_not_escape_the_throttle(api_client, rates):
    rates(check="2/minute")
    codes = [api_client.post("/api/sheets/check/", "{}", content_type="application/json",
                             HTTP_X_FORWARDED_FOR=f"10.1.1.{i}").status_code for i in range(3)]
    assert codes[-1] == 429


def test_wrong_table_codes_are_throttled_after_the_limit(client, rates):
    rates(lookup="3/minute")
    wrong = [client.post("/play/", {"code": f"ZZZZZ{c}"}) for c in "2345"]
    assert [r.status_code for r in wrong] == [200, 200, 200, 429]
    assert "No table has this code" in wrong[0].content.decode()
    assert retry_after(wrong[-1]) >= 1
    assert "Too many tries" in wrong[-1].content.decode()
    assert client.post("/play/", {"code": "ZZZZZZ7"}).status_code == 429  # still refused


def test_one_address_with_many_wrong_codes_still_gets_in_with_a_right_one(client, api_client,
                                                                           rates):
    """Finding 1 (issue 22): a club's phones share the router's address; one scorer's 25 typos
    must not stop the other tables' right codes, links or API entries."""
    rates(lookup="20/minute")
    game = named_game()
    credential = game_side_credentials(game=game)[0]
    wrong = [client.post("/play/", {"code": f"ZZZZZ{c}{d}"}).status_code
             for c in "23456" for d in "23456"]
    assert wrong.count(429) == 5 and wrong[:20] == [200] * 20
    assert client.post("/play/", {"code": credential.code}).status_code == 302
    assert client.get(f"/play/{credential.token}/").status_code == 200
    answer = api_client.post(
        f"/api/results/{game.pk}/submissions/", json.dumps({"document": sheet(1), "side": 0}),
        content_type="application/json",
        headers={"X-Entry-Token": credential.token, "Idempotency-Key": "right-after-typos"})
    assert answer.status_code == 201
    assert client.post("/play/", {"code": "ZZZZZZZ"}).status_code == 429  # wrong: still refused


def test_right_table_codes_are_never_counted(client, rates):
    rates(lookup="2/minute")
    credential = game_side_credentials(game=named_game())[0]
    for _ in range(5):
        assert client.post("/play/", {"code": credential.code}).status_code == 302
        assert client.get(f"/play/{credential.token}/").status_code == 200
    assert client.post("/play/", {"code": "ZZZZZZ2"}).status_code == 200  # nothing used up


def test_a_flood_from_many_addresses_hits_the_site_wide_bound(client, rates):
    rates(lookup="20/minute", lookup_site="10/minute")
    credential = game_side_credentials(game=named_game())[0]
    answers = [client.post("/play/", {"code": f"ZZZZZZ{c}"}, REMOTE_ADDR=f"10.2.0.{i}").status_code
               for i, c in enumerate("23456789ABCD")]  # 12 addresses, one guess each
    assert answers == [200] * 10 + [429, 429]
    # A fresh address's wrong link is refused too, but every right credential still works.
    assert client.get("/play/not-a-token/", REMOTE_ADDR="10.2.1.1").status_code == 429
    assert client.post("/play/", {"code": credential.code},
                       REMOTE_ADDR="10.2.1.2").status_code == 302
    assert client.get(f"/play/{credential.token}/", REMOTE_ADDR="10.2.1.3").status_code == 200


def test_during_a_flood_the_flooding_address_cannot_test_codes(client, rates):
    """Past both bounds a typed code is not looked up at all for that address (else a script
    ignoring 429s would learn right codes at full speed); its table link still works."""
    rates(lookup="3/minute", lookup_site="5/minute")
    credential = game_side_credentials(game=named_game())[0]
    for c in "234567":
        client.post("/play/", {"code": f"ZZZZZZ{c}"}, REMOTE_ADDR="10.3.0.1")
    assert client.post("/play/", {"code": credential.code},
                       REMOTE_ADDR="10.3.0.1").status_code == 429
    assert client.get(f"/play/{credential.token}/", REMOTE_ADDR="10.3.0.1").status_code == 200
    assert client.post("/play/", {"code": credential.code},
                       REMOTE_ADDR="10.3.0.2").status_code == 302  # another address: in


def test_wrong_table_links_are_throttled(client, rates):
    rates(lookup="2/minute")
    codes = [client.get(f"/play/not-a-token-{i}/").status_code for i in range(4)]
    assert codes == [404, 404, 429, 429]


def test_wrong_entry_tokens_on_the_api_are_throttled_but_a_right_one_is_not(api_client, rates):
    rates(lookup="2/minute")
    game = named_game()
    answers = [
        api_client.post(f"/api/results/{game.pk}/submissions/",
                        json.dumps({"document": sheet(1), "side": 0}),
                        content_type="application/json",
                        headers={"X-Entry-Token": f"guess{i}", "Idempotency-Key": f"k{i}"})
        for i in range(3)
    ]
    assert [a.status_code for a in answers] == [403, 403, 429]
    assert retry_after(answers[-1]) >= 1
    right = api_client.post(f"/api/results/{game.pk}/submissions/",
                            json.dumps({"document": sheet(1), "side": 0}),
                            content_type="application/json",
                            headers={"X-Entry-Token": game_side_credentials(game=game)[0].token,
                                     "Idempotency-Key": "right"})
    assert right.status_code == 201


def test_token_requests_are_throttled(api_client, rates):
    rates(token="3/minute")
    codes = [api_client.post("/api/auth/token/", {"username": f"u{i}", "password": "x"},
                             format="json").status_code for i in range(4)]
    assert codes == [400, 400, 400, 429]


@pytest.mark.parametrize("how", ["api", "page"])
def test_wrong_passwords_lock_the_login_out(api_client, client, settings, how):
    settings.AXES_FAILURE_LIMIT = 3
    user = UserFactory(username="dora")
    user.set_password("right-password-1")
    user.save()

    def attempt(password):
        if how == "api":
            return api_client.post("/api/auth/token/", {"username": "dora", "password": password},
                                   format="json")
        return client.post("/accounts/login/", {"username": "dora", "password": password})

    first = [attempt("wrong").status_code for _ in range(3)]
    assert first == ([400, 400, 429] if how == "api" else [200, 200, 429])  # the 3rd locks
    locked = attempt("right-password-1")  # even the right password, while locked out
    assert locked.status_code == 429
    assert retry_after(locked) >= 60
    if how == "api":
        assert locked.json()["error"]["code"] == "LOCKED_OUT"


def test_right_password_gets_a_token(api_client):
    user = UserFactory(username="ed")
    user.set_password("right-password-2")
    user.save()
    response = api_client.post("/api/auth/token/",
                               {"username": "ed", "password": "right-password-2"}, format="json")
    assert response.status_code == 200 and len(response.json()["token"]) == 64  # knox's


def test_a_broken_throttle_cache_lets_requests_through(api_client, rates, monkeypatch):
    rates(check="1/minute")

    def broken(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(type(caches["throttle"]), "get", broken)
    codes = [api_client.post("/api/sheets/check/", "{}", content_type="application/json")
             .status_code for _ in range(3)]
    assert 429 not in codes and 500 not in codes

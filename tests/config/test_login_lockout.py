"""Finding 8 (issue 22): failed sign-ins are counted per account across all addresses, not only
per address, and a stranger cannot lock the account's owner out: a browser that has signed in
before holds a signed device cookie with an allowance of its own (OWASP's device cookies), and a
password reset lifts the lock. The same holds for the API's token endpoint."""

import json
import re

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient

from config.auth import DEVICE_COOKIE, DEVICE_SALT, device_nonces
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pass-word-123"  # tests.factories.UserFactory's
ADDRESSES = [f"10.40.0.{i}" for i in range(1, 11)]
# Enough of the attack's guesses to lock the account (its limit is 30 in these tests), for the
# tests about what still works once it is locked.
LOCKING_GUESSES = 30


@pytest.fixture
def dora(settings):
    settings.AXES_FAILURE_LIMIT = 10
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 30
    return UserFactory(username="dora")


def page_login(client: Client, password: str, address: str = "10.9.9.9") -> int:
    return client.post("/accounts/login/", {"username": "dora", "password": password},
                       REMOTE_ADDR=address).status_code


def api_login(client: APIClient, password: str, address: str = "10.9.9.9") -> int:
    return client.post("/api/auth/token/", {"username": "dora", "password": password},
                       format="json", REMOTE_ADDR=address).status_code


def sign_out(client: Client) -> None:
    """The site's own logout (the test client's logout() would drop every cookie)."""
    assert client.post("/accounts/logout/").status_code == 302


def guess_from_ten_addresses(guesses: int = 90) -> list[int]:
    """A stranger's wrong passwords, spread over ten addresses (9 each: under the per-address
    limit), from fresh browsers without cookies."""
    return [page_login(Client(), f"guess-{i}", ADDRESSES[i % len(ADDRESSES)])
            for i in range(guesses)]


def test_ninety_guesses_from_ten_addresses_lock_the_account_for_untrusted_browsers(dora):
    answers = guess_from_ten_addresses()
    # Before: all 90 were answered (each address stayed under its own limit of 10).
    assert answers[:29] == [200] * 29 and set(answers[29:]) == {429}
    for address in ("10.40.1.1", ADDRESSES[0]):  # a fresh address, and one of the attacker's
        assert page_login(Client(), PASSWORD, address) == 429
    assert api_login(APIClient(), PASSWORD, "10.40.1.2") == 429


def test_one_address_is_locked_at_its_own_limit_and_another_still_signs_in(dora):
    answers = [page_login(Client(), f"guess-{i}", "10.41.0.1") for i in range(11)]
    assert answers == [200] * 9 + [429, 429]
    assert page_login(Client(), PASSWORD, "10.41.0.2") == 302


def test_a_browser_that_signed_in_before_still_signs_in_during_the_attack(dora):
    mine = Client()
    assert page_login(mine, PASSWORD) == 302
    cookie = mine.cookies[DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["max-age"]
    sign_out(mine)

    guess_from_ten_addresses()

    assert page_login(Client(), PASSWORD, "10.40.1.1") == 429  # a stranger's browser: locked
    assert page_login(mine, PASSWORD) == 302  # the owner's: in, the right password only
    sign_out(mine)
    assert page_login(mine, "typo", ADDRESSES[0]) == 200  # from the attacker's own address too


def test_a_device_has_its_own_allowance(dora):
    mine = Client()
    assert page_login(mine, PASSWORD) == 302
    sign_out(mine)
    answers = [page_login(mine, f"typo-{i}") for i in range(10)]
    assert answers == [200] * 9 + [429]
    assert page_login(mine, PASSWORD) == 429  # this device is locked now ...
    assert page_login(Client(), PASSWORD, "10.42.0.1") == 302  # ... the account is not


def test_a_device_signs_in_to_the_api_during_the_attack(dora):
    mine = APIClient()
    assert api_login(mine, PASSWORD) == 200
    assert DEVICE_COOKIE in mine.cookies
    guess_from_ten_addresses(LOCKING_GUESSES)
    assert api_login(APIClient(), PASSWORD, "10.40.1.1") == 429
    assert api_login(mine, PASSWORD) == 200


def test_guesses_at_the_token_endpoint_count_for_the_account_too(dora, settings):
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 12
    answers = [api_login(APIClient(), f"guess-{i}", ADDRESSES[i % 4]) for i in range(14)]
    assert answers[:11] == [400] * 11 and set(answers[11:]) == {429}
    assert page_login(Client(), PASSWORD, "10.40.1.1") == 429


def test_the_locked_page_says_what_to_do(dora):
    guess_from_ten_addresses(30)
    page = Client().post("/accounts/login/", {"username": "dora", "password": PASSWORD},
                         REMOTE_ADDR="10.40.1.1")
    assert page.status_code == 429 and 60 <= int(page["Retry-After"]) <= 900
    text = page.content.decode()
    assert "try again in 15 minutes" in text and 'href="/accounts/password_reset/"' in text


def test_a_password_reset_by_email_lifts_the_lock(dora, mailoutbox):
    guess_from_ten_addresses(LOCKING_GUESSES)
    assert page_login(Client(), PASSWORD, "10.40.1.1") == 429

    browser = Client()
    asked = browser.post("/accounts/password_reset/", {"email": dora.email})
    assert asked.status_code == 302 and len(mailoutbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    start = browser.get(link)
    assert start.status_code == 302
    form = browser.get(start["Location"])
    assert "Set a new password" in form.content.decode()
    done = browser.post(start["Location"], {"new_password1": "a-new-pass-word-456",
                                            "new_password2": "a-new-pass-word-456"})
    assert done.status_code == 302
    assert "Password set" in browser.get(done["Location"]).content.decode()

    assert page_login(Client(), "a-new-pass-word-456", "10.40.1.1") == 302
    assert api_login(APIClient(), "a-new-pass-word-456", ADDRESSES[0]) == 200


def signed(value: dict, *, salt: str = DEVICE_SALT, name: str = DEVICE_COOKIE) -> str:
    """A device cookie's value as Django signs it (with this site's key unless overridden)."""
    response = HttpResponse()
    response.set_signed_cookie(name, json.dumps(value), salt=salt)
    return response.cookies[name].value


def forged(value: dict, *, key: str | None = None, salt: str = DEVICE_SALT) -> str:
    if key is None:
        return signed(value, salt=salt)
    with override_settings(SECRET_KEY=key):
        return signed(value, salt=salt)


def nonces_of(cookie_value: str) -> dict:
    request = RequestFactory().get("/")
    request.COOKIES[DEVICE_COOKIE] = cookie_value
    return device_nonces(request)


@pytest.mark.parametrize("cookie", [
    "unsigned", "another-key", "another-cookie", "another-salt", "altered", "another-account",
])
def test_a_forged_device_cookie_counts_as_none(dora, cookie):
    real = Client()
    assert page_login(real, PASSWORD) == 302
    sign_out(real)
    genuine = real.cookies[DEVICE_COOKIE].value
    nonce = nonces_of(genuine)["dora"]
    value = {
        "unsigned": json.dumps({"dora": nonce}),
        "another-key": forged({"dora": nonce}, key="not-the-site-secret-key" * 3),
        "another-cookie": signed({"dora": nonce}, name="sessionid"),
        "another-salt": forged({"dora": nonce}, salt="elsewhere"),
        "altered": genuine.replace(nonce, nonce[::-1]) if nonce != nonce[::-1] else genuine + "x",
        "another-account": forged({"ed": nonce}),
    }[cookie]

    guess_from_ten_addresses(LOCKING_GUESSES)

    stranger = Client()
    stranger.cookies[DEVICE_COOKIE] = value
    assert page_login(stranger, PASSWORD, "10.40.1.1") == 429
    assert page_login(real, PASSWORD) == 302  # the genuine one still works


def test_a_strangers_guesses_with_a_forged_cookie_do_not_use_up_the_owners_allowance(dora):
    mine = Client()
    assert page_login(mine, PASSWORD) == 302
    sign_out(mine)
    for i in range(12):
        stranger = Client()
        stranger.cookies[DEVICE_COOKIE] = forged({"dora": f"made-up-{i}"}, key="x" * 50)
        page_login(stranger, f"guess-{i}", "10.43.0.1")
    assert page_login(mine, PASSWORD, "10.43.0.1") == 302

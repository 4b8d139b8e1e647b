"""Finding 10 (issue 22): API tokens expire, are new on every sign-in, are kept hashed, and are
revoked by logging out (this token or all of them) and by a new password; `POST
/api/auth/token/` and `Authorization: Token <key>` work as before."""

import datetime

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pass-word-123"  # tests.factories.UserFactory's


@pytest.fixture
def membership():
    return MembershipFactory(role="director", user__username="dora")


def sign_in(username: str = "dora", password: str = PASSWORD) -> dict:
    response = APIClient().post("/api/auth/token/", {"username": username, "password": password},
                                format="json")
    assert response.status_code == 200, response.content
    return response.json()


def members_page(membership, token: str) -> int:
    """An operation that needs an account: the club's members (a director's)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get(f"/api/clubs/{membership.club.pk}/members/").status_code


def test_a_token_works_as_authorization_token_and_expires_in_ten_hours(membership):
    before = timezone.now()
    answer = sign_in()
    expiry = datetime.datetime.fromisoformat(answer["expiry"])
    assert datetime.timedelta(hours=9, minutes=59) < expiry - before <= datetime.timedelta(
        hours=10, minutes=1)
    assert members_page(membership, answer["token"]) == 200
    assert members_page(membership, answer["token"] + "x") == 401
    assert APIClient().get(f"/api/clubs/{membership.club.pk}/members/")[
        "WWW-Authenticate"] == "Token"


def test_every_sign_in_gives_a_new_token_and_the_database_keeps_only_a_hash(membership):
    tokens = {sign_in()["token"] for _ in range(3)}
    assert len(tokens) == 3
    stored = list(AuthToken.objects.filter(user=membership.user).values_list("digest",
                                                                              "token_key"))
    assert len(stored) == 3
    for token in tokens:
        assert all(token != digest and token != key and len(key) < len(token)
                   for digest, key in stored)


def test_an_expired_token_is_refused(membership, settings):
    token = sign_in()["token"]
    AuthToken.objects.filter(user=membership.user).update(
        expiry=timezone.now() - datetime.timedelta(seconds=1))
    assert members_page(membership, token) == 401


def test_the_token_lifetime_is_a_setting(membership, settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": datetime.timedelta(hours=1)}
    expiry = datetime.datetime.fromisoformat(sign_in()["expiry"])
    assert expiry - timezone.now() <= datetime.timedelta(hours=1)


def test_logout_revokes_this_token_only(membership):
    first, second = sign_in()["token"], sign_in()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert client.post("/api/auth/logout/").status_code == 204
    assert members_page(membership, first) == 401
    assert members_page(membership, second) == 200


def test_logout_all_revokes_every_token_of_the_account(membership):
    tokens = [sign_in()["token"] for _ in range(3)]
    other = MembershipFactory(role="director", club=membership.club, user__username="ed")
    kept = sign_in("ed")["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[0]}")
    assert client.post("/api/auth/logout-all/").status_code == 204
    assert [members_page(membership, t) for t in tokens] == [401, 401, 401]
    assert members_page(other, kept) == 200


def test_logging_out_needs_a_token(membership):
    assert APIClient().post("/api/auth/logout/").status_code == 401
    assert APIClient().post("/api/auth/logout-all/").status_code == 401


def test_a_password_change_revokes_the_accounts_tokens(membership):
    token = sign_in()["token"]
    user = membership.user
    user.set_password("a-new-pass-word-456")
    user.save()
    assert members_page(membership, token) == 401
    assert members_page(membership, sign_in(password="a-new-pass-word-456")["token"]) == 200


def test_a_password_reset_revokes_the_accounts_tokens(client, membership):
    token = sign_in()["token"]
    user = type(membership.user).objects.get(pk=membership.user.pk)  # signed in: a new last_login
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    start = client.get(f"/accounts/reset/{uid}/{default_token_generator.make_token(user)}/")
    assert start.status_code == 302
    done = client.post(start["Location"], {"new_password1": "a-new-pass-word-456",
                                           "new_password2": "a-new-pass-word-456"})
    assert done.status_code == 302
    assert members_page(membership, token) == 401


def test_signing_in_again_does_not_revoke_the_other_tokens(membership):
    first = sign_in()["token"]
    sign_in()
    assert members_page(membership, first) == 200

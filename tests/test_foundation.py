"""The service's foundation: health endpoint and settings."""

import pytest


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True


@pytest.mark.django_db
def test_admin_login_page_is_reachable(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200


@pytest.mark.django_db
def test_a_director_gets_an_api_token_with_their_password_and_it_authenticates(api_client):
    from tests.factories import MembershipFactory

    user = MembershipFactory(role="director").user  # password "pass-word-123"

    refused = api_client.post("/api/auth/token/", {"username": user.username, "password": "no"})
    token = api_client.post(
        "/api/auth/token/", {"username": user.username, "password": "pass-word-123"}
    ).json()["token"]

    assert refused.status_code == 400
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/clubs/").status_code == 200
    assert api_client.get("/api/clubs/").wsgi_request.user == user

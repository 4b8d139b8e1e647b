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

"""The API's one error shape (config.api_errors), for Django's own refusals too."""

import pytest

pytestmark = pytest.mark.django_db


def test_an_unknown_object_is_not_found_in_the_error_shape(api_client):
    response = api_client.get("/api/events/999999/")
    assert response.status_code == 404
    assert response.json() == {"error": {
        "code": "NOT_FOUND", "message": "No Event matches the given query.", "details": None}}


def test_a_bad_filter_names_the_field(api_client):
    response = api_client.get("/api/events/?date_from=notadate")
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["details"]) == ("INVALID", {"date_from": ["Enter a valid date."]})

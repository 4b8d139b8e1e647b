"""A request's declared size is refused before its body is read (config.request_limits)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


class UnreadableBody:
    """A body that fails the test if anything reads it."""

    def read(self, *args: object) -> bytes:
        raise AssertionError("the body was read")

    readline = read


def post_declaring(path: str, length: str, content_type: str = "multipart/form-data; boundary=x"):
    return Client().generic("POST", path, b"", content_type=content_type,
                            CONTENT_LENGTH=length, **{"wsgi.input": UnreadableBody()})


def test_a_300_mb_upload_to_a_link_that_does_not_exist_is_413_unread():
    response = post_declaring("/play/no-such-link/log/", str(300 * 1024 * 1024))
    assert response.status_code == 413
    assert "larger than" in response.content.decode()
    assert not response.has_header("Connection")  # WSGI forbids hop-by-hop headers


def test_the_api_answers_413_in_its_error_shape_unread():
    response = post_declaring("/api/sheets/check/", str(10**9), "application/json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "REQUEST_TOO_LARGE"


@pytest.mark.parametrize("length", ["-5", "12abc", "9" * 40])
def test_a_length_that_is_not_a_number_is_400_unread(length):
    response = post_declaring("/api/sheets/check/", length, "application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "BAD_CONTENT_LENGTH"


def test_a_body_within_the_limit_reaches_the_view():
    response = Client().post("/api/sheets/check/", {"format": "nope"},
                             content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "WRONG_KIND"  # the view's own answer


def test_the_limit_follows_the_setting(settings):
    settings.REQUEST_MAX_BYTES = 100
    assert post_declaring("/api/sheets/check/", "101", "application/json").status_code == 413

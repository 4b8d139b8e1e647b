"""The one error model: each kind of refusal answers one HTTP status, for the API and for pages."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from config.api_errors import exception_handler
from config.page_errors import DomainErrorMiddleware
from core.errors import Conflict, DomainError, Forbidden, Gone, Invalid, NotFound, Stale
from web.http import refusal_status

KINDS = [(Invalid, 400), (Forbidden, 403), (NotFound, 404), (Conflict, 409), (Gone, 410),
         (Stale, 412)]


@pytest.mark.parametrize(("kind", "status"), KINDS)
def test_each_kind_answers_its_status(kind, status):
    assert refusal_status(kind("CODE", "Plain words.")) == status


def test_a_subclass_answers_its_parents_status_and_the_base_answers_400():
    class SeatTaken(Conflict):
        pass

    assert refusal_status(SeatTaken("SEAT_TAKEN", "Taken.")) == 409
    assert refusal_status(DomainError("ODD", "Odd.")) == 400


def test_the_body_names_the_field_or_carries_the_details():
    assert Invalid("BAD_NAME", "Needs a name.", field="name").as_dict() == {
        "code": "BAD_NAME", "message": "Needs a name.", "details": {"field": "name"}}
    assert Invalid("BAD_LOG", "Bad.", details={"round": 2}).as_dict()["details"] == {"round": 2}
    assert Conflict("DUPLICATE", "Already.").as_dict()["details"] is None


@pytest.mark.parametrize(("kind", "status"), KINDS)
def test_the_api_answers_the_kinds_status_in_the_error_shape(kind, status):
    response = exception_handler(kind("SOME_CODE", "Plain words."), {})
    assert response.status_code == status
    assert response.data == {"error": {"code": "SOME_CODE", "message": "Plain words.",
                                       "details": None}}


@pytest.mark.django_db
def test_a_page_shows_an_unhandled_refusal_with_its_status_and_message():
    request = RequestFactory().get("/somewhere/")
    request.user = AnonymousUser()
    middleware = DomainErrorMiddleware(lambda r: None)
    response = middleware.process_exception(request, Gone("EVENT_NOT_RUNNING", "Not running."))
    assert response.status_code == 410
    assert "Not running." in response.content.decode()
    assert middleware.process_exception(request, ValueError("not ours")) is None

"""Property tests of the whole REST API from its own OpenAPI schema: whatever schemathesis
generates (paths, query strings, bodies), the API never answers with a server error.

One pytest test per operation, each with its own id (`[POST /api/auth/token/]`): schemathesis's
own `schema.parametrize()` gives every operation the same node id, and pytest-xdist then runs
only one of them (tests/groups.py now fails a run whose collected and run counts differ)."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from config.wsgi import application
from tests.factories import EventFactory, MembershipFactory, make_game

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
OPERATIONS = [result.ok() for result in schema.get_all_operations()]


@pytest.fixture
def keep_test_connection():
    """The WSGI app closes "old" connections around each request, and inside a test's
    transaction every connection looks old; Django's own test client turns this off too."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def director_token(db, keep_test_connection) -> str:
    """A director of a club with a running event and a game, so writes reach the services."""
    from knox.models import AuthToken

    membership = MembershipFactory(role="director")
    event = EventFactory(club=membership.club, status="running")
    make_game(event=event)
    _, key = AuthToken.objects.create(user=membership.user)
    return key


@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_the_api_never_answers_a_director_with_a_server_error(operation, data, director_token):
    case = data.draw(operation.as_strategy())
    case.call_and_validate(
        headers={"Authorization": f"Token {director_token}"}, checks=[not_a_server_error]
    )

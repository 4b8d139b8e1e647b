"""Property tests of the whole REST API from its own OpenAPI schema: whatever schemathesis
generates (paths, query strings, bodies), the API never answers with a server error."""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from config.wsgi import application
from tests.factories import EventFactory, MembershipFactory, make_game

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


@pytest.fixture
def director_token(db) -> str:
    """A director of a club with a running event and a game, so writes reach the services."""
    from rest_framework.authtoken.models import Token

    membership = MembershipFactory(role="director")
    event = EventFactory(club=membership.club, status="running")
    make_game(event=event)
    return Token.objects.create(user=membership.user).key


@schema.parametrize()
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_never_answers_a_director_with_a_server_error(case, director_token):
    case.call_and_validate(
        headers={"Authorization": f"Token {director_token}"}, checks=[not_a_server_error]
    )

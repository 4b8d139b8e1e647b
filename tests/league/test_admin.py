"""The admin lists, searches and edits every league model."""

import pytest
from django.urls import reverse

from league import services
from tests.factories import UserFactory
from tests.league.factories import running_event

pytestmark = pytest.mark.django_db

MODELS = [
    "club", "membership", "player", "partnership", "league", "season", "event", "registration",
    "rotation", "table", "seat", "sitout", "substitution", "game",
]


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def seated_event():
    event, players = running_event(8)
    rotation = services.rotation_generate(event=event)
    return event, players, rotation


@pytest.mark.parametrize("model", MODELS)
def test_changelist_and_search_pages_load(admin_client, seated_event, model):
    url = reverse(f"admin:league_{model}_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "x"}).status_code == 200


def test_event_page_shows_registrations_and_rotations_inline(admin_client, seated_event):
    event, players, _ = seated_event
    page = admin_client.get(reverse("admin:league_event_change", args=[event.pk]))
    assert page.status_code == 200
    assert players[0].name in page.text or str(players[0].pk) in page.text


def test_table_page_shows_seats_and_game_inline(admin_client, seated_event):
    _, _, rotation = seated_event
    table = rotation.tables.first()
    page = admin_client.get(reverse("admin:league_table_change", args=[table.pk]))
    assert page.status_code == 200
    assert table.game.get_status_display() in page.text


def test_non_staff_cannot_open_the_admin(client):
    client.force_login(UserFactory())
    assert client.get(reverse("admin:league_event_changelist")).status_code == 302

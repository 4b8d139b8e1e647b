"""Finding 9 (issue 11): the admin goes through the league services. An event's rules cannot be
changed in the admin once results exist (nor set to a nonsense value), so the table and director
game pages keep working."""

import pytest
from django.urls import reverse

from league.models import Event
from tests.factories import MembershipFactory, UserFactory
from tests.games.factories import named_game, sheet, side_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def event_form(admin_client, event):
    """The admin change form's current values, as the browser would send them back."""
    page = admin_client.get(reverse("admin:league_event_change", args=[event.pk]))
    form = page.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        value = field.prepare_value(value)
        if value is None or value is False:
            continue
        data[name] = value
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        for name in management.fields:
            data[f"{management.prefix}-{name}"] = management.initial.get(name, 0)
        for index, inline_form in enumerate(formset.formset.forms):
            for name, field in inline_form.fields.items():
                value = field.prepare_value(inline_form.initial.get(name, field.initial))
                if value not in (None, False):
                    data[f"{formset.formset.prefix}-{index}-{name}"] = value
    return data


def with_results():
    game = named_game()
    from games import services

    services.submission_create(game=game, document=sheet(1),
                               entrant=services.Entrant.for_side(game, 0), idempotency_key="a1")
    return game


@pytest.mark.parametrize("preset", ["pagat", "no-such-preset"])
def test_preset_cannot_change_in_the_admin_once_results_exist(admin_client, client, preset):
    game = with_results()
    event = game.table.rotation.event
    data = {**event_form(admin_client, event), "rules_preset": preset}
    response = admin_client.post(reverse("admin:league_event_change", args=[event.pk]), data)
    assert response.status_code == 200  # the form again, with the refusal
    assert "once rotations are seated" in response.text or "preset" in response.text.lower()
    event.refresh_from_db()
    assert event.rules_preset == "classic"
    assert client.get(f"/play/{side_link(game, 0)}/").status_code == 200
    client.force_login(MembershipFactory(club=event.club, role="director").user)
    assert client.get(reverse("director-result", args=[game.pk])).status_code == 200


def test_a_nonsense_preset_is_refused_in_the_admin_before_any_seating(admin_client):
    from tests.factories import EventFactory

    event = EventFactory(status=Event.Status.DRAFT)
    data = {**event_form(admin_client, event), "rules_preset": "nonsense"}
    response = admin_client.post(reverse("admin:league_event_change", args=[event.pk]), data)
    assert response.status_code == 200
    event.refresh_from_db()
    assert event.rules_preset == "classic"


def test_the_admin_still_edits_what_may_change(admin_client):
    game = with_results()
    event = game.table.rotation.event
    data = {**event_form(admin_client, event), "name": "Renamed night"}
    response = admin_client.post(reverse("admin:league_event_change", args=[event.pk]), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    event.refresh_from_db()
    assert event.name == "Renamed night"


def test_the_admin_adds_an_event_through_the_services(admin_client):
    from tests.factories import ClubFactory

    club = ClubFactory()
    data = {"club": club.pk, "name": "Spring open", "date": "2026-04-01", "kind": "tournament",
            "rules_preset": "classic", "rules_overrides": "{}", "format": "rotating",
            "table_sizes": "[4]", "odd_handling": "sit_out", "planned_rotations": 3,
            "scoring": "match_points", "tie_breaks": '["total_points"]', "is_public": "on",
            "sit_out_scoring": "none", "bye_points": 0, "sit_out_rule": "fewest",
            "mixed_tables": "per_player_round",
            "registrations-TOTAL_FORMS": 0, "registrations-INITIAL_FORMS": 0,
            "rotations-TOTAL_FORMS": 0, "rotations-INITIAL_FORMS": 0}
    response = admin_client.post(reverse("admin:league_event_add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    event = Event.objects.get(name="Spring open")
    assert event.slug.startswith("spring-open") and event.status == Event.Status.DRAFT


def test_game_status_is_not_editable_in_the_admin(admin_client):
    game = with_results()
    page = admin_client.get(reverse("admin:league_game_change", args=[game.pk]))
    form = page.context["adminform"].form
    assert "status" not in form.fields and "first_dealer" not in form.fields

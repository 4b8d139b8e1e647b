"""Director pages through the Django test client: create, register, check in, seat, swap, run."""

import pytest
from django.urls import reverse

from league.models import Event, Game, Player, Registration, Rotation, Seat
from tests.factories import EventFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.league.factories import checked_in_players, user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def membership():
    return MembershipFactory(role="director")


@pytest.fixture
def club(membership):
    return membership.club


@pytest.fixture
def director_client(client, membership):
    client.force_login(membership.user)
    return client


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def _post(client, name, *args, data=None):
    return client.post(reverse(name, args=args), data or {}, follow=True)


def _seating(rotation):
    return list(Seat.objects.filter(rotation=rotation).order_by("table__number", "seat_number").values_list("player_id", flat=True))


def test_home_lists_my_events_only(director_client, club):
    EventFactory(club=club, name="Mine")
    EventFactory(name="Someone else's")

    page = director_client.get(reverse("director-home"))

    assert page.status_code == 200
    assert "Mine" in page.text and "Someone else" not in page.text


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("director-home"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_start_a_club(client):
    user = UserFactory()
    client.force_login(user)
    page = _post(client, "director-club-create", data={"name": "Friday Foot"})
    assert "Club created" in " ".join(_messages(page))
    assert user.memberships.get().club.name == "Friday Foot"


def _event_form(club, **overrides):
    data = {
        "club": club.pk, "name": "Winter Cup", "date": "2026-12-19", "kind": "tournament",
        "rules_preset": "classic", "rules_overrides": "", "format": "rotating",
        "table_sizes": ["4"], "odd_handling": "sit_out", "planned_rotations": "3",
        "scoring": "match_points", "is_public": "on", "tie_break_1": "total_points",
        "tie_break_2": "wins",
    }
    data.update(overrides)
    return data


def test_create_event_form(director_client, club):
    assert director_client.get(reverse("director-event-create")).status_code == 200
    response = director_client.post(
        reverse("director-event-create"), _event_form(club, rules_overrides='{"going_out_bonus": 150}')
    )

    event = Event.objects.get(name="Winter Cup")
    assert response.status_code == 302 and response["Location"] == reverse("director-event", args=[event.slug])
    assert event.rules_overrides == {"going_out_bonus": 150}
    assert event.tie_breaks == ["total_points", "wins"]
    assert event.club == club


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"rules_overrides": '{"hand_size": 0}'}, "hand_size"),
        ({"rules_overrides": "{oops"}, "not readable as house rules"),
        ({"odd_handling": "table_of_six"}, "need 6"),
        ({"tie_break_2": "total_points"}, "only once"),
    ],
)
def test_create_event_refusals_are_shown_on_the_form(director_client, club, overrides, words):
    response = director_client.post(reverse("director-event-create"), _event_form(club, **overrides))
    assert response.status_code == 200
    assert words in response.text
    assert not Event.objects.exists()


def test_cannot_create_an_event_for_a_club_i_do_not_direct(director_client):
    other = MembershipFactory(role="director").club
    response = director_client.post(reverse("director-event-create"), _event_form(other))
    assert response.status_code == 200
    assert not Event.objects.exists()


@pytest.mark.parametrize("role, code", [("outsider", 404), ("scorer", 403), ("other_director", 404), ("director", 200)])
def test_event_page_roles_for_a_private_event(client, club, role, code):
    event = EventFactory(club=club, is_public=False)
    client.force_login(user_with_role(role, club))

    assert client.get(reverse("director-event", args=[event.slug])).status_code == code
    post = client.post(reverse("director-rotation-generate", args=[event.slug]))
    assert post.status_code == (302 if code == 200 else code)


def test_outsider_gets_403_on_a_public_events_director_page(client, club):
    event = EventFactory(club=club)
    client.force_login(UserFactory())
    assert client.get(reverse("director-event", args=[event.slug])).status_code == 403


def test_full_evening_flow(director_client, club):
    director_client.post(reverse("director-event-create"), _event_form(club, planned_rotations="2"))
    event = Event.objects.get()
    slug = event.slug
    _post(director_client, "director-event-status", slug, data={"status": "registration"})

    existing = PlayerFactory(club=club)
    _post(director_client, "director-registration-add", slug, data={"player": existing.pk})
    for i in range(7):
        _post(director_client, "director-registration-add", slug, data={"new_name": f"Newcomer {i}"})
    assert event.registrations.count() == 8

    for registration in event.registrations.all():
        _post(director_client, "director-registration-check-in", slug, registration.pk, data={"checked_in": "1"})
    assert event.registrations.filter(checked_in=True).count() == 8

    page = _post(director_client, "director-rotation-generate", slug)
    rotation = Rotation.objects.get(event=event)
    assert "Rotation seated" in " ".join(_messages(page))
    assert page.text.count("deals first") == 2
    assert "0 repeated partnerships" in page.text

    before = _seating(rotation)
    _post(director_client, "director-rotation-swap", slug, 1, data={"player_a": before[0], "player_b": before[4]})
    after = _seating(rotation)
    assert (after[0], after[4]) == (before[4], before[0])

    refused = _post(director_client, "director-rotation-swap", slug, 1,
                    data={"player_a": before[0], "player_b": PlayerFactory(club=club).pk})
    assert "not in rotation 1" in " ".join(_messages(refused))
    assert _seating(rotation) == after

    early = _post(director_client, "director-rotation-start", slug, 1)
    assert "running" in " ".join(_messages(early))
    _post(director_client, "director-event-status", slug, data={"status": "running"})
    _post(director_client, "director-rotation-start", slug, 1)
    assert Rotation.objects.get(pk=rotation.pk).status == "started"

    too_soon = _post(director_client, "director-rotation-generate", slug)
    assert "close it before" in " ".join(_messages(too_soon))

    not_done = _post(director_client, "director-rotation-close", slug, 1)
    assert "No confirmed result yet" in " ".join(_messages(not_done))
    Game.objects.filter(table__rotation=rotation).update(status="confirmed")
    _post(director_client, "director-rotation-close", slug, 1)
    assert Rotation.objects.get(pk=rotation.pk).status == "closed"

    second = _post(director_client, "director-rotation-generate", slug)
    assert Rotation.objects.filter(event=event).count() == 2
    assert second.status_code == 200


def test_fixed_partnership_entry_with_two_names(director_client, club):
    event = EventFactory(club=club, format="swiss", status="registration")
    page = _post(director_client, "director-registration-add", event.slug,
                 data={"new_name": "Ann", "partner_new_name": "Bob"})
    registration = Registration.objects.get(event=event)
    assert str(registration.partnership) == "Ann & Bob"
    assert "Ann &amp; Bob is entered" in page.text


def test_entry_needs_one_of_existing_or_new(director_client, club):
    event = EventFactory(club=club, status="registration")
    existing = PlayerFactory(club=club)
    page = _post(director_client, "director-registration-add", event.slug,
                 data={"player": existing.pk, "new_name": "Also this"})
    assert "one of the two" in page.text
    assert not event.registrations.exists()
    assert not Player.objects.filter(name="Also this").exists()


def test_withdraw_and_late_arrival(director_client, club):
    event = EventFactory(club=club, status="running")
    players = checked_in_players(event, 8)
    registration = players[0].registrations.get()

    _post(director_client, "director-registration-withdraw", event.slug, registration.pk)
    late = _post(director_client, "director-registration-add", event.slug, data={"new_name": "Latecomer"})

    assert Registration.objects.get(pk=registration.pk).withdrawn_after_rotation == 0
    assert "withdrew before playing" in late.text
    assert Registration.objects.get(player__name="Latecomer").checked_in


def test_delete_a_draft_rotation_and_regenerate_the_same_seating(director_client, club):
    event = EventFactory(club=club, status="running")
    checked_in_players(event, 12)
    _post(director_client, "director-rotation-generate", event.slug)
    first = _seating(Rotation.objects.get(event=event))

    _post(director_client, "director-rotation-delete", event.slug, 1)
    assert not Rotation.objects.filter(event=event).exists()
    _post(director_client, "director-rotation-generate", event.slug)

    assert _seating(Rotation.objects.get(event=event)) == first


def test_edit_settings_refuses_format_change_after_seating(director_client, club):
    event = EventFactory(club=club, status="running")
    checked_in_players(event, 8)
    _post(director_client, "director-rotation-generate", event.slug)
    data = _event_form(club, name=event.name, format="swiss")
    data.pop("club")

    response = director_client.post(reverse("director-event-edit", args=[event.slug]), data)

    assert response.status_code == 200
    assert "once rotations are seated" in response.text
    assert Event.objects.get(pk=event.pk).format == "rotating"


def test_get_is_refused_on_action_urls(director_client, club):
    event = EventFactory(club=club)
    assert director_client.get(reverse("director-rotation-generate", args=[event.slug])).status_code == 405


def test_withdraw_then_play_again(director_client, club):
    event = EventFactory(club=club, status="registration")
    registration = checked_in_players(event, 1)[0].registrations.get()
    _post(director_client, "director-registration-withdraw", event.slug, registration.pk)

    page = _post(director_client, "director-registration-reinstate", event.slug, registration.pk)

    assert "plays again" in " ".join(_messages(page))
    assert Registration.objects.get(pk=registration.pk).withdrawn_after_rotation is None


def test_set_first_dealer_from_the_page(director_client, club):
    event = EventFactory(club=club, status="running")
    checked_in_players(event, 8)
    _post(director_client, "director-rotation-generate", event.slug)
    game = Game.objects.get(table__rotation__event=event, table__number=1)
    seat = Seat.objects.get(table=game.table, seat_number=(game.first_dealer + 1) % 4)

    page = _post(director_client, "director-rotation-first-dealer", event.slug, 1,
                 data={"table": 1, "player": seat.player_id})

    assert "First dealer at table 1 changed" in " ".join(_messages(page))
    assert Game.objects.get(table__rotation__event=event, table__number=1).first_dealer == seat.seat_number


def test_event_page_links_every_director_tool(director_client, club):
    event = EventFactory(club=club)

    page = director_client.get(reverse("director-event", args=[event.slug])).content.decode()

    for name in ("event-table-cards", "director-results", "event-whatif", "director-event-edit"):
        assert f'href="{reverse(name, args=[event.slug])}"' in page

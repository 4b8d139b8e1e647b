"""Seat calls on a player's own page and on the wall (issue 47): the fragment /me/ polls every
second is an empty 304 while it says the same and changes once the director starts the rotation;
the wall lists everyone of the rotation being played in name order with their table and seat."""

import re

import pytest
from django.urls import reverse

from league.models import Game, Player, Rotation
from league.services.rotations import rotation_generate, rotation_start
from league.time_zones import club_today
from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tests.league.factories import running_event

pytestmark = pytest.mark.django_db

NAMES = ["Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz", "Ed Fox", "Fay Gil", "Gus Ho", "Hal Ivy"]


@pytest.fixture
def night():
    """Tonight's running night of eight players, rotation 1 seated as a draft; Ann signed in."""
    event, _ = running_event(players=0, name="Tuesday night")
    event.date = club_today(event.club)
    event.save(update_fields=["date"])
    players = [PlayerFactory(club=event.club, name=n) for n in NAMES]
    for player in players:
        event.registrations.create(player=player, checked_in=True)
    players[0].user = UserFactory(username="ann")
    players[0].save(update_fields=["user"])
    director = MembershipFactory(club=event.club, role="director").user
    rotation = rotation_generate(event=event, by=director)
    return event, players, rotation, director


def poll(client, etag=None):
    headers = {"HTTP_X_REQUESTED_WITH": "fetch"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(reverse("my-seat-calls"), **headers)


def test_my_page_polls_its_seat_call_every_second(client, night):
    _, players, _, _ = night
    client.force_login(players[0].user)
    page = client.get(reverse("my-page")).content.decode()
    assert f'data-refresh-url="{reverse("my-seat-calls")}"' in page
    assert 'data-refresh-seconds="1"' in page and "js/live-refresh.js" in page
    assert "When the director starts a rotation you play in tonight" in page


def test_the_seat_call_is_a_304_until_the_rotation_starts_then_says_where_to_go(
        client, night, django_assert_max_num_queries):
    _, players, rotation, director = night
    client.force_login(players[0].user)
    first = poll(client)
    assert first.status_code == 200 and "Rotation 1" not in first.content.decode()
    with django_assert_max_num_queries(6):  # the session, the user and a few small reads
        unchanged = poll(client, first["ETag"])
    assert unchanged.status_code == 304 and unchanged.content == b""
    rotation_start(rotation=rotation, by=director)
    started = poll(client, first["ETag"])
    text = started.content.decode()
    assert started.status_code == 200 and started["ETag"] != first["ETag"]
    call = re.search(r"Rotation 1: table (\d+), seat (\d), partner ([A-Z][a-z]+ [A-Z][a-z]+)\.", text)
    assert call is not None and call.group(3) in NAMES[1:]
    assert poll(client, started["ETag"]).status_code == 304
    assert call.group(0) in client.get(reverse("my-page")).content.decode()  # and on the first paint


def test_the_seat_call_asks_a_visitor_to_sign_in(client, night):
    response = poll(client)
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_player_sitting_out_is_told_so(client):
    event, _ = running_event(players=0)
    event.date = club_today(event.club)
    event.save(update_fields=["date"])
    players = [PlayerFactory(club=event.club, name=n) for n in NAMES[:5]]
    for player in players:
        event.registrations.create(player=player, checked_in=True)
    rotation = rotation_generate(event=event)
    rotation_start(rotation=rotation)
    out = rotation.sit_outs.get().player
    out.user = UserFactory()
    out.save(update_fields=["user"])
    client.force_login(out.user)
    assert "Rotation 1: you sit out." in poll(client).content.decode()


def wall(client, event):
    return client.get(reverse("event-wall", args=[event.slug]), HTTP_X_REQUESTED_WITH="fetch")


def test_the_wall_lists_where_everyone_sits_in_name_order_once_the_rotation_starts(client, night):
    event, players, rotation, director = night
    Player.objects.filter(pk=players[3].pk).update(name_shown=Player.NameShown.HIDDEN)
    assert "where to sit" not in wall(client, event).content.decode()  # a draft is not called
    rotation_start(rotation=rotation, by=director)
    text = wall(client, event).content.decode()
    section = text[text.index("Rotation 1: where to sit"):text.index("</section>", text.index("where to sit"))]
    rows = re.findall(r'call-name">([^<]+)</span> <span class="wall-seat-call-place">([^<]+)<', section)
    shown = [f"Player {players[3].pk}" if n == "Di Ruiz" else n for n in NAMES]
    assert [name for name, _ in rows] == sorted(shown, key=str.casefold)
    assert all(re.fullmatch(r"table [12], seat [1-4]", place) for _, place in rows)
    assert "Di Ruiz" not in section
    seats = {(s.player.shown_name, f"table {s.table.number}, seat {s.seat_number + 1}")
             for s in rotation.seats.select_related("player", "table")}
    assert set(rows) == seats


def test_the_wall_calls_nothing_once_the_rotation_is_closed(client, night):
    event, _, rotation, director = night
    rotation_start(rotation=rotation, by=director)
    Rotation.objects.filter(pk=rotation.pk).update(status=Rotation.Status.CLOSED)
    assert "where to sit" not in wall(client, event).content.decode()


def test_the_wall_drops_a_tables_calls_once_its_result_is_in_and_then_the_section(client, night):
    event, _, rotation, director = night
    rotation_start(rotation=rotation, by=director)
    first, second = Game.objects.filter(table__rotation=rotation).order_by("table__number")
    Game.objects.filter(pk=first.pk).update(status=Game.Status.ENTERED)
    text = wall(client, event).content.decode()
    places = re.findall(r'wall-seat-call-place">([^<]+)<', text)
    assert len(places) == 4 and all(p.startswith("table 2,") for p in places)
    Game.objects.filter(pk=second.pk).update(status=Game.Status.CONFIRMED)
    assert "where to sit" not in wall(client, event).content.decode()

"""Seat calls in words (issue 47): where each player goes in a started rotation, with partners
by the name they chose to show, a substitute's seat, a sit-out, and the room's calls in name order."""

import datetime

import pytest

from league.models import Player, Rotation, Seat, SitOut
from league.seat_calls import (
    SeatCall,
    latest_started_rotation,
    player_seat_calls,
    rotation_seat_calls,
)
from league.time_zones import club_today
from tests.factories import EventFactory, PlayerFactory, UserFactory, make_game
from tests.league.factories import running_event

pytestmark = pytest.mark.django_db


def _night(names: list[str]):
    event, _ = running_event(players=0)
    players = [PlayerFactory(club=event.club, name=n) for n in names]
    return event, players


def test_a_seated_player_is_told_table_seat_and_partner_by_their_shown_name():
    event, players = _night(["Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz"])
    Player.objects.filter(pk=players[2].pk).update(name_shown=Player.NameShown.INITIAL)
    make_game(event=event, players=players, rotation_number=3, table_number=4)
    rotation = Rotation.objects.get(event=event, number=3)
    calls = {c.player_id: c for c in rotation_seat_calls(rotation=rotation)}
    assert calls[players[0].pk].words == "Rotation 3: table 4, seat 1, partner Cy P."
    assert calls[players[1].pk].words == "Rotation 3: table 4, seat 2, partner Di Ruiz."
    assert calls[players[2].pk].place == "table 4, seat 3"


def test_a_hidden_name_shows_as_its_number_and_calls_come_in_name_order():
    event, players = _night(["Zoe Young", "Ann Lee", "Max Moor", "Bo Berg"])
    Player.objects.filter(pk=players[2].pk).update(name_shown=Player.NameShown.HIDDEN)
    make_game(event=event, players=players)
    rotation = Rotation.objects.get(event=event, number=1)
    calls = rotation_seat_calls(rotation=rotation)
    hidden = f"Player {players[2].pk}"
    assert [c.name for c in calls] == sorted(["Zoe Young", "Ann Lee", hidden, "Bo Berg"], key=str.casefold)
    assert next(c for c in calls if c.player_id == players[0].pk).partners == (hidden,)
    assert "Max Moor" not in " ".join(c.words for c in calls)


def test_a_sit_out_is_said_and_two_partners_are_joined_with_and():
    event, players = _night(["Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz", "Ed Fox", "Fay Gil", "Gus Ho"])
    make_game(event=event, players=players[:6], sides=2)
    rotation = Rotation.objects.get(event=event, number=1)
    SitOut.objects.create(rotation=rotation, player=players[6])
    calls = {c.player_id: c for c in rotation_seat_calls(rotation=rotation)}
    assert calls[players[6].pk].words == "Rotation 1: you sit out."
    assert calls[players[6].pk].place == "sits out"
    assert calls[players[0].pk].words == "Rotation 1: table 1, seat 1, partners Cy Park and Ed Fox."


def test_a_substitute_is_told_whom_they_play_for_and_their_partner_sees_it():
    event, players = _night(["Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz"])
    sam = PlayerFactory(club=event.club, name="Sam Tay")
    make_game(event=event, players=players)
    Seat.objects.filter(player=players[2]).update(player=sam, substitute_for=players[2])
    rotation = Rotation.objects.get(event=event, number=1)
    calls = {c.player_id: c for c in rotation_seat_calls(rotation=rotation)}
    assert calls[sam.pk].words == "Rotation 1: table 1, seat 3, playing for Cy Park, partner Ann Lee."
    assert calls[players[0].pk].words == "Rotation 1: table 1, seat 1, partner played by Sam Tay for Cy Park."


def test_a_players_own_calls_are_tonights_latest_started_rotation_only():
    user = UserFactory()
    event, players = _night(["Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz"])
    event.date = club_today(event.club)
    event.save(update_fields=["date"])
    Player.objects.filter(pk=players[0].pk).update(user=user)
    make_game(event=event, players=players, rotation_number=1)
    make_game(event=event, players=[players[0], players[2], players[1], players[3]], rotation_number=2)
    assert player_seat_calls(user=user) == []  # both drafts
    Rotation.objects.filter(event=event).update(status=Rotation.Status.STARTED)
    assert latest_started_rotation(event=event).number == 2
    nights = player_seat_calls(user=user)
    assert [c.words for n in nights for c in n.calls] == ["Rotation 2: table 1, seat 1, partner Ben Ode."]
    yesterday = EventFactory(club=event.club, date=event.date - datetime.timedelta(days=1),
                             status="running")
    make_game(event=yesterday, players=players)
    Rotation.objects.filter(event=yesterday).update(status=Rotation.Status.STARTED)
    assert len(player_seat_calls(user=user)) == 1  # only tonight's night


def test_a_member_whose_seat_a_substitute_plays_is_told_so():
    user = UserFactory()
    event, players = _night(["Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz"])
    event.date = club_today(event.club)
    event.save(update_fields=["date"])
    sam = PlayerFactory(club=event.club, name="Sam Tay")
    Player.objects.filter(pk=players[2].pk).update(user=user)
    make_game(event=event, players=players)
    Seat.objects.filter(player=players[2]).update(player=sam, substitute_for=players[2])
    Rotation.objects.filter(event=event).update(status=Rotation.Status.STARTED)
    [night] = player_seat_calls(user=user)
    assert night.calls == (SeatCall(1, players[2].pk, "Cy Park", 1, 3, played_by="Sam Tay"),)
    assert night.calls[0].words == "Rotation 1: Sam Tay plays your seat at table 1, seat 3."

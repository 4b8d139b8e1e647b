"""The database refuses what the services should never write."""

import pytest
from django.db import IntegrityError, transaction

from league.models import Game, Partnership, Registration, Rotation, Seat, SitOut, Table
from tests.factories import EventFactory, PlayerFactory, RotationFactory, make_game

pytestmark = pytest.mark.django_db


def _refused(create):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_a_player_cannot_be_seated_twice_in_one_rotation():
    game = make_game()
    rotation = game.table.rotation
    other_table = Table.objects.create(rotation=rotation, number=2)
    player = game.table.seats.first().player
    _refused(lambda: Seat.objects.create(rotation=rotation, table=other_table, player=player, seat_number=0, side=0))


def test_seat_numbers_are_unique_per_table():
    game = make_game()
    _refused(lambda: Seat.objects.create(
        rotation=game.table.rotation, table=game.table, player=PlayerFactory(), seat_number=0, side=0
    ))


def test_one_game_per_table():
    game = make_game()
    _refused(lambda: Game.objects.create(table=game.table, first_dealer=0))


def test_rotation_numbers_are_unique_per_event_and_positive():
    rotation = RotationFactory(number=1)
    _refused(lambda: Rotation.objects.create(event=rotation.event, number=1))
    _refused(lambda: Rotation.objects.create(event=rotation.event, number=0))


def test_table_numbers_are_unique_and_positive():
    rotation = RotationFactory()
    Table.objects.create(rotation=rotation, number=1)
    _refused(lambda: Table.objects.create(rotation=rotation, number=1))
    _refused(lambda: Table.objects.create(rotation=rotation, number=0))


def test_a_player_sits_out_once_per_rotation():
    rotation = RotationFactory()
    player = PlayerFactory()
    SitOut.objects.create(rotation=rotation, player=player)
    _refused(lambda: SitOut.objects.create(rotation=rotation, player=player))


def test_registration_is_a_player_or_a_partnership_never_both_nor_none():
    event = EventFactory()
    a, b = sorted((PlayerFactory(club=event.club), PlayerFactory(club=event.club)), key=lambda p: p.pk)
    pair = Partnership.objects.create(club=event.club, player_a=a, player_b=b)
    _refused(lambda: Registration.objects.create(event=event))
    _refused(lambda: Registration.objects.create(event=event, player=a, partnership=pair))


def test_a_player_registers_once_per_event():
    event = EventFactory()
    player = PlayerFactory(club=event.club)
    Registration.objects.create(event=event, player=player)
    _refused(lambda: Registration.objects.create(event=event, player=player))


def test_partnership_pairs_are_ordered_and_unique():
    a, b = sorted((PlayerFactory(), PlayerFactory()), key=lambda p: p.pk)
    Partnership.objects.create(club=a.club, player_a=a, player_b=b)
    _refused(lambda: Partnership.objects.create(club=a.club, player_a=b, player_b=a))
    _refused(lambda: Partnership.objects.create(club=a.club, player_a=a, player_b=b))


@pytest.mark.parametrize(
    "fields", [{"status": "paused"}, {"format": "knockout"}, {"planned_rotations": 0}]
)
def test_event_refuses_unknown_status_format_and_zero_rotations(fields):
    _refused(lambda: EventFactory(**fields))


def test_game_and_rotation_status_must_be_known():
    game = make_game()
    _refused(lambda: Game.objects.filter(pk=game.pk).update(status="lost"))
    _refused(lambda: Rotation.objects.filter(pk=game.table.rotation_id).update(status="paused"))

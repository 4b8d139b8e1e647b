"""A queryset compiled once gives, for other values, what the queryset itself gives."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.compiled_query import CompiledQuery
from league.models import Player, Seat
from tests.factories import ClubFactory, PlayerFactory, make_game

pytestmark = pytest.mark.django_db

SEATS = CompiledQuery(lambda table_id: Seat.objects.filter(table_id=table_id)
                      .select_related("player__club").order_by("seat_number"), table_id=int)


def test_each_run_gives_what_the_queryset_gives_for_its_values():
    first, second = make_game(), make_game()
    for game in (first, second, first):
        expected = list(Seat.objects.filter(table_id=game.table_id).select_related("player__club")
                        .order_by("seat_number"))
        got = SEATS.run(table_id=game.table_id)
        assert [(s.pk, s.player.name, s.player.club.slug) for s in got] == [
            (s.pk, s.player.name, s.player.club.slug) for s in expected]


def test_related_objects_come_along_in_the_one_query():
    game = make_game()
    SEATS.run(table_id=game.table_id)  # compiled
    with CaptureQueriesContext(connection) as queries:
        names = [seat.player.club.name for seat in SEATS.run(table_id=game.table_id)]
    assert len(names) == 4
    assert len(queries) == 1


def test_an_unknown_value_gives_no_rows():
    assert SEATS.run(table_id=10**9) == []


def test_text_values_go_where_the_queryset_put_them():
    club = ClubFactory(slug="north")
    PlayerFactory(club=club, name="Ann")
    PlayerFactory(club=ClubFactory(slug="south"), name="Ann")
    by_name = CompiledQuery(lambda club, name: Player.objects.filter(club__slug=club, name=name)
                            .select_related("club"), club=str, name=str)
    assert [p.club.slug for p in by_name.run(club="north", name="Ann")] == ["north"]
    assert [p.club.slug for p in by_name.run(club="south", name="Ann")] == ["south"]
    assert by_name.run(club="north", name="Bea") == []


def test_values_of_another_type_or_name_are_refused():
    with pytest.raises(TypeError, match="table_id must be int"):
        SEATS.run(table_id="7")
    with pytest.raises(TypeError, match="takes"):
        SEATS.run(table=7)


def test_a_value_the_queryset_does_not_use_is_refused_when_compiled():
    unused = CompiledQuery(lambda club, name: Player.objects.filter(club__slug=club), club=str,
                           name=str)
    with pytest.raises(ValueError, match="name"):
        unused.run(club="north", name="Ann")


def test_values_lists_come_back_as_tuples():
    game = make_game()
    numbers = CompiledQuery(lambda table_id: Seat.objects.filter(table_id=table_id)
                            .order_by("seat_number").values_list("seat_number", "player__name"),
                            table_id=int)
    expected = list(Seat.objects.filter(table_id=game.table_id).order_by("seat_number")
                    .values_list("seat_number", "player__name"))
    assert numbers.run(table_id=game.table_id) == expected
    assert [n for n, _ in expected] == [0, 1, 2, 3]


def test_a_value_no_column_can_hold_matches_nothing():
    make_game()
    assert SEATS.run(table_id=2**80) == []
    assert SEATS.run(table_id=-(2**80)) == []

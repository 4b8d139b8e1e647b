"""Rotation services: generate from the seating generator, edit a draft, start and close."""

import pytest

from core.errors import DomainError
from games.models import RoundResult
from league import selectors, services
from league.models import Game, Rotation, Seat, SitOut, Table
from league.seating import RotationPlan, TablePlan
from tests.factories import EventFactory, PlayerFactory, RotationFactory
from tests.league.factories import (
    checked_in_partnerships,
    checked_in_players,
    confirm_all_games,
    running_event,
)

pytestmark = pytest.mark.django_db


def _seating(rotation: Rotation) -> list[tuple[int, int, int, int]]:
    return list(
        Seat.objects.filter(rotation=rotation)
        .order_by("table__number", "seat_number")
        .values_list("table__number", "seat_number", "side", "player_id")
    )


def test_generate_seats_every_checked_in_player_once_with_a_game_per_table():
    event, players = running_event(8)

    rotation = services.rotation_generate(event=event)

    assert (rotation.number, rotation.status) == (1, "draft")
    seated = [seat[3] for seat in _seating(rotation)]
    assert sorted(seated) == sorted(p.pk for p in players)
    assert Table.objects.filter(rotation=rotation).count() == 2
    assert Game.objects.filter(table__rotation=rotation).count() == 2
    for game in Game.objects.filter(table__rotation=rotation):
        assert 0 <= game.first_dealer < 4


def test_partners_sit_opposite_each_other():
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event)
    for table_number, seat_number, side, _player in _seating(rotation):
        assert side == seat_number % 2, (table_number, seat_number)


def test_players_not_checked_in_or_withdrawn_are_not_seated():
    event, players = running_event(8)
    absent = checked_in_players(event, 1)[0]
    absent.registrations.update(checked_in=False)

    rotation = services.rotation_generate(event=event)

    assert absent.pk not in {s[3] for s in _seating(rotation)}


def test_an_odd_player_sits_out():
    event, players = running_event(9)
    rotation = services.rotation_generate(event=event)
    assert SitOut.objects.filter(rotation=rotation).count() == 1
    assert len(_seating(rotation)) == 8


def test_seating_is_reproducible_from_the_event_seed():
    event, _ = running_event(12)
    first = _seating(services.rotation_generate(event=event))
    services.rotation_delete(rotation=event.rotations.get())

    again = _seating(services.rotation_generate(event=event))

    assert first == again


def test_the_next_rotation_needs_the_previous_one_closed():
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event)

    with pytest.raises(DomainError, match="Rotation 1 is draft"):
        services.rotation_generate(event=event)
    services.rotation_start(rotation=rotation)
    with pytest.raises(DomainError, match="Rotation 1 is started"):
        services.rotation_generate(event=event)
    confirm_all_games(rotation)
    services.rotation_close(rotation=rotation)

    assert services.rotation_generate(event=event).number == 2


def test_generate_refuses_beyond_the_planned_rotations():
    event, _ = running_event(8)
    event.planned_rotations = 1
    event.save()
    rotation = services.rotation_generate(event=event)
    services.rotation_start(rotation=rotation)
    confirm_all_games(rotation)
    services.rotation_close(rotation=rotation)

    with pytest.raises(DomainError, match="planned rotations"):
        services.rotation_generate(event=event)
    assert event.rotations.count() == 1


def test_generate_refuses_too_few_players_and_changes_nothing():
    event, _ = running_event(3)
    with pytest.raises(DomainError) as error:
        services.rotation_generate(event=event)
    assert error.value.code == "BAD_SEATING"
    assert not event.rotations.exists()


@pytest.mark.parametrize("status", ["draft", "finished"])
def test_generate_refuses_events_not_open(status):
    event, _ = running_event(8)
    event.status = status
    event.save()
    with pytest.raises(DomainError, match="Rotations are generated"):
        services.rotation_generate(event=event)


def test_fixed_partnerships_sit_together_as_sides():
    event = EventFactory(status="running", format="round_robin", planned_rotations=3)
    pairs = checked_in_partnerships(event, 4)

    rotation = services.rotation_generate(event=event)

    sides = {}
    for table, _seat, side, player in _seating(rotation):
        sides.setdefault((table, side), set()).add(player)
    assert sorted(map(frozenset, sides.values()), key=sorted) == sorted(
        (frozenset({p.player_a_id, p.player_b_id}) for p in pairs), key=sorted
    )


def test_points_fed_to_the_generator_are_each_players_side_total():
    event, players = running_event(8)
    rotation = services.rotation_generate(event=event)
    game = Game.objects.filter(table__rotation=rotation).order_by("table__number").first()
    for round_number, score in ((1, 300), (2, -50)):
        RoundResult.objects.create(game=game, round_number=round_number, side=0, score=score, ended_by="went_out")
        RoundResult.objects.create(game=game, round_number=round_number, side=1, score=10, ended_by="went_out")

    points = selectors.rotation_points(rotation=rotation)

    for seat in game.table.seats.all():
        assert points[seat.player_id] == (250 if seat.side == 0 else 20)


# Editing a draft ---------------------------------------------------------------------------------


def test_swap_exchanges_two_players_places():
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event)
    before = _seating(rotation)
    a, b = before[0][3], before[5][3]

    services.rotation_swap_players(rotation=rotation, player_a=_player(a), player_b=_player(b))

    after = _seating(rotation)
    assert after[0][:3] == before[0][:3] and after[0][3] == b
    assert after[5][3] == a


def test_swap_with_a_sitting_out_player():
    event, _ = running_event(9)
    rotation = services.rotation_generate(event=event)
    out = SitOut.objects.get(rotation=rotation).player
    seated = _player(_seating(rotation)[0][3])

    services.rotation_swap_players(rotation=rotation, player_a=out, player_b=seated)

    assert SitOut.objects.get(rotation=rotation).player == seated


def _player(pk):
    from league.models import Player

    return Player.objects.get(pk=pk)


def test_swap_refuses_a_player_not_in_the_rotation_and_changes_nothing():
    event, players = running_event(8)
    rotation = services.rotation_generate(event=event)
    before = _seating(rotation)

    with pytest.raises(DomainError, match="not in rotation 1"):
        services.rotation_swap_players(rotation=rotation, player_a=players[0], player_b=PlayerFactory(club=event.club))
    with pytest.raises(DomainError, match="two different"):
        services.rotation_swap_players(rotation=rotation, player_a=players[0], player_b=players[0])

    assert _seating(rotation) == before


def test_swap_refused_once_the_rotation_started():
    event, players = running_event(8)
    rotation = services.rotation_start(rotation=services.rotation_generate(event=event))
    with pytest.raises(DomainError, match="only a draft rotation"):
        services.rotation_swap_players(rotation=rotation, player_a=players[0], player_b=players[1])


def test_swapping_one_partner_away_is_refused_in_fixed_partnerships():
    event = EventFactory(status="running", format="round_robin")
    checked_in_partnerships(event, 4)
    rotation = services.rotation_generate(event=event)
    seating = _seating(rotation)
    # seat 0 and seat 1 of table 1 are opponents: swapping them splits both pairs.
    with pytest.raises(DomainError, match="partners must sit together"):
        services.rotation_swap_players(rotation=rotation, player_a=_player(seating[0][3]), player_b=_player(seating[1][3]))
    assert _seating(rotation) == seating


def _plan(rotation):
    return selectors.rotation_as_plan(rotation=rotation)


def test_update_seating_refuses_a_player_seated_twice():
    event, players = running_event(8)
    rotation = services.rotation_generate(event=event)
    plan = _plan(rotation)
    t = plan.tables[0]
    twice = TablePlan(seats=(t.seats[0], t.seats[0], t.seats[2], t.seats[3]),
                      sides=((t.seats[0], t.seats[2]), (t.seats[0], t.seats[3])), first_dealer=t.seats[0])
    with pytest.raises(DomainError, match="more than once"):
        services.rotation_update_seating(rotation=rotation, plan=RotationPlan((twice, plan.tables[1])))


def test_update_seating_refuses_an_incomplete_table():
    event, players = running_event(8)
    rotation = services.rotation_generate(event=event)
    plan = _plan(rotation)
    t = plan.tables[0]
    short = TablePlan(seats=t.seats[:3], sides=(t.seats[:3:2], t.seats[1:2]), first_dealer=t.seats[0])
    with pytest.raises(DomainError, match="incomplete"):
        services.rotation_update_seating(
            rotation=rotation, plan=RotationPlan((short, plan.tables[1]), sit_out=(t.seats[3],))
        )


def test_update_seating_refuses_unregistered_players():
    event, players = running_event(8)
    rotation = services.rotation_generate(event=event)
    plan = _plan(rotation)
    stranger = PlayerFactory(club=event.club)
    with pytest.raises(DomainError, match="Not entered"):
        services.rotation_update_seating(rotation=rotation, plan=RotationPlan(plan.tables, sit_out=(stranger.pk,)))


def test_update_seating_accepts_a_valid_plan_and_moves_the_first_dealer():
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event)
    plan = _plan(rotation)
    t = plan.tables[0]
    moved = TablePlan(seats=t.seats, sides=t.sides, first_dealer=t.seats[2])

    services.rotation_update_seating(rotation=rotation, plan=RotationPlan((moved, plan.tables[1])))

    assert Game.objects.get(table__rotation=rotation, table__number=1).first_dealer == 2


# Start and close ---------------------------------------------------------------------------------


def test_start_needs_a_running_event():
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event)
    event.status = "registration"
    event.save()
    with pytest.raises(DomainError, match="running"):
        services.rotation_start(rotation=rotation)
    assert Rotation.objects.get(pk=rotation.pk).status == "draft"


def test_close_refuses_while_results_are_missing_and_lists_the_tables():
    event, _ = running_event(8)
    rotation = services.rotation_start(rotation=services.rotation_generate(event=event))
    Game.objects.filter(table__rotation=rotation, table__number=1).update(status="confirmed")
    Game.objects.filter(table__rotation=rotation, table__number=2).update(status="disputed")

    with pytest.raises(DomainError, match=r"table\(s\) 2\."):
        services.rotation_close(rotation=rotation)
    assert Rotation.objects.get(pk=rotation.pk).status == "started"


def test_close_refuses_a_draft_rotation():
    rotation = RotationFactory(event=EventFactory(status="running"), number=1)
    with pytest.raises(DomainError, match="only a started rotation"):
        services.rotation_close(rotation=rotation)


def test_delete_refuses_a_started_rotation():
    event, _ = running_event(8)
    rotation = services.rotation_start(rotation=services.rotation_generate(event=event))
    with pytest.raises(DomainError, match="only a draft"):
        services.rotation_delete(rotation=rotation)
    assert Rotation.objects.filter(pk=rotation.pk).exists()


def test_withdrawn_player_is_not_seated_in_later_rotations_and_late_arrival_is():
    event, players = running_event(8)
    first = services.rotation_start(rotation=services.rotation_generate(event=event))
    services.registration_withdraw(registration=players[0].registrations.get())
    late = services.registration_add(event=event, player=PlayerFactory(club=event.club))
    confirm_all_games(first)
    services.rotation_close(rotation=first)

    second = services.rotation_generate(event=event)

    seated = {s[3] for s in _seating(second)}
    assert players[0].pk not in seated and late.player_id in seated


def test_withdrawal_refused_while_seated_in_a_draft_rotation():
    event, players = running_event(8)
    services.rotation_generate(event=event)
    with pytest.raises(DomainError, match="seated in rotation 1"):
        services.registration_withdraw(registration=players[0].registrations.get())


def test_start_refuses_a_draft_missing_a_late_arrival_naming_them():
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event)
    late = services.registration_add(event=event, player=PlayerFactory(club=event.club, name="Lara Late"))
    assert late.joins_at_rotation == 1

    with pytest.raises(DomainError, match="Not placed in this rotation: Lara Late"):
        services.rotation_start(rotation=rotation)

    services.rotation_delete(rotation=rotation)
    plan = selectors.rotation_as_plan(rotation=services.rotation_generate(event=event))
    assert late.player_id in {p for t in plan.tables for p in t.seats} | set(plan.sit_out)


@pytest.mark.parametrize("format", ["swiss", "progressive", "round_robin"])
def test_fixed_formats_seat_a_second_rotation_from_results(format):
    event = EventFactory(status="running", format=format, planned_rotations=3)
    checked_in_partnerships(event, 8)
    first = services.rotation_start(rotation=services.rotation_generate(event=event))
    for game in Game.objects.filter(table__rotation=first):
        RoundResult.objects.create(game=game, round_number=1, side=0, score=500 + game.pk, ended_by="went_out")
        RoundResult.objects.create(game=game, round_number=1, side=1, score=100, ended_by="went_out")
    confirm_all_games(first)
    services.rotation_close(rotation=first)

    second = services.rotation_generate(event=event)

    assert second.number == 2
    assert Seat.objects.filter(rotation=second).count() == 16


def test_reinstated_player_is_seated_again_in_the_next_rotation():
    event, players = running_event(8)
    registration = players[0].registrations.get()
    services.registration_withdraw(registration=registration)

    services.registration_reinstate(registration=registration)
    rotation = services.rotation_generate(event=event)

    assert players[0].pk in {s[3] for s in _seating(rotation)}
    with pytest.raises(DomainError, match="has not withdrawn"):
        services.registration_reinstate(registration=registration)


def test_set_first_dealer_at_one_table():
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event)
    table_two = _plan(rotation).tables[1]
    new_dealer = next(p for p in table_two.seats if p != table_two.first_dealer)

    services.rotation_set_first_dealer(rotation=rotation, table_number=2, player=_player(new_dealer))

    assert _plan(rotation).tables[1].first_dealer == new_dealer


def test_set_first_dealer_refuses_someone_from_another_table_or_a_missing_table():
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event)
    plan = _plan(rotation)
    with pytest.raises(DomainError, match="does not sit at table 2"):
        services.rotation_set_first_dealer(rotation=rotation, table_number=2, player=_player(plan.tables[0].seats[0]))
    with pytest.raises(DomainError, match="no table 3"):
        services.rotation_set_first_dealer(rotation=rotation, table_number=3, player=_player(plan.tables[0].seats[0]))
    assert _plan(rotation) == plan


def test_editing_a_draft_keeps_the_tables_games():
    event, players = running_event(8)
    rotation = services.rotation_generate(event=event)
    codes = list(Game.objects.filter(table__rotation=rotation).order_by("table__number").values_list("pk", flat=True))
    seating = _seating(rotation)

    services.rotation_swap_players(rotation=rotation, player_a=_player(seating[0][3]), player_b=_player(seating[4][3]))

    assert list(Game.objects.filter(table__rotation=rotation).order_by("table__number").values_list("pk", flat=True)) == codes


def test_update_seating_to_fewer_tables_removes_the_extra_table():
    event, players = running_event(8)
    rotation = services.rotation_generate(event=event)
    plan = _plan(rotation)
    event.registrations.filter(player__in=plan.tables[1].seats).update(checked_in=False)

    services.rotation_update_seating(rotation=rotation, plan=RotationPlan(plan.tables[:1]))

    assert list(rotation.tables.values_list("number", flat=True)) == [1]
    assert Game.objects.filter(table__rotation=rotation).count() == 1


def _season_nights(aware: bool):
    """Two nights of one season with the same ten players; night 1's first rotation started."""
    import datetime

    from league.models import Registration
    from tests.factories import SeasonFactory

    first, players = running_event(10, date=datetime.date(2026, 3, 3))
    season = SeasonFactory(league__club=first.club, season_aware_seating=aware)
    first.season = season
    first.save()
    played = services.rotation_start(rotation=services.rotation_generate(event=first))
    second = EventFactory(club=first.club, season=season, date=datetime.date(2026, 3, 10),
                          status="running", planned_rotations=3)
    for player in players:
        Registration.objects.create(event=second, player=player, checked_in=True)
    return first, played, second


def _partners(rotation: Rotation) -> set[frozenset]:
    plan = selectors.rotation_as_plan(rotation=rotation)
    return {frozenset(side) for table in plan.tables for side in table.sides}


def test_a_season_night_is_seated_against_the_earlier_nights():
    _first, played, second = _season_nights(aware=True)
    assert selectors.season_earlier_nights(event=second) == (
        (selectors.rotation_as_plan(rotation=played),),
    )
    assert selectors.season_earlier_nights(event=_first) == ()
    rotation = services.rotation_generate(event=second)
    assert _partners(rotation).isdisjoint(_partners(played))


def test_the_season_setting_turns_season_aware_seating_off():
    _first, played, second = _season_nights(aware=False)
    assert selectors.season_earlier_nights(event=second) == ()
    rotation = services.rotation_generate(event=second)
    assert _partners(rotation) == _partners(played)  # same players, same seed: same night

"""The sit-out rule chosen per event: fewest sit-outs first (arriving late is not a sit-out;
among equals the latest arrival sits out), latecomers first, or in turn by entry order. The
17-player night: a latecomer joining 16 players sits out rotation 2, not someone there from the
start."""

from dataclasses import replace

import pytest

from league import selectors, services
from league.models import AuditEntry, Event, Registration
from league.seating import SeatingError, SeatingRequest, plan_rotations
from tests.factories import PlayerFactory
from tests.league.factories import confirm_all_games, running_event


def _night(rule: str, seed: int = 5) -> tuple[list, tuple[int, ...]]:
    """16 players play rotation 1; player 17 arrives; the rest of a 4-rotation night."""
    base = SeatingRequest("rotating", tuple(range(1, 17)), rotations=4, seed=seed, sit_out_rule=rule)
    first = plan_rotations(base)[:1]
    now = tuple(range(1, 18))
    return plan_rotations(replace(base, players=now, played=tuple(first))), now


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_fewest_sit_outs_sits_the_latecomer_out_first_then_others_in_turn(seed):
    rest, _ = _night("fewest", seed)
    outs = [plan.sit_out for plan in rest]
    assert outs[0] == (17,)
    assert 17 not in {p for sit in outs[1:] for p in sit}
    assert len({p for sit in outs for p in sit}) == 3


def test_latecomers_first_keeps_the_latecomer_out_while_there_is_one():
    rest, _ = _night("latecomers")
    assert [plan.sit_out for plan in rest] == [(17,), (17,), (17,)]


def test_seat_order_sits_out_in_the_order_entered():
    request = SeatingRequest("rotating", (5, 3, 9, 1, 7), rotations=5, seed=1, sit_out_rule="seat_order")
    assert [plan.sit_out for plan in plan_rotations(request)] == [(5,), (3,), (9,), (1,), (7,)]


def test_an_unknown_rule_is_refused_in_words():
    with pytest.raises(SeatingError, match="Unknown sit-out rule 'random'"):
        plan_rotations(SeatingRequest("rotating", tuple(range(1, 6)), sit_out_rule="random"))


@pytest.mark.django_db
def test_seventeen_players_the_latecomer_sits_out_rotation_two_and_the_draft_says_why():
    event, players = running_event(16)
    first = services.rotation_generate(event=event)
    services.rotation_start(rotation=first)
    confirm_all_games(first)
    services.rotation_close(rotation=first)
    late = PlayerFactory(club=event.club, name="Lou Late")
    services.registration_add(event=event, player=late)
    second = services.rotation_generate(event=event)
    assert list(second.sit_outs.values_list("player", flat=True)) == [late.pk]
    reasons = selectors.sit_out_reasons(rotation=second)
    assert reasons["rule"] == "Fewest sit-outs so far sit out first"
    assert reasons["lines"] == ["Lou Late: sat out 0 times before; arrived late (missed 1 rotation)"]
    assert "Arriving late is not a sit-out" in reasons["help"]
    line = AuditEntry.objects.filter(event=event, action="rotation_generate").order_by("pk").last()
    assert line.summary.endswith("Sitting out: Lou Late.")


@pytest.mark.django_db
def test_the_rule_is_an_event_setting_refused_when_unknown():
    event, _ = running_event(5)
    services.event_update(event=event, sit_out_rule=Event.SitOutRule.SEAT_ORDER)
    assert Event.objects.get(pk=event.pk).sit_out_rule == "seat_order"
    with pytest.raises(Exception, match="Sit out rule must be one of"):
        services.event_update(event=event, sit_out_rule="random")
    rotation = services.rotation_generate(event=event)
    first_entered = Registration.objects.filter(event=event).order_by("pk").first().player_id
    assert list(rotation.sit_outs.values_list("player", flat=True)) == [first_entered]

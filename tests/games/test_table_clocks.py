"""Issue 47: a director gives one table more minutes for the round it plays (1-60, kept per
table and round, said in History); the table's page shows its clock and the extra time."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import Conflict, Invalid
from games.services.table_clocks import table_extra_time_grant
from league.models import AuditEntry, Event, Rotation, TableExtraTime
from tests.factories import UserFactory
from tests.games.factories import named_game, side_link
from tests.games.test_round_times import enter_round, started

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game = named_game(rotation_number=3, table_number=4)
    event = game.table.rotation.event
    event.round_minutes = 30
    event.save()
    return game


def test_extra_time_goes_to_the_round_being_played_and_is_said_in_history(client, game):
    director = UserFactory(username="dora")
    started(game, 40)
    enter_round(client, game, 0, 1, 20, "a1")
    grant = table_extra_time_grant(table=game.table, minutes=5, by=director)
    assert (grant.round_number, grant.minutes, grant.granted_by) == (2, 5, director)
    table_extra_time_grant(table=game.table, minutes=1, by=director)
    entry = AuditEntry.objects.filter(event=game.table.rotation.event).order_by("pk").last()
    assert entry.summary == "Gave table 4 (rotation 3) 1 more minute for round 2."
    assert entry.user == director and entry.action == "table_extra_time"
    first = AuditEntry.objects.get(action="table_extra_time", data__extra_time_id=grant.pk)
    assert first.summary == "Gave table 4 (rotation 3) 5 more minutes for round 2."


@pytest.mark.parametrize("minutes", [0, 61, -5, True, "5", 2.5])
def test_minutes_out_of_range_are_refused_and_change_nothing(game, minutes):
    started(game, 10)
    with pytest.raises(Invalid) as refused:
        table_extra_time_grant(table=game.table, minutes=minutes, by=None)
    assert refused.value.message == "Give from 1 to 60 more minutes."
    assert not TableExtraTime.objects.exists() and not AuditEntry.objects.filter(action="table_extra_time").exists()


def test_a_finished_table_is_refused(client, game):
    started(game, 100)
    for number in range(1, 5):
        enter_round(client, game, 0, number, 100 - 20 * number, f"a{number}")
    with pytest.raises(Conflict) as refused:
        table_extra_time_grant(table=game.table, minutes=5, by=None)
    assert refused.value.message == ("Table 4 of rotation 3 has finished its game: there is no "
                                     "round to give more time to.")
    assert not TableExtraTime.objects.exists()


def test_a_rotation_not_started_or_a_finished_event_is_refused(game):
    with pytest.raises(Conflict) as refused:
        table_extra_time_grant(table=game.table, minutes=5, by=None)
    assert "Table 4 of rotation 3 is not being played" in refused.value.message
    started(game, 10)
    Event.objects.filter(pk=game.table.rotation.event_id).update(status=Event.Status.FINISHED)
    with pytest.raises(Conflict, match="is finished: reopen the event first"):
        table_extra_time_grant(table=game.table, minutes=5, by=None)
    assert not TableExtraTime.objects.exists()


def test_the_table_page_shows_the_clock_and_the_extra_time(client, game):
    started(game, 12)
    page = client.get(f"/play/{side_link(game, 0)}/").text
    assert 'role="timer"' in page and "Round 1: 18 minutes left" in page
    assert "more minutes given" not in page
    table_extra_time_grant(table=game.table, minutes=5, by=None)
    page = client.get(f"/play/{side_link(game, 0)}/").text
    assert "Round 1: 23 minutes left" in page
    assert "5 more minutes given by the director." in page


def test_the_table_page_says_how_far_over_and_nothing_without_a_round_time(client, game):
    started(game, 34)
    assert "Round 1: 4 minutes over" in client.get(f"/play/{side_link(game, 0)}/").text
    Event.objects.filter(pk=game.table.rotation.event_id).update(round_minutes=None)
    assert 'role="timer"' not in client.get(f"/play/{side_link(game, 0)}/").text


def test_a_draft_rotation_has_no_clock(client, game):
    Rotation.objects.filter(pk=game.table.rotation_id).update(
        status=Rotation.Status.DRAFT, started_at=timezone.now() - timedelta(minutes=5))
    assert 'role="timer"' not in client.get(f"/play/{side_link(game, 0)}/").text


def test_extra_time_is_undone_from_history_while_the_rotation_is_played(game):
    from league.services.undo import audit_undo, audit_undoable

    started(game, 10)
    grant = table_extra_time_grant(table=game.table, minutes=5, by=None)
    entry = AuditEntry.objects.get(action="table_extra_time")
    assert audit_undoable(entry=entry)
    audit_undo(entry=entry, by=None)
    assert not TableExtraTime.objects.filter(pk=grant.pk).exists()
    assert AuditEntry.objects.get(action="table_extra_time_undo").summary == (
        "Took back the 5 more minutes given to table 4 (rotation 3) for round 1.")
    table_extra_time_grant(table=game.table, minutes=3, by=None)
    later = AuditEntry.objects.filter(action="table_extra_time").latest("pk")
    Rotation.objects.filter(pk=game.table.rotation_id).update(status=Rotation.Status.CLOSED)
    assert not audit_undoable(entry=later)

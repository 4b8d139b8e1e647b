"""Issue 47: a table's rounds in time, read from when each round's first entry arrived (the
clocks, slow tables and forecast start from these)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Submission
from games.selectors.round_times import club_past_round_times, event_round_times
from league.models import Rotation, TableExtraTime
from tests.games.factories import named_game, running_event
from tests.games.test_table_entry import sheet_post, url

pytestmark = pytest.mark.django_db


def started(game, minutes_ago: int):
    rotation = game.table.rotation
    rotation.status = Rotation.Status.STARTED
    rotation.started_at = timezone.now() - timedelta(minutes=minutes_ago)
    rotation.save()
    return rotation.started_at


def enter_round(client, game, side: int, number: int, minutes_ago: int, key: str):
    response = client.post(url(game, side, "sheet/"), sheet_post(number, key=key))
    assert response.status_code == 302, response.content.decode()[-2000:]
    Submission.objects.filter(idempotency_key__endswith=key).update(
        created_at=timezone.now() - timedelta(minutes=minutes_ago))


def test_each_round_ends_when_its_first_entry_arrives_and_the_next_begins_then(client):
    game = named_game()
    start = started(game, 90)
    enter_round(client, game, 0, 1, 60, "a1")
    enter_round(client, game, 1, 1, 55, "b1")  # the other side's later copy moves nothing
    enter_round(client, game, 0, 2, 35, "a2")
    [table] = event_round_times(event=game.table.rotation.event)
    assert table.started_at == start and table.rounds == 4 and table.players == 4
    assert [round(d.total_seconds() / 60) for d in table.durations()] == [30, 25]
    assert table.current_round == 3 and not table.finished
    assert table.round_began(3) == table.ends[1]


def test_a_withdrawn_entry_does_not_count_and_a_draft_rotation_is_left_out(client):
    game = named_game()
    started(game, 50)
    enter_round(client, game, 0, 1, 20, "a1")
    Submission.objects.filter(game=game).update(withdrawn_at=timezone.now())
    named_game(event=game.table.rotation.event, slugs=("p", "q", "r", "s"), rotation_number=2)
    [table] = event_round_times(event=game.table.rotation.event)
    assert table.ends == () and table.current_round == 1


def test_the_last_round_entered_finishes_the_table_and_extra_time_adds_up(client):
    game = named_game()
    started(game, 100)
    for number in range(1, 5):
        enter_round(client, game, 0, number, 100 - 20 * number, f"a{number}")
    TableExtraTime.objects.create(table=game.table, round_number=4, minutes=5)
    TableExtraTime.objects.create(table=game.table, round_number=4, minutes=3)
    [table] = event_round_times(event=game.table.rotation.event)
    assert table.finished and table.done_at == table.ends[3] and table.current_round is None
    assert table.extra_minutes == {4: 8}


def test_the_club_past_is_its_earlier_nights_only(client):
    tonight = running_event()
    earlier = running_event(club=tonight.club, date=tonight.date - timedelta(days=7))
    other_club = running_event(date=tonight.date - timedelta(days=7))
    for event, slugs in ((tonight, "abcd"), (earlier, "efgh"), (other_club, "ijkl")):
        started(named_game(event=event, slugs=tuple(slugs)), 30)
    past = club_past_round_times(club=tonight.club, before=tonight)
    assert [t.table_id for t in past] == [earlier.rotations.get().tables.get().pk]

"""Issue 47: a rotation's tables ordered by how late they run, against the clock and the room,
with hand-computed minutes."""

from datetime import UTC, datetime, timedelta

from league.pace.lateness import room_average_minutes, rotation_lateness
from league.pace.rounds import TableRounds

START = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


def table(number: int, *ends_after: int, rotation: int = 3, done: bool = False,
          extra: dict[int, int] | None = None, start_after: int = 0) -> TableRounds:
    started = START + timedelta(minutes=start_after)
    ends = tuple(started + timedelta(minutes=m) for m in ends_after)
    return TableRounds(table_id=number * 10 + rotation, rotation_number=rotation, table_number=number,
                       players=4, preset="classic", rounds=4, started_at=started, ends=ends,
                       done_at=ends[-1] if done else None, extra_minutes=extra or {})


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def test_the_room_averages_every_round_finished_tonight():
    # rounds of 20 and 30 at table 1, 25 at table 2: (20 + 30 + 25) / 3 = 25
    assert room_average_minutes([table(1, 20, 50), table(2, 25)]) == 25
    assert room_average_minutes([table(1)]) is None


def tonight(extra: dict[int, int] | None = None) -> list[TableRounds]:
    """Rotation 3 started at 0; every round finished so far took 27 minutes. At minute 92:
    table 1 has played round 2 for 65 minutes, table 4 round 3 for 38, table 2 round 4 for 11."""
    return [table(1, 27), table(2, 27, 54, 81), table(4, 27, 54, extra=extra)]


def test_tables_are_ordered_latest_first_with_words_against_the_room():
    rows = rotation_lateness(tonight(), rotation_number=3, round_minutes=None, now=at(92))
    assert [r.table_number for r in rows] == [1, 4, 2]
    assert [r.late_by for r in rows] == [38, 11, -16]  # minutes past the room's 27
    assert rows[1].words == "Table 4: round 3 began 38 minutes ago; the room averages 27."
    assert rows[0].words == "Table 1: round 2 began 65 minutes ago; the room averages 27."


def test_slow_means_half_as_long_again_as_the_room_and_ten_minutes_more():
    rows = {r.table_number: r for r in
            rotation_lateness(tonight(), rotation_number=3, round_minutes=None, now=at(92))}
    assert rows[1].slow  # 65 >= 40.5 and 65 - 27 >= 10
    assert not rows[4].slow  # 38 < 40.5
    assert not rows[2].slow
    # a room averaging 8 minutes: 13 minutes is 1.6 times as long but only 5 minutes more
    quick = [table(1, 8), table(2, 8, 16)]
    rows = {r.table_number: r for r in
            rotation_lateness(quick, rotation_number=3, round_minutes=None, now=at(21))}
    assert rows[1].minutes_in_round == 13 and not rows[1].slow


def test_a_table_past_its_clock_is_slow_and_says_how_far_over():
    rows = {r.table_number: r for r in
            rotation_lateness(tonight(), rotation_number=3, round_minutes=30, now=at(92))}
    assert rows[4].slow and rows[4].late_by == 11  # 8 past the clock, 11 past the room
    assert rows[4].words == ("Table 4: round 3 began 38 minutes ago; the room averages 27; "
                             "8 minutes over.")
    assert not rows[2].slow and rows[2].clock is not None and rows[2].clock.minutes_left == 19


def test_extra_time_keeps_a_table_inside_its_clock():
    rows = {r.table_number: r for r in rotation_lateness(
        tonight(extra={3: 10}), rotation_number=3, round_minutes=30, now=at(92))}
    assert not rows[4].slow and rows[4].clock is not None
    assert rows[4].clock.words == "Round 3: 2 minutes left"


def test_before_any_round_is_finished_the_longest_round_comes_first():
    rows = rotation_lateness([table(1), table(2)], rotation_number=3, round_minutes=None,
                             now=at(1.5))
    assert [r.table_number for r in rows] == [1, 2]
    assert rows[0].words == "Table 1: round 1 began 1 minute ago." and not rows[0].slow


def test_finished_tables_come_last_and_other_rotations_only_count_in_the_average():
    tables = [table(1, 27, 54, 81, 108, done=True), table(2, 27), table(9, 30, rotation=2)]
    rows = rotation_lateness(tables, rotation_number=3, round_minutes=30, now=at(110))
    assert [r.table_number for r in rows] == [2, 1]
    assert rows[1].words == "Table 1: finished." and rows[1].clock is None
    assert rows[0].room_average == 28  # (27 x 5 + 30) / 6 = 27.5, shown rounded

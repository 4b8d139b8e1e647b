"""Issue 47: a table's clock, worked out by hand from when its rounds began."""

from datetime import UTC, datetime, timedelta

from league.pace.clock import table_clock
from league.pace.rounds import TableRounds

START = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


def rounds(*ends_after: int, extra: dict[int, int] | None = None, done: bool = False,
           started: bool = True) -> TableRounds:
    """A table of 4 rounds whose rounds were entered these many minutes after the start."""
    ends = tuple(START + timedelta(minutes=m) for m in ends_after)
    return TableRounds(table_id=1, rotation_number=3, table_number=4, players=4,
                       preset="classic", rounds=4, started_at=START if started else None,
                       ends=ends, done_at=ends[-1] if done else None, extra_minutes=extra or {})


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def test_the_first_round_runs_from_the_start_for_the_round_time():
    clock = table_clock(rounds(), round_minutes=30, now=at(18))
    assert clock is not None
    assert clock.round_number == 1 and clock.deadline == at(30)
    assert clock.minutes_left == 12 and not clock.over
    assert clock.words == "Round 1: 12 minutes left"


def test_a_later_round_begins_when_the_previous_one_was_entered():
    clock = table_clock(rounds(25), round_minutes=30, now=at(40))
    assert clock is not None
    assert clock.round_number == 2 and clock.began == at(25) and clock.deadline == at(55)
    assert clock.words == "Round 2: 15 minutes left"


def test_part_of_a_minute_left_counts_as_a_minute():
    clock = table_clock(rounds(), round_minutes=30, now=at(29.5))
    assert clock is not None and clock.words == "Round 1: 1 minute left"


def test_past_the_deadline_it_says_how_far_over():
    assert table_clock(rounds(), round_minutes=30, now=at(30)).words == "Round 1: time is up"
    assert table_clock(rounds(), round_minutes=30, now=at(30.9)).words == "Round 1: time is up"
    clock = table_clock(rounds(20), round_minutes=30, now=at(53.5))
    assert clock is not None and clock.over and clock.minutes_over == 3
    assert clock.words == "Round 2: 3 minutes over"


def test_extra_minutes_of_the_current_round_move_its_deadline_only():
    table = rounds(20, extra={1: 10, 2: 5})
    clock = table_clock(table, round_minutes=30, now=at(53))
    assert clock is not None
    assert clock.deadline == at(55) and clock.extra_minutes == 5
    assert clock.words == "Round 2: 2 minutes left"
    assert clock.extra_words == "5 more minutes given by the director"
    assert table_clock(rounds(), round_minutes=30, now=at(1)).extra_words == ""


def test_no_clock_without_a_round_time_before_the_start_or_once_finished():
    assert table_clock(rounds(), round_minutes=None, now=at(5)) is None
    assert table_clock(rounds(started=False), round_minutes=30, now=at(5)) is None
    assert table_clock(rounds(20, 40, 60, 80, done=True), round_minutes=30, now=at(90)) is None

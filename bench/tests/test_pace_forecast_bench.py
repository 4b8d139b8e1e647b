"""bench/pace_forecast_bench.py: the midpoint, what the forecast knows then and the error
against the night's real last entry, on a night worked out by hand."""

import random
from datetime import UTC, datetime, timedelta

import bench.pace_forecast_bench as bench
from league.pace.rounds import TableRounds

SEVEN = datetime(2026, 3, 3, 19, 0, tzinfo=UTC)


def steady(rotation: int, number: int, start: datetime, minutes: float = 30) -> TableRounds:
    ends = tuple(start + timedelta(minutes=minutes * k) for k in range(1, 5))
    return TableRounds(table_id=rotation * 10 + number, rotation_number=rotation,
                       table_number=number, players=4, preset="classic", rounds=4,
                       started_at=start, ends=ends, done_at=ends[-1])


def test_a_night_of_thirty_minute_rounds_is_forecast_at_its_midpoint_within_minutes():
    second = SEVEN + timedelta(minutes=125)  # 21:00 done, 5 minutes to seat
    night = [steady(1, 1, SEVEN), steady(1, 2, SEVEN), steady(2, 1, second), steady(2, 2, second)]
    middle, last = bench.midpoint(night)
    assert last == second + timedelta(minutes=120)
    assert middle == SEVEN + timedelta(minutes=122, seconds=30)  # between the two rotations
    past = [steady(1, n, SEVEN - timedelta(days=7)) for n in range(1, 21)]
    measured = bench.measure(night, past, seed=1)
    assert measured is not None and abs(measured.error) < 5 and measured.covered
    # 30-minute rounds, but the next rotation seated 5 minutes after the midpoint, not after 21:00
    assert measured.naive_error == 2.5


def test_simulated_nights_are_three_rotations_of_four_rounds_one_after_the_other():
    night = bench.simulated_night(random.Random(1), start=SEVEN, club_minutes=30, tables=6,
                                  first_id=0)
    assert len(night) == 18 and {t.rotation_number for t in night} == {1, 2, 3}
    assert all(t.finished and len(t.ends) == 4 for t in night)
    for rotation in (2, 3):
        before = max(t.done_at for t in night if t.rotation_number == rotation - 1)
        start = next(t.started_at for t in night if t.rotation_number == rotation)
        assert timedelta(minutes=3) <= start - before <= timedelta(minutes=10)
    assert len({t.table_id for t in night}) == 18

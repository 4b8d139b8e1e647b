"""Issue 47: when the night will end, forecast from tonight's rounds and the club's past ones
(pure, no database)."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from league.pace.forecast import club_pace, known_at, night_forecast
from league.pace.rounds import TableRounds

SEVEN = datetime(2026, 3, 3, 19, 0, tzinfo=UTC)


def table(number: int, minutes: list[float], *, start: datetime = SEVEN, rotation: int = 1,
          rounds: int = 4, players: int = 4, table_id: int | None = None) -> TableRounds:
    """A table whose entered rounds took `minutes` each (finished when all `rounds` are in)."""
    ends, at = [], start
    for m in minutes:
        at += timedelta(minutes=m)
        ends.append(at)
    return TableRounds(table_id=table_id or rotation * 100 + number, rotation_number=rotation,
                       table_number=number, players=players, preset="classic", rounds=rounds,
                       started_at=start, ends=tuple(ends),
                       done_at=ends[-1] if len(ends) == rounds else None)


def steady_past(minutes: float = 30, tables: int = 20) -> list[TableRounds]:
    return [table(n, [minutes] * 4, start=SEVEN - timedelta(days=7), table_id=1000 + n)
            for n in range(1, tables + 1)]


def clock(hours: int, minutes: int) -> datetime:
    return SEVEN.replace(hour=hours, minute=minutes)


def close(moment: datetime, expected: datetime, minutes: float) -> bool:
    return abs((moment - expected).total_seconds()) <= minutes * 60


def test_tables_that_always_take_thirty_minutes_a_round_give_a_narrow_range_around_the_sum():
    tonight = [table(n, [30, 30]) for n in range(1, 5)]  # half their game played at 20:00
    forecast = night_forecast(tonight=tonight, past=steady_past(), rotations_left=1,
                              now=clock(20, 10), seed=1)
    assert forecast is not None
    for one in forecast.tables:
        assert close(one.finish.about, clock(21, 0), 2)
        assert one.finish.latest - one.finish.earliest <= timedelta(minutes=6)
    # 21:00 the room is done, five minutes to seat the next rotation, then two hours of it (the
    # last of its four tables a minute or three more)
    assert close(forecast.room.about, clock(23, 7), 4)
    assert forecast.room.earliest <= forecast.room.about <= forecast.room.latest
    assert forecast.room.latest - forecast.room.earliest <= timedelta(minutes=15)


def test_the_same_inputs_and_seed_give_the_same_forecast():
    tonight = [table(1, [25, 41]), table(2, [33]), table(3, [])]
    past = [table(n, [20 + 3 * n, 31, 28 + n, 35], table_id=500 + n) for n in range(1, 9)]
    one, two = (night_forecast(tonight=tonight, past=past, rotations_left=2, now=clock(20, 20),
                               seed=7) for _ in range(2))
    other = night_forecast(tonight=tonight, past=past, rotations_left=2, now=clock(20, 20),
                           seed=8)
    assert one == two
    assert one != other


def test_a_finished_table_forecasts_its_real_finish():
    tonight = [table(1, [30, 30, 30, 30]), table(2, [30, 30])]
    forecast = night_forecast(tonight=tonight, past=steady_past(), rotations_left=0,
                              now=clock(21, 5), seed=1)
    assert forecast is not None
    done = forecast.tables[0]
    assert done.finished and done.finish.about == done.finish.earliest == clock(21, 0)
    assert done.finish.latest == clock(21, 0)
    assert not forecast.tables[1].finished


def test_a_slower_table_forecasts_later_than_a_quicker_one():
    tonight = [table(1, [40, 42]), table(2, [24, 25])]
    forecast = night_forecast(tonight=tonight, past=steady_past(), rotations_left=0,
                              now=clock(20, 30), seed=3)
    assert forecast is not None
    slow, quick = forecast.tables
    assert slow.finish.about > quick.finish.about + timedelta(minutes=20)


def test_a_round_already_long_is_not_forecast_to_have_ended():
    tonight = [table(1, [30])]  # round 2 began at 19:30 and is still on at 20:40
    forecast = night_forecast(tonight=tonight, past=steady_past(), rotations_left=0,
                              now=clock(20, 40), seed=2)
    assert forecast is not None
    assert forecast.tables[0].finish.earliest >= clock(20, 40) + timedelta(minutes=50)


def test_nothing_to_forecast_before_the_start_or_after_the_last_table():
    assert night_forecast(tonight=[], past=steady_past(), rotations_left=3, now=SEVEN) is None
    done = [table(1, [30, 30, 30, 30])]
    assert night_forecast(tonight=done, past=[], rotations_left=0, now=clock(21, 30)) is None
    later = night_forecast(tonight=done, past=[], rotations_left=1, now=clock(21, 30))
    assert later is not None and later.room.about > clock(21, 30) + timedelta(minutes=60)


def test_without_a_past_the_club_plays_thirty_minute_rounds():
    pace = club_pace([], preset="classic", players=4)
    assert pace.minutes == 30
    assert club_pace(steady_past(40), preset="classic", players=4).minutes == 40


def test_a_table_without_an_entry_long_after_a_round_is_taken_to_be_playing_its_whole_game():
    last_week = SEVEN - timedelta(days=7)
    logged = [replace(table(n, [], start=last_week, table_id=2000 + n),
                      done_at=last_week + timedelta(minutes=120)) for n in range(1, 11)]
    past = steady_past() + logged  # a third of the club's tables send their game at its end
    tonight = [table(1, [])]  # nothing entered at 20:30: a move log to come, not a 90-minute round
    forecast = night_forecast(tonight=tonight, past=past, rotations_left=0, now=clock(20, 30),
                              seed=4)
    assert forecast is not None
    assert close(forecast.tables[0].finish.about, clock(21, 0), 5)


def test_a_table_known_at_a_moment_keeps_only_what_had_arrived():
    whole = table(1, [30, 30, 30, 30])
    half = known_at(whole, clock(20, 10))
    assert half is not None and half.ends == whole.ends[:2] and not half.finished
    assert known_at(whole, SEVEN - timedelta(minutes=1)) is None
    assert known_at(whole, clock(22, 0)) == whole

"""Mixed tables of four and six in one night: the standings normalise them as the event says
(docs/analytics.md, "Mixed tables of four and six"), checked against the documented hand
computation; a night of one table shape stays as it was."""

import pytest

from analytics import selectors
from analytics.standings import services as standings_services
from analytics.standings.compute import GameResult, SideResult, event_standings, is_mixed
from league import services as league_services
from league.models import Event, Registration
from tests.analytics.factories import confirm, make_game
from tests.factories import EventFactory, PlayerFactory

# The documented example: ten players, one table of four and one of six (two sides of three).
FOUR = GameResult(1, (SideResult((1, 3), 1200), SideResult((2, 4), 800)))
SIX = GameResult(2, (SideResult((5, 7, 9), 2400), SideResult((6, 8, 10), 1500)))


def _by_player(rows):
    return {r["players"][0]: r for r in rows}


def _standings(games, how, scoring="total_points", by_side=False):
    return event_standings(games, scoring=scoring, tie_breaks=[], by_side=by_side,
                           mixed_tables=how)


def test_per_player_round_scales_a_side_of_three_to_a_side_of_two():
    rows = _by_player(_standings([FOUR, SIX], "per_player_round"))
    # by hand: 2400 x 2 / 3 = 1600, 1500 x 2 / 3 = 1000; the table of four is unchanged
    assert {p: rows[p]["total_points"] for p in (1, 2, 5, 6)} == {1: 1200, 2: 800, 5: 1600, 6: 1000}
    assert {p: rows[p]["point_difference"] for p in (1, 5)} == {1: 400.0, 5: 600.0}
    assert [rows[p]["rank"] for p in (5, 1, 6, 2)] == [1, 4, 6, 9]
    # without the scaling the losing side of three (1500) would rank above the winners of four
    raw = _by_player(event_standings([FOUR, SIX], scoring="total_points", tie_breaks=[],
                                     by_side=False, mixed_tables="rank"))
    assert raw[6]["rank"] < raw[1]["rank"]


def test_rank_gives_two_one_nothing_at_a_table_of_three_sides_and_halves_a_tie():
    four = GameResult(1, (SideResult((1, 2), 1000), SideResult((3, 4), 600)))
    three_sides = GameResult(2, (SideResult((5, 6), 900), SideResult((7, 8), 700),
                                 SideResult((9, 10), 300)))
    rows = {tuple(r["players"]): r for r in _standings([four, three_sides], "rank",
                                                       scoring="match_points", by_side=True)}
    assert [rows[s]["match_points"] for s in ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10))] == [2, 0, 2, 1, 0]
    assert (rows[(7, 8)]["wins"], rows[(7, 8)]["losses"]) == (0, 1)  # wins keep their meaning
    tied = GameResult(2, (SideResult((5, 6), 900), SideResult((7, 8), 900), SideResult((9, 10), 300)))
    rows = {tuple(r["players"]): r for r in _standings([four, tied], "rank", "match_points", True)}
    assert [rows[s]["match_points"] for s in ((5, 6), (7, 8), (9, 10))] == [1.5, 1.5, 0]


def test_a_night_of_one_table_shape_is_left_as_it_is():
    other_six = GameResult(3, (SideResult((11, 13, 15), 2000), SideResult((12, 14, 16), 900)))
    assert not is_mixed([SIX, other_six]) and is_mixed([FOUR, SIX])
    rows = _by_player(_standings([SIX, other_six], "per_player_round"))
    assert rows[5]["total_points"] == 2400


@pytest.mark.django_db
def test_a_stored_mixed_night_follows_the_events_choice_and_recomputes_when_it_changes(
        django_capture_on_commit_callbacks):
    event = EventFactory(table_sizes=[4, 6], odd_handling=Event.OddHandling.TABLE_OF_SIX,
                         scoring=Event.Scoring.TOTAL_POINTS)
    p = [PlayerFactory(club=event.club) for _ in range(10)]
    for player in p:
        Registration.objects.create(event=event, player=player, checked_in=True)
    confirm(make_game(event=event, players=p[:4], table_number=1), [[700, 500], [500, 300]])
    confirm(make_game(event=event, players=p[4:], table_number=2), [[1400, 900], [1000, 600]])
    standings_services.event_recompute(event_id=event.pk)
    rows = {r["players"][0]: r for r in selectors.event_standings(event=event).rows}
    assert rows[p[4].pk]["total_points"] == 1600  # (1400 + 1000) x 2 / 3
    assert rows[p[0].pk]["total_points"] == 1200
    with django_capture_on_commit_callbacks(execute=True):
        league_services.event_update(event=event, mixed_tables="rank")
    rows = {r["players"][0]: r for r in selectors.event_standings(event=event).rows}
    assert rows[p[4].pk]["total_points"] == 2400

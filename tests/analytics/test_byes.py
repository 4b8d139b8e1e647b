"""Sit-outs and late arrivals: bye points (fixed or the player's average) and per-game standings,
as docs/analytics.md documents them, for events and seasons."""

import pytest
from django.db.models import Q

from analytics import selectors
from analytics.standings import selectors as standings_selectors
from analytics.standings import services as standings_services
from analytics.standings.compute import GameResult, SideResult, event_standings
from league import services as league_services
from league.models import Event, Registration
from tests.analytics.factories import confirm, make_game
from tests.factories import EventFactory, PlayerFactory, SeasonFactory


def _games():
    # Players 1-5; player 5 sits out game 1 (rotation 1), player 1 sits out game 3.
    return [
        GameResult(1, (SideResult((1, 2), 300), SideResult((3, 4), 100))),
        GameResult(2, (SideResult((1, 5), 200), SideResult((2, 3), 400))),
        GameResult(3, (SideResult((2, 5), 350), SideResult((3, 4), 250))),
    ]


def _row(rows, player):
    return next(r for r in rows if r["players"] == [player])


def test_documented_example_fixed_average_and_per_game():
    # Player 1: played 2 (300 won, 200 lost), sat out 1.
    base = dict(scoring="match_points", tie_breaks=[], by_side=False)
    plain = _row(event_standings(_games(), **base), 1)
    assert (plain["games"], plain["match_points"], plain["total_points"]) == (2, 2, 500)

    fixed = _row(event_standings(_games(), **base, byes={"p1": 1}, sit_outs="fixed", bye_points=250), 1)
    assert (fixed["match_points"], fixed["total_points"], fixed["byes"]) == (3, 750, 1)

    average = _row(event_standings(_games(), **base, byes={"p1": 1}, sit_outs="average"), 1)
    assert (average["match_points"], average["total_points"]) == (3, 750)

    per_game = _row(event_standings(_games(), **base, byes={"p1": 1}, sit_outs="per_game"), 1)
    assert (per_game["match_points"], per_game["total_points"], per_game["games"]) == (1.0, 250.0, 2)


def test_a_bye_option_changes_who_leads():
    # Player 2 played 3 games (2 wins, 1,150 points); player 5 sat out one and won both games
    # played (600 points): level on match points, player 2 leads on total points.
    base = dict(scoring="match_points", tie_breaks=[], by_side=False)
    games = [
        GameResult(1, (SideResult((2, 3), 600), SideResult((1, 4), 100))),
        GameResult(2, (SideResult((2, 5), 400), SideResult((1, 3), 100))),
        GameResult(3, (SideResult((5, 4), 200), SideResult((2, 1), 150))),
    ]
    byes = {"p5": 1}
    assert event_standings(games, **base)[0]["players"] == [2]
    assert event_standings(games, **base, byes=byes, sit_outs="per_game")[0]["players"] == [5]
    assert event_standings(games, **base, byes=byes, sit_outs="average")[0]["players"] == [5]


@pytest.mark.django_db
def test_byes_count_sit_outs_and_late_arrivals_but_not_withdrawals():
    event = EventFactory()
    p = [PlayerFactory(club=event.club) for _ in range(6)]
    regs = {player.pk: Registration.objects.create(event=event, player=player, checked_in=True)
            for player in p}
    regs[p[5].pk].joins_at_rotation = 2  # late: misses rotation 1
    regs[p[5].pk].save()
    regs[p[4].pk].withdrawn_after_rotation = 1  # left after rotation 1
    regs[p[4].pk].save()
    confirm(make_game(event=event, players=p[:4], rotation_number=1), [[300, 100]])
    confirm(make_game(event=event, players=[p[0], p[1], p[2], p[5]], rotation_number=2), [[300, 100]])
    games = list(standings_selectors.game_results(game_filter=Q(table__rotation__event=event)).values())

    byes = standings_selectors.event_byes(event=event, games=games)

    assert byes[f"p{p[3].pk}"] == 1  # sat out rotation 2
    assert byes[f"p{p[5].pk}"] == 1  # arrived late
    assert byes[f"p{p[4].pk}"] == 1  # sat out rotation 1; the withdrawal adds none
    assert byes[f"p{p[0].pk}"] == 0


@pytest.mark.django_db
def test_changing_the_sit_out_rule_recomputes_event_and_season(django_capture_on_commit_callbacks):
    season = SeasonFactory()
    event = EventFactory(club=season.league.club, season=season, kind=Event.Kind.LEAGUE_NIGHT)
    p = [PlayerFactory(club=event.club) for _ in range(5)]
    for player in p:
        Registration.objects.create(event=event, player=player, checked_in=True)
    confirm(make_game(event=event, players=p[:4], rotation_number=1), [[300, 100]])
    confirm(make_game(event=event, players=[p[4], p[1], p[2], p[3]], rotation_number=2), [[500, 100]])
    standings_services.event_recompute(event_id=event.pk)
    season_row = next(r for r in selectors.season_standings(season=season).rows if r["players"] == [p[4].pk])
    assert season_row["total_points"] == 500

    with django_capture_on_commit_callbacks(execute=True):
        league_services.event_update(event=event, sit_out_scoring="fixed", bye_points=200)

    night = next(r for r in selectors.event_standings(event=event).rows if r["players"] == [p[4].pk])
    assert (night["byes"], night["total_points"]) == (1, 700)
    season_row = next(r for r in selectors.season_standings(season=season).rows if r["players"] == [p[4].pk])
    assert season_row["total_points"] == 700


def test_ratings_on_the_familiar_scale_with_certainty_in_words():
    from analytics.ratings.compute import rating_certainty, shown_margin, shown_rating

    # a skill is the share of a side's points a player adds: 4 % shows as 100 points
    assert shown_rating(0.0) == 1500 and shown_rating(0.04) == 1600 and shown_rating(-0.08) == 1300
    assert shown_margin(0.08) == 400  # a new player: two spreads of 0.08
    assert rating_certainty(0.08) == "new: only a few games so far"
    assert rating_certainty(0.05) == "still settling"
    assert rating_certainty(0.03) == "fairly settled"
    assert rating_certainty(0.015) == "well established"


@pytest.mark.django_db
def test_the_what_if_counts_sit_outs_as_the_standings_do():
    """The what-if re-scores the games but counts sit-outs by the event's own rule, as the
    standings do: a fixed 250 bye points are added to the re-scored total of who sat out."""
    from analytics import whatif

    event = EventFactory()
    p = [PlayerFactory(club=event.club) for _ in range(5)]
    for player in p:
        Registration.objects.create(event=event, player=player, checked_in=True)
    confirm(make_game(event=event, players=p[:4], rotation_number=1), [[300, 100]])
    confirm(make_game(event=event, players=[p[4], p[1], p[2], p[3]], rotation_number=2),
            [[500, 100]])

    def sat_out_row():
        rows = whatif.event_whatif(event, event.rules_spec).rows
        return next(r for r in rows if r["players"] == [p[4].pk])

    plain = sat_out_row()
    event.sit_out_scoring, event.bye_points = Event.SitOutScoring.FIXED, 250
    fixed = sat_out_row()
    assert (plain["byes"], fixed["byes"]) == (0, 1)
    assert fixed["total_points"] == plain["total_points"] + 250
    assert fixed["match_points"] == plain["match_points"] + 1
    event.sit_out_scoring = Event.SitOutScoring.PER_GAME
    assert sat_out_row()["games"] == 1

"""Snapshots written by the services: event and season standings, ratings, statistics, jobs."""

import datetime
import json
from unittest import mock

import pytest
from django.core.cache import cache

from analytics import bulk, selectors, tasks
from analytics.models import PlayerRating, RatedGame, RatingHistory, StandingsSnapshot
from analytics.ratings import selectors as ratings_selectors
from analytics.ratings import services as ratings_services
from analytics.standings import selectors as standings_selectors
from analytics.standings import services as standings_services
from analytics.statistics import services as statistics_services
from games.models import RoundResult
from league.models import Event, Player
from tests.analytics.factories import confirm, make_game, rotating_night
from tests.factories import ClubFactory, EventFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(db):
    club = ClubFactory()
    return club, [PlayerFactory(club=club, name=n) for n in ("Ann", "Ben", "Cat", "Dan")]


def test_event_standings_snapshot_ranks_players_of_a_rotating_event(four):
    club, (a, b, c, d) = four
    event = EventFactory(club=club, scoring="match_points", tie_breaks=[])
    players = [a, b, c, d]
    # Seats 0,2 vs 1,3: R1 A+C vs B+D, R2 A+B vs C+D, R3 A+D vs B+C.
    rotating_night(event, players, [((0, 1, 2, 3), (1000, 500)), ((0, 2, 1, 3), (700, 700)),
                                    ((0, 1, 3, 2), (300, 900))])
    snapshot = standings_services.event_standings_refresh(event=event)
    assert snapshot.games == 3
    assert [(r["name"], r["rank"], r["match_points"], r["total_points"]) for r in snapshot.rows] == [
        ("Cat", 1, 5, 2600), ("Ben", 2, 3, 2100), ("Ann", 3, 3, 2000), ("Dan", 4, 1, 1500)]


def test_fixed_partnership_event_ranks_sides_by_their_players(four):
    club, (a, b, c, d) = four
    event = EventFactory(club=club, format=Event.Format.SWISS, scoring="total_points")
    confirm(make_game(event=event, players=[a, b, c, d]), [[300, 200], [100, 100]])
    rows = standings_services.event_standings_refresh(event=event).rows
    assert [(r["name"], r["total_points"], r["rank"]) for r in rows] == [
        ("Ann & Cat", 400, 1), ("Ben & Dan", 300, 2)]


def test_refresh_replaces_the_snapshot_in_place(four):
    club, players = four
    event = EventFactory(club=club)
    standings_services.event_standings_refresh(event=event)
    confirm(make_game(event=event, players=players), [[10, 20]])
    standings_services.event_standings_refresh(event=event)
    assert StandingsSnapshot.objects.filter(event=event).count() == 1
    assert selectors.event_standings(event=event).games == 1


def test_season_standings_aggregate_the_nights_snapshots(four):
    club, players = four
    season = SeasonFactory(league__club=club, aggregate="sum", min_attendance=2)
    night1 = EventFactory(club=club, season=season, scoring="total_points")
    night2 = EventFactory(club=club, season=season, scoring="total_points",
                          date=datetime.date(2026, 12, 5))
    confirm(make_game(event=night1, players=players), [[500, 100]])
    confirm(make_game(event=night2, players=players[:2] + [PlayerFactory(club=club, name="Eve"),
                                                           players[3]]), [[50, 60]])
    standings_services.event_recompute(event_id=night1.pk)
    standings_services.event_recompute(event_id=night2.pk)
    rows = selectors.season_standings(season=season).rows
    by_name = {r["name"]: (r["rank"], r["nights"], r["score"]) for r in rows}
    assert by_name["Ann"] == (1, 2, 550)
    assert by_name["Ben"] == by_name["Dan"] == (2, 2, 160)  # partners both nights: shared rank
    assert by_name["Cat"] == (None, 1, 500)
    assert by_name["Eve"] == (None, 1, 50)


def _build_club_games():
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(6)]
    games = []
    for day in range(3):
        event = EventFactory(club=club, date=datetime.date(2026, 1, 1 + day * 7))
        for rotation in range(2):
            order = [(day + rotation + i) % 6 for i in range(4)]
            game = make_game(event=event, players=[players[i] for i in order],
                             rotation_number=rotation + 1)
            confirm(game, [[100 * (day + 1) + 37 * rotation, 90 * (rotation + 1) + 11 * day]])
            games.append(game)
    return club, games


def _ratings(club):
    return (
        list(RatingHistory.objects.filter(club=club).order_by("position", "player_id")
             .values_list("player_id", "game_id", "position", "mu", "sigma", "games", "expected")),
        list(PlayerRating.objects.filter(club=club).order_by("player_id")
             .values_list("player_id", "mu", "sigma", "ordinal", "games")),
    )


def test_ratings_after_a_correction_equal_a_full_recompute():
    club, games = _build_club_games()
    assert ratings_services.ratings_recompute(club_id=club.pk) == 6
    assert ratings_services.ratings_recompute(club_id=club.pk) == 0  # nothing changed, nothing replayed
    corrected = games[2]
    RoundResult.objects.filter(game=corrected, side=1).update(score=5000)
    assert ratings_services.ratings_recompute(club_id=club.pk) == 4  # from the third game on
    incremental = _ratings(club)
    RatingHistory.objects.all().delete()
    RatedGame.objects.all().delete()
    PlayerRating.objects.all().delete()
    ratings_services.ratings_recompute(club_id=club.pk)
    assert _ratings(club) == incremental


def test_ratings_reward_the_winners_and_treat_equal_totals_as_a_tie(four):
    club, (a, b, c, d) = four
    event = EventFactory(club=club)
    confirm(make_game(event=event, players=[a, b, c, d]), [[500, 100]])
    confirm(make_game(event=event, players=[a, b, c, d], rotation_number=2), [[300, 300]])
    ratings_services.ratings_recompute(club_id=club.pk)
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(club=club)}
    assert ratings[a.pk].mu > 0 > ratings[b.pk].mu  # 0: a new player's skill
    assert ratings[a.pk].mu == ratings[c.pk].mu
    assert ratings[a.pk].games == 2
    history = RatingHistory.objects.filter(player=a).order_by("position")
    first, second = history
    assert first.expected == pytest.approx(0.5)
    assert second.expected > 0.5  # A's side was now the favourite
    assert second.mu < first.mu  # a tie as favourite costs rating
    assert first.ordinal == pytest.approx(first.mu - 3 * first.sigma)


def test_statistics_match_hand_computed_figures(four):
    club, (a, b, c, d) = four
    event = EventFactory(club=club)
    # Game 1 (A+C vs B+D): rounds 100-50 and 200-250 -> A+C 300, B+D 300: a tie.
    confirm(make_game(event=event, players=[a, b, c, d]), [[100, 50], [200, 250]],
            clean_books=[[1, 0], [2, 1]], held_points=[[0, 40], [10, 0]])
    # Game 2 (A+B vs C+D): 400-100, A+B win.
    confirm(make_game(event=event, players=[a, c, b, d], rotation_number=2), [[400, 100]],
            clean_books=[[3, 0]], held_points=[[0, 20]])
    ratings_services.ratings_recompute(club_id=club.pk)
    statistics_services.statistics_recompute(club_id=club.pk)
    ann = selectors.player_stats(player=a)
    assert (ann["games"], ann["wins"], ann["ties"], ann["losses"], ann["rounds"]) == (2, 1, 1, 0, 3)
    assert ann["win_rate"] == 0.5
    assert ann["average_score_round_1"] == 250  # (100 + 400) / 2
    assert ann["average_score_round_2"] == 200
    assert ann["clean_books_per_round"] == 2  # (1 + 2 + 3) / 3
    assert ann["average_held_points"] == pytest.approx(3.333)
    assert ann["went_out_rate"] == pytest.approx(2 / 3, abs=1e-3)
    dan = selectors.player_stats(player=d)
    assert (dan["games"], dan["wins"], dan["losses"], dan["average_game_total"]) == (2, 0, 1, 200)
    pair = selectors.partnership_stats(a=a, b=c)
    assert (pair["games"], pair["ties"], pair["result_rate"]) == (1, 1, 0.5)
    assert pair["synergy"] == pytest.approx(0.0)  # equal ratings before game 1: expected 0.5
    assert selectors.partnership_stats(a=a, b=b)["synergy"] > 0


def test_statistics_count_only_public_events_but_ratings_learn_from_every_game(four):
    club, (a, b, c, d) = four
    confirm(make_game(event=EventFactory(club=club), players=[a, b, c, d]), [[400, 100]])
    private = EventFactory(club=club, is_public=False)
    confirm(make_game(event=private, players=[a, b, c, d]), [[100, 400]])

    ratings_services.ratings_recompute(club_id=club.pk)
    statistics_services.statistics_recompute(club_id=club.pk)

    ann = selectors.player_stats(player=a)
    assert (ann["games"], ann["wins"], ann["losses"]) == (1, 1, 0)
    assert RatingHistory.objects.filter(player=a).count() == 2


def test_statistics_use_move_log_facts_when_present(four):
    from games.models import SeatRoundFacts

    club, players = four
    game = make_game(event=EventFactory(club=club), players=players)
    confirm(game, [[100, 50], [80, 90]])
    SeatRoundFacts.objects.bulk_create([
        SeatRoundFacts(game=game, round_number=r, seat_number=0, player=players[0], side=0,
                       foot_turn=ft, pickups=p, black_threes_discarded=1, first_laydown_turn=3)
        for r, ft, p in ((1, 6, 2), (2, 8, 0))
    ])
    statistics_services.statistics_recompute(club_id=club.pk)
    ann = selectors.player_stats(player=players[0])
    assert (ann["turns_to_foot"], ann["pickups_per_round"], ann["black_three_blocks_per_round"],
            ann["first_laydown_turn"], ann["logged_rounds"]) == (7, 1, 1, 3, 2)
    assert "turns_to_foot" not in selectors.player_stats(player=players[1]) or \
        selectors.player_stats(player=players[1])["turns_to_foot"] is None


def test_head_to_head_counts_games_as_opponents_only(four):
    club, (a, b, c, d) = four
    event = EventFactory(club=club)
    confirm(make_game(event=event, players=[a, b, c, d]), [[500, 100]])  # A vs B: A wins
    confirm(make_game(event=event, players=[a, c, b, d], rotation_number=2), [[300, 400]])  # partners
    confirm(make_game(event=event, players=[a, d, c, b], rotation_number=3), [[100, 100]])  # tie
    result = selectors.head_to_head(club_id=club.pk, a={a.pk}, b={b.pk}, viewer=None)
    assert (result["games"], result["wins"], result["ties"], result["losses"]) == (2, 1, 1, 0)
    assert (result["points_for"], result["points_against"]) == (600, 200)


def test_a_burst_of_enqueues_schedules_one_job_until_it_starts(four):
    club, players = four
    event = EventFactory(club=club)
    # The cache is the shared Redis: a parallel test's event of the same id may have left it.
    cache.delete(f"recompute:event:{event.pk}")
    with mock.patch.object(tasks.recompute_event, "apply_async") as scheduled:
        for _ in range(5):
            tasks.enqueue_event_recompute(event.pk)
        assert scheduled.call_count == 1
        assert scheduled.call_args.kwargs["countdown"] == tasks.COALESCE_SECONDS
        with mock.patch.object(tasks, "enqueue_ratings_update"):
            tasks.recompute_event(event.pk)  # the job clears the key first
        tasks.enqueue_event_recompute(event.pk)
        assert scheduled.call_count == 2


def test_eager_jobs_chain_standings_ratings_and_statistics(four):
    club, players = four
    event = EventFactory(club=club)
    confirm(make_game(event=event, players=players), [[500, 100]])
    tasks.enqueue_event_recompute(event.pk)
    assert selectors.event_standings(event=event).games == 1
    assert PlayerRating.objects.filter(club=club).count() == 4
    assert selectors.player_stats(player=players[0])["games"] == 1


def test_a_failed_write_leaves_the_previous_snapshot(four):
    club, players = four
    event = EventFactory(club=club)
    confirm(make_game(event=event, players=players), [[500, 100]])
    statistics_services.statistics_recompute(club_id=club.pk)
    before = selectors.player_stats(player=players[0])
    confirm(make_game(event=event, players=players, rotation_number=2), [[100, 900]])
    real_insert = bulk.rows_insert
    calls = []

    def killed_on_the_second_table(*args):
        calls.append(args[0])
        if len(calls) == 2:  # player stats already replaced, partnerships not yet
            raise RuntimeError("worker killed")
        real_insert(*args)

    with mock.patch("analytics.bulk.rows_insert", side_effect=killed_on_the_second_table), \
            pytest.raises(RuntimeError):
        statistics_services.statistics_recompute(club_id=club.pk)
    assert len(calls) == 2
    assert selectors.player_stats(player=players[0]) == before


def test_recompute_of_a_missing_event_does_nothing():
    standings_services.event_recompute(event_id=987654)
    assert not StandingsSnapshot.objects.exists()


def test_club_rebuild_equals_refreshing_each_event(four):
    club, players = four
    season = SeasonFactory(league__club=club)
    events = [EventFactory(club=club, season=season, scoring=s)
              for s in ("total_points", "match_points", "victory_points")]
    for number, event in enumerate(events, start=1):
        confirm(make_game(event=event, players=players), [[100 * number, 250]])
    one_by_one = [standings_services.event_standings_refresh(event=e).rows for e in events]
    assert standings_services.club_standings_recompute(club_id=club.pk) == 3
    assert [selectors.event_standings(event=e).rows for e in events] == one_by_one
    assert len(selectors.season_standings(season=season).rows) == 4


def test_management_command_rebuilds_a_club(four):
    from django.core.management import CommandError, call_command

    club, players = four
    event = EventFactory(club=club)
    confirm(make_game(event=event, players=players), [[500, 100]])
    call_command("analytics_recompute", club=club.slug)
    assert selectors.event_standings(event=event).games == 1
    assert PlayerRating.objects.filter(club=club).count() == 4
    assert selectors.player_stats(player=players[0])["wins"] == 1
    with pytest.raises(CommandError, match="nope"):
        call_command("analytics_recompute", club="nope")


def test_ratings_follow_an_event_moved_earlier_and_a_forced_replay():
    club, games = _build_club_games()
    ratings_services.ratings_recompute(club_id=club.pk)
    last_event = games[-1].table.rotation.event
    last_event.date = datetime.date(2025, 12, 1)  # now the club's first night
    last_event.save()
    assert ratings_services.ratings_recompute(club_id=club.pk) == 6  # everything after it moved
    moved = _ratings(club)
    RatingHistory.objects.all().delete()
    RatedGame.objects.all().delete()
    ratings_services.ratings_recompute(club_id=club.pk)
    assert _ratings(club) == moved
    order = ratings_selectors.club_game_order(club_id=club.pk)
    assert ratings_services.ratings_recompute(club_id=club.pk, from_game_id=order[4]) == 2
    assert _ratings(club) == moved


def test_nightly_job_rebuilds_every_club_from_the_database(four):
    club, players = four
    event = EventFactory(club=club)
    confirm(make_game(event=event, players=players), [[500, 100]])
    StandingsSnapshot.objects.all().delete()
    PlayerRating.objects.all().delete()

    assert tasks.recompute_all_clubs.delay().get() == 1

    assert selectors.event_standings(event=event).games == 1
    assert PlayerRating.objects.filter(club=club).count() == 4


def _stats(club):
    from analytics.models import PartnershipStats, PlayerStats

    return (
        sorted(PlayerStats.objects.filter(club=club).values_list("player_id", "data")),
        sorted(PartnershipStats.objects.filter(club=club)
               .values_list("player_a_id", "player_b_id", "data")),
    )


def _full_ratings(club):
    RatingHistory.objects.all().delete()
    RatedGame.objects.all().delete()
    PlayerRating.objects.all().delete()
    ratings_services.ratings_recompute(club_id=club.pk)
    return _ratings(club)


def _next_night(club, games, day):
    players = list({p for g in games for p in g.table.seats.values_list("player", flat=True)})
    return EventFactory(club=club, date=datetime.date(2026, 1, day)), sorted(players)


def test_new_games_after_every_rated_game_are_rated_alone_as_a_full_replay_would():
    club, games = _build_club_games()
    ratings_services.ratings_recompute(club_id=club.pk)
    statistics_services.statistics_recompute(club_id=club.pk)
    event, ids = _next_night(club, games, 28)
    players = {p.pk: p for p in Player.objects.filter(pk__in=ids)}
    seated = [players[ids[i]] for i in (0, 2, 4, 5)]
    confirm(make_game(event=event, players=seated), [[420, 380]])
    confirm(make_game(event=event, players=[players[ids[i]] for i in (1, 3, 0, 2)],
                      rotation_number=2), [[100, 650]])

    with mock.patch.object(ratings_services, "ratings_recompute", wraps=ratings_services.ratings_recompute) as replay:
        change = ratings_services.ratings_update(club_id=club.pk, event_id=event.pk)
        statistics_services.statistics_refresh(club_id=club.pk, player_ids=change.players)
        again = ratings_services.ratings_update(club_id=club.pk, event_id=event.pk)

    assert replay.call_count == 0
    assert change == ratings_services.RatingsChange(2, frozenset(ids[i] for i in (0, 1, 2, 3, 4, 5)))
    assert again == ratings_services.RatingsChange(0, frozenset())
    assert list(RatedGame.objects.filter(club=club).order_by("position")
                .values_list("position", flat=True)) == list(range(8))
    incremental, refreshed = _ratings(club), _stats(club)
    assert _full_ratings(club) == incremental
    statistics_services.statistics_recompute(club_id=club.pk)
    assert _stats(club) == refreshed


def test_a_late_result_or_a_corrected_total_replays_from_the_changed_game():
    club, games = _build_club_games()
    ratings_services.ratings_recompute(club_id=club.pk)
    first_night = games[0].table.rotation.event
    seated = [s.player for s in games[0].table.seats.order_by("seat_number")]
    confirm(make_game(event=first_night, players=seated, rotation_number=3), [[10, 900]])

    late = ratings_services.ratings_update(club_id=club.pk, event_id=first_night.pk)

    assert late == ratings_services.RatingsChange(5, None)  # from the late game on
    assert _ratings(club) == _full_ratings(club)
    RoundResult.objects.filter(game=games[3], side=0).update(score=4000)
    corrected = ratings_services.ratings_update(club_id=club.pk,
                                        event_id=games[3].table.rotation.event_id)
    assert corrected == ratings_services.RatingsChange(3, None)  # now the fifth game of seven
    assert _ratings(club) == _full_ratings(club)


def test_a_correction_the_ratings_do_not_see_refreshes_its_players_statistics(four):
    club, players = four
    event = EventFactory(club=club)
    game = make_game(event=event, players=players)
    confirm(game, [[500, 100]], clean_books=[[1, 0]])
    tasks.enqueue_event_recompute(event.pk)
    assert selectors.player_stats(player=players[0])["clean_books_per_round"] == 1
    RoundResult.objects.filter(game=game).delete()  # a director's correction: same totals
    confirm(game, [[500, 100]], clean_books=[[3, 0]])

    with mock.patch.object(ratings_services, "ratings_recompute") as replay:
        tasks.enqueue_event_recompute(event.pk)

    assert replay.call_count == 0
    assert selectors.player_stats(player=players[0])["clean_books_per_round"] == 3


def _season_of_nights(club, players, *, best_n=2):
    """A season of three nights (best two counted), eight players, two tables a night."""
    season = SeasonFactory(league__club=club, aggregate="sum", best_n_nights=best_n,
                           min_attendance=2)
    nights = []
    for day in range(3):
        event = EventFactory(club=club, season=season, scoring="match_points",
                             date=datetime.date(2026, 3, 1 + 7 * day))
        for table in range(2):
            seated = [players[(day + table * 4 + i) % 8] for i in range(4)]
            confirm(make_game(event=event, players=seated, table_number=table + 1),
                    [[300 + 50 * day + 70 * table, 200 + 90 * table]])
        standings_services.event_recompute(event_id=event.pk)
        nights.append(event)
    return season, nights


def _full_season_rows(season):
    """The season rows added up from every night, as JSON (300 and 300.0 differ)."""
    season.refresh_from_db()
    return _exactly(standings_services.season_standings_refresh(season=season).rows)


def _exactly(rows):
    return json.dumps(rows, sort_keys=True)


def _from_night_snapshots(season):
    """The season rows added up from the nights' standings snapshots themselves."""
    from analytics.standings.compute import season_from_event_rows

    nights = StandingsSnapshot.objects.filter(event__season=season).order_by("event_id")
    return _exactly(season_from_event_rows(
        ((n.event_id, n.rows) for n in nights), aggregate=season.aggregate,
        best_n=season.best_n_nights, min_attendance=season.min_attendance))


def test_a_new_game_adds_up_only_its_entrants_season_rows_as_a_full_refresh_would(db):
    club = ClubFactory()
    players = [PlayerFactory(club=club, name=f"Player {i}") for i in range(8)]
    extra = PlayerFactory(club=club, name="Newcomer")
    season, nights = _season_of_nights(club, players)
    confirm(make_game(event=nights[1], players=[players[0], extra, players[5], players[6]],
                      rotation_number=2), [[900, 100]])

    with mock.patch.object(standings_selectors, "night_results", wraps=standings_selectors.night_results) as read:
        standings_services.event_recompute(event_id=nights[1].pk)

    (call,) = read.call_args_list
    assert set(call.kwargs["keys"]) == {f"p{p.pk}" for p in (players[0], extra, players[5],
                                                             players[6])}
    incremental = selectors.season_standings(season=season)
    assert incremental.games == 7
    assert {r["name"] for r in incremental.rows} >= {"Newcomer"}
    assert _exactly(incremental.rows) == _full_season_rows(season) == _from_night_snapshots(season)


def test_season_rows_are_added_up_again_in_full_when_the_stored_ones_cannot_be_kept(db):
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(8)]
    season, nights = _season_of_nights(club, players)
    # The season now counts every night: rows added up under best-of-two cannot be kept.
    season.best_n_nights = None
    season.save()
    confirm(make_game(event=nights[2], players=players[:4], rotation_number=2), [[10, 20]])
    with mock.patch.object(standings_selectors, "night_results", wraps=standings_selectors.night_results) as read:
        standings_services.event_recompute(event_id=nights[2].pk)
    assert read.call_args.kwargs["keys"] is None
    assert _exactly(selectors.season_standings(season=season).rows) == _full_season_rows(season)
    # A night moved in from another season: the stored games no longer add up.
    other = EventFactory(club=club, date=datetime.date(2026, 4, 1))
    confirm(make_game(event=other, players=players[4:]), [[500, 400]])
    standings_services.event_recompute(event_id=other.pk)
    other.season = season
    other.save()
    confirm(make_game(event=nights[0], players=players[:4], rotation_number=2), [[70, 20]])
    with mock.patch.object(standings_selectors, "night_results", wraps=standings_selectors.night_results) as read:
        standings_services.event_recompute(event_id=nights[0].pk)
    assert read.call_args.kwargs["keys"] is None
    assert selectors.season_standings(season=season).games == 9
    assert _exactly(selectors.season_standings(season=season).rows) == _full_season_rows(season)


def test_a_withdrawn_result_takes_its_entrants_out_of_the_season_rows(db):
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(8)]
    season, nights = _season_of_nights(club, players, best_n=None)
    RoundResult.objects.filter(game__table__rotation__event=nights[2]).delete()

    standings_services.event_recompute(event_id=nights[2].pk)

    rows = selectors.season_standings(season=season).rows
    assert selectors.season_standings(season=season).games == 4
    assert max(r["nights"] for r in rows) == 2
    assert _exactly(rows) == _full_season_rows(season)


def test_a_change_asks_for_the_standings_and_the_ratings_jobs_at_once(four):
    club, players = four
    event = EventFactory(club=club)
    cache.delete(f"recompute:event:{event.pk}")
    cache.delete(f"recompute:ratings:{club.pk}:{event.pk}")
    with mock.patch.object(tasks.recompute_event, "apply_async") as standings, \
            mock.patch.object(tasks.update_ratings, "apply_async") as ratings:
        tasks.enqueue_event_recompute(event.pk)
        tasks.enqueue_event_recompute(event.pk)
        # The standings job does not ask for the ratings again; one the sweep sent does.
        with mock.patch.object(tasks.standings, "event_recompute"):
            tasks.recompute_event(event.pk, False)
            assert ratings.call_count == 1
            cache.delete(f"recompute:ratings:{club.pk}:{event.pk}")  # as the ratings job does
            tasks.recompute_event(event.pk)
    assert standings.call_args.args == ((event.pk, False),)
    assert [c.args for c in ratings.call_args_list] == [((club.pk, event.pk),)] * 2
    cache.delete(f"recompute:ratings:{club.pk}:{event.pk}")


def test_a_few_players_statistics_refreshed_equal_a_full_recompute():
    """Only the new game's players are refreshed, from their own seats and sides; their
    partners' rows and everyone else's stay as a full recompute has them."""
    from games.models import SeatRoundFacts

    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(8)]
    for day in range(2):
        event = EventFactory(club=club, date=datetime.date(2026, 5, 1 + 7 * day))
        for table in range(2):
            seated = [players[(3 * day + table * 4 + i) % 8] for i in range(4)]
            game = make_game(event=event, players=seated, table_number=table + 1)
            confirm(game, [[400 + 30 * table, 250 + 100 * day], [120, 90 + table]],
                    clean_books=[[1, 0], [table, 2]])
            SeatRoundFacts.objects.bulk_create(
                SeatRoundFacts(game=game, round_number=1, seat_number=s, player=p, side=s % 2,
                               foot_turn=5 + s, pickups=s, black_threes_discarded=day,
                               first_laydown_turn=2 + table) for s, p in enumerate(seated))
    ratings_services.ratings_recompute(club_id=club.pk)
    statistics_services.statistics_recompute(club_id=club.pk)
    night = EventFactory(club=club, date=datetime.date(2026, 5, 20))
    confirm(make_game(event=night, players=[players[i] for i in (0, 5, 2, 7)]), [[700, 300]])

    change = ratings_services.ratings_update(club_id=club.pk, event_id=night.pk)
    statistics_services.statistics_refresh(club_id=club.pk, player_ids=change.players)

    assert change.players == {players[i].pk for i in (0, 5, 2, 7)}
    refreshed = _stats(club)
    statistics_services.statistics_recompute(club_id=club.pk)
    assert _stats(club) == refreshed


def test_a_switch_to_per_game_standings_carries_into_the_season_rows_exactly(db):
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(8)]
    season, nights = _season_of_nights(club, players, best_n=None)
    confirm(make_game(event=nights[0], players=players[:4], rotation_number=2), [[100, 500]])
    standings_services.event_recompute(event_id=nights[0].pk)
    nights[0].sit_out_scoring = Event.SitOutScoring.PER_GAME
    nights[0].save()

    standings_services.event_recompute(event_id=nights[0].pk)

    rows = selectors.season_standings(season=season).rows
    assert _exactly(rows) == _full_season_rows(season) == _from_night_snapshots(season)
    by_key = {r["key"]: r for r in rows}
    # players[4] played one game that night and none on the others: their per-game figures.
    assert isinstance(by_key[f"p{players[4].pk}"]["total_points"], float)

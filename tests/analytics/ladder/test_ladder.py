"""The cross-club ladder (issue 46): one rating pool over the clubs that share, its players
with their clubs; a club that stops sharing leaves it at once; players' privacy choices hold."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from analytics import tasks
from analytics.ladder import jobs as ladder_jobs
from analytics.ladder import selectors, services
from analytics.ladder.compute import games_merged, ladder_states
from analytics.ladder.selectors import club_ladder_games
from analytics.models import LadderRating, PlayerRating
from analytics.ratings.compute import PlayerState, shown_rating
from analytics.ratings.services import ratings_recompute
from jobs.models import Job
from league.models import Player
from league.services.clubs import club_ladder_share
from tests.analytics.factories import confirm, make_game

pytestmark = pytest.mark.django_db


def on_ladder() -> dict[str, str]:
    """Player's name → club's name, as stored."""
    return dict(LadderRating.objects.values_list("player__name", "club__name"))


def test_three_clubs_that_share_put_all_their_players_on_the_ladder_with_their_clubs(
        clubs, share, client):
    for name in ("Maple", "Oak", "Pine"):
        share(clubs[name].club)
    assert on_ladder() == {player.name: f"{name} Card Club"
                           for name in ("Maple", "Oak", "Pine")
                           for player in clubs[name].players}
    page = client.get(reverse("ladder")).content.decode()
    rows = page.split("<tbody>")[1]
    for name in ("Maple", "Oak", "Pine"):
        for player in clubs[name].players:
            assert player.name in rows and player.get_absolute_url() in rows
    assert rows.count("<tr>") == 12 and "Birch" not in page


def test_the_ladder_rates_with_the_clubs_model_on_one_scale(clubs, share):
    """A player who plays in one club only rates on the ladder as in their club's ratings."""
    for name in ("Maple", "Oak", "Pine"):
        share(clubs[name].club)
    ratings_recompute(club_id=clubs["Oak"].club.pk, full=True)
    club = {r.player_id: r for r in PlayerRating.objects.filter(club=clubs["Oak"].club)}
    ladder = {r.player_id: r for r in LadderRating.objects.filter(club=clubs["Oak"].club)}
    assert set(club) == set(ladder)
    for player_id, rating in club.items():
        assert ladder[player_id].mu == pytest.approx(rating.mu)
        assert ladder[player_id].sigma == pytest.approx(rating.sigma)
        assert ladder[player_id].games == rating.games == 3
        assert ladder[player_id].rating == shown_rating(rating.mu)


def test_games_merge_by_date_across_clubs_then_each_clubs_order(clubs):
    late, early = (club_ladder_games(club_id=clubs[n].club.pk) for n in ("Pine", "Maple"))
    merged = games_merged([late, early])
    assert [g.game_id for g in merged] == [g["game"] for g in early] + [g["game"] for g in late]
    first = merged[0]
    assert [side.total for side in first.sides] == [3200, 1500]
    assert ladder_states(merged)[clubs["Maple"].players[0].pk].games == 3


def test_a_club_that_stops_sharing_leaves_the_ladder_at_once_and_its_games_are_left_out(
        clubs, share, django_capture_on_commit_callbacks, client):
    for name in ("Maple", "Oak", "Pine"):
        share(clubs[name].club)
    oak = clubs["Oak"]
    with django_capture_on_commit_callbacks(execute=False) as after_commit:
        club_ladder_share(club=oak.club, share=False, by=None)
        assert not LadderRating.objects.filter(club=oak.club).exists()  # in the same transaction
    assert len(after_commit) == 1
    jobs_before = Job.objects.filter(kind=ladder_jobs.LADDER).count()
    after_commit[0]()  # the recompute after commit
    assert Job.objects.filter(kind=ladder_jobs.LADDER).count() == jobs_before + 1
    job = Job.objects.filter(kind=ladder_jobs.LADDER).latest("created_at")
    assert job.result == {"clubs": 2, "games": 6, "players": 8}
    assert set(on_ladder().values()) == {"Maple Card Club", "Pine Card Club"}
    page = client.get(reverse("ladder")).content.decode()
    assert all(player.name not in page for player in oak.players)


def test_a_computation_that_read_a_club_before_it_stopped_sharing_leaves_it_off(clubs, share):
    for name in ("Maple", "Oak"):
        share(clubs[name].club)
    games = games_merged([club_ladder_games(club_id=clubs[n].club.pk) for n in ("Maple", "Oak")])
    states = ladder_states(games)
    share(clubs["Oak"].club, on=False)
    assert services.ladder_replace(states=states) == 4
    assert set(on_ladder().values()) == {"Maple Card Club"}


def test_a_club_that_never_shared_is_never_on_the_ladder(clubs, share):
    share(clubs["Maple"].club)
    ladder_jobs.ladder_job()
    assert not LadderRating.objects.filter(club=clubs["Birch"].club).exists()
    assert not LadderRating.objects.exclude(club=clubs["Maple"].club).exists()


def test_the_ladder_is_empty_when_no_club_shares(clubs, share):
    share(clubs["Maple"].club)
    share(clubs["Maple"].club, on=False)
    assert not LadderRating.objects.exists()
    latest = Job.objects.filter(kind=ladder_jobs.LADDER).latest("created_at")
    assert latest.result == {"clubs": 0, "games": 0, "players": 0}


def test_players_show_on_the_ladder_as_they_chose_to_show_in_public(clubs, share, client):
    ann, ben, cat = clubs["Maple"].players[:3]
    Player.objects.filter(pk=ann.pk).update(name_shown=Player.NameShown.HIDDEN)
    Player.objects.filter(pk=ben.pk).update(name_shown=Player.NameShown.INITIAL)
    share(clubs["Maple"].club)
    page = client.get(reverse("ladder")).content.decode()
    assert "Ann Lee" not in page and f"Player {ann.pk}" in page  # as the leaderboard shows her
    assert "Ben Ito" not in page and "Ben I." in page
    assert "Cat Roy" in page
    leaderboard = client.get(reverse("leaderboard")).content.decode()
    assert "Ann Lee" not in leaderboard  # the leaderboard's way, the same


def test_the_jobs_parts_are_one_per_sharing_club(clubs, share, monkeypatch):
    for name in ("Maple", "Oak", "Pine"):
        share(clubs[name].club)
    read: list[int] = []
    real = ladder_jobs.selectors.club_ladder_games
    monkeypatch.setattr(ladder_jobs.selectors, "club_ladder_games",
                        lambda *, club_id: read.append(club_id) or real(club_id=club_id))
    job = ladder_jobs.ladder_job()
    assert job.status == Job.Status.DONE
    assert (job.parts, job.parts_done, job.total) == (3, 3, 9)  # 3 clubs of 3 games
    assert sorted(read) == sorted(clubs[n].club.pk for n in ("Maple", "Oak", "Pine"))
    assert job.result == {"clubs": 3, "games": 9, "players": 12}


def test_a_computation_clears_the_ladder_jobs_finished_over_an_hour_ago(clubs, share):
    share(clubs["Maple"].club)
    old = ladder_jobs.ladder_job()
    Job.objects.filter(pk=old.pk).update(updated_at=timezone.now() - timedelta(minutes=61))
    recent = ladder_jobs.ladder_job()
    latest = ladder_jobs.ladder_job()
    kept = set(Job.objects.filter(kind=ladder_jobs.LADDER).values_list("pk", flat=True))
    assert old.pk not in kept and {recent.pk, latest.pk} <= kept
    assert latest.status == Job.Status.DONE


def test_a_shared_clubs_ratings_update_computes_the_ladder_again(clubs, share):
    maple = clubs["Maple"]
    share(maple.club)
    ann, ben, cat, dan = maple.players
    confirm(make_game(event=maple.event, players=[ann, ben, cat, dan], rotation_number=4),
            [[2000, 1000]])
    tasks.update_ratings.apply(args=(maple.club.pk, maple.event.pk))
    assert LadderRating.objects.get(player=ann).games == 4


def test_a_ratings_update_of_a_club_that_does_not_share_starts_no_ladder_job(clubs):
    tasks.update_ratings.apply(args=(clubs["Birch"].club.pk, clubs["Birch"].event.pk))
    assert not Job.objects.filter(kind=ladder_jobs.LADDER).exists()


def test_a_burst_of_changes_sends_one_ladder_job(monkeypatch):
    sent: list[object] = []
    monkeypatch.setattr(ladder_jobs.recompute_ladder, "apply_async",
                        lambda *args, **kwargs: sent.append((args, kwargs)))
    for _ in range(5):
        ladder_jobs.enqueue_ladder_recompute()
    assert sent == [((), {"countdown": ladder_jobs.COALESCE_SECONDS})]


def test_the_stored_ladder_is_replaced_whole(clubs, share):
    share(clubs["Maple"].club)
    ann = clubs["Maple"].players[0]
    services.ladder_replace(states={ann.pk: PlayerState(0.01, 0.05, 7)})
    assert list(LadderRating.objects.values_list("player_id", "games", "rating")) == [
        (ann.pk, 7, shown_rating(0.01))]


def test_the_page_reads_the_stored_ladder_a_page_at_a_time(clubs, share, client, monkeypatch,
                                                           django_assert_max_num_queries):
    for name in ("Maple", "Oak", "Pine"):
        share(clubs[name].club)
    monkeypatch.setattr(selectors, "PER_PAGE", 5)
    with django_assert_max_num_queries(4):  # the session's and the page's two
        first = client.get(reverse("ladder")).content.decode()
    last = client.get(reverse("ladder"), {"page": "99999"}).content.decode()
    odd = client.get(reverse("ladder"), {"page": "x"}).content.decode()
    assert first.split("<tbody>")[1].count("<tr>") == 5 and "Page 1 of 3" in first
    assert "Page 3 of 3" in last and last.split("<tbody>")[1].count("<tr>") == 2
    assert '<td class="num">11</td>' in last
    assert "Page 1 of 3" in odd


def test_the_command_computes_the_ladder(clubs, share, capsys):
    share(clubs["Maple"].club)
    LadderRating.objects.all().delete()
    call_command("ladder_recompute")
    assert "4 players of 1 clubs, 3 games" in capsys.readouterr().out
    assert LadderRating.objects.count() == 4

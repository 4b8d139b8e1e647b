"""A night played on paper: the director enters a game's scores only (per round, or only the
game's totals), stored as a totals-only result, confirmed at once, feeding the standings and
ratings; refused in words when the figures are wrong, nothing stored."""

import pytest
from django.urls import reverse

from analytics.models import PlayerRating, StandingsSnapshot
from analytics.ratings.services import ratings_recompute
from analytics.standings.services import event_recompute
from core.errors import Invalid, Stale
from games.models import ResultVersion, RoundResult
from games.services.paper import result_enter_paper
from league.models import AuditEntry, Game
from tests.factories import EventFactory, MembershipFactory, PlayerFactory, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    event = EventFactory(status="running")
    players = [
        PlayerFactory(club=event.club, name=n) for n in ("Ann Lee", "Bob Ray", "Cat Ng", "Dan Oak")
    ]
    return make_game(event=event, players=players)


@pytest.fixture
def director(game):
    return MembershipFactory(club=game.table.rotation.event.club, role="director").user


def standings(game):
    event_recompute(event_id=game.table.rotation.event_id)
    snap = StandingsSnapshot.objects.get(event=game.table.rotation.event)
    return snap.games, {
        tuple(sorted(r["players"] if "players" in r else [r.get("name")])): r for r in snap.rows
    }


def test_each_rounds_scores_are_stored_as_a_confirmed_result_without_detail(game, director):
    version = result_enter_paper(
        game=game,
        user=director,
        expected_revision=0,
        rounds=[[500, 300], [-100, 900], [1200, 1200], [2000, 15]],
    )
    assert version.status == "confirmed" and version.detail is False
    assert version.totals == [3600, 2415]
    rows = RoundResult.objects.filter(game=game)
    assert rows.count() == 8 and not rows.filter(detail=True).exists()
    assert [r.score for r in rows.filter(side=0)] == [500, -100, 1200, 2000]
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    line = AuditEntry.objects.get(action="result_paper")
    assert "rotation 1, table 1 (each round's scores only)" in line.summary
    assert "3,600" in line.summary and "2,415" in line.summary


def test_only_the_games_totals_are_round_zero_and_change_the_standings(game, director):
    before, _ = standings(game)
    assert before == 0
    result_enter_paper(game=game, user=director, expected_revision=0, totals=[4000, 2500])
    assert list(RoundResult.objects.filter(game=game).values_list("round_number", "score")) == [
        (0, 4000),
        (0, 2500),
    ]
    counted, rows = standings(game)
    assert counted == 1
    points = sorted(
        r["total_points"]
        for r in StandingsSnapshot.objects.get(event=game.table.rotation.event).rows
    )
    assert points == [2500, 2500, 4000, 4000]
    ratings_recompute(club_id=game.table.rotation.event.club_id)
    assert PlayerRating.objects.filter(games=1).count() == 4


def test_a_paper_result_replaces_the_confirmed_one_and_keeps_it(game, director):
    result_enter_paper(game=game, user=director, expected_revision=0, totals=[4000, 2500])
    result_enter_paper(game=game, user=director, expected_revision=1, totals=[2500, 4000])
    assert list(game.result_versions.values_list("number", "status")) == [
        (1, "superseded"),
        (2, "confirmed"),
    ]
    with pytest.raises(Stale):
        result_enter_paper(game=game, user=director, expected_revision=1, totals=[5, 5])


@pytest.mark.parametrize(
    ("figures", "words"),
    [
        ({"totals": [4001, 2500]}, "4,001 is not a multiple of 5 (side 1's total)."),
        ({"rounds": [[5, 5]] * 3}, "A game has rounds 1 to 4"),
        ({"rounds": [[5, 5], [5, 5], [5, 5], [5, 99_995]]}, "beyond what a side can score"),
        ({}, "Write each round's scores, or the game's total per side."),
    ],
)
def test_wrong_figures_are_refused_in_words_and_nothing_is_stored(game, director, figures, words):
    with pytest.raises(Invalid) as refused:
        result_enter_paper(game=game, user=director, expected_revision=0, **figures)
    assert words in refused.value.message
    assert not ResultVersion.objects.exists() and not RoundResult.objects.exists()


def form(revision=0, **fields):
    data = {"paper-revision": revision, "paper-reason": ""}
    data.update({f"paper-{k}": v for k, v in fields.items()})
    return data


def test_the_directors_page_enters_a_paper_result(client, game, director):
    client.force_login(director)
    page = client.get(reverse("director-result", args=[game.pk]))
    text = page.content.decode()
    assert "Played on paper: enter the scores only" in text
    assert "Round 1, side 1 (Ann Lee &amp; Cat Ng)" in text
    rounds = {f"r{n}_s{s}": 100 * n + s * 5 for n in range(1, 5) for s in (1, 2)}
    done = client.post(
        reverse("director-result-paper", args=[game.pk]), form(**rounds), follow=True
    )
    assert (
        "Saved the paper result (1,020 to 1,040) as version 1, confirmed" in done.content.decode()
    )
    assert ResultVersion.objects.get(game=game).detail is False


def test_the_page_refuses_half_written_rounds_and_unequal_totals(client, game, director):
    client.force_login(director)
    url = reverse("director-result-paper", args=[game.pk])
    half = client.post(url, form(r1_s1=100, r1_s2=50))
    assert half.status_code == 400
    assert "Write every round&#x27;s score for both sides" in half.content.decode()
    rounds = {f"r{n}_s{s}": 100 for n in range(1, 5) for s in (1, 2)}
    unequal = client.post(url, form(**rounds, total_s1=500))
    assert "not the sums of the rounds (400 and 400)" in unequal.content.decode()
    stale = client.post(url, form(revision=3, total_s1=100, total_s2=200))
    assert stale.status_code == 412 and "reload and try again" in stale.content.decode()
    assert not ResultVersion.objects.exists()


def test_only_the_clubs_directors_enter_paper_results(client, game):
    client.force_login(MembershipFactory(role="director").user)
    refused = client.post(
        reverse("director-result-paper", args=[game.pk]), form(total_s1=5, total_s2=5)
    )
    assert refused.status_code in (403, 404)
    assert not ResultVersion.objects.exists()

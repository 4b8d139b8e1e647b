"""Issue 46: a club's backtest (every confirmed game replayed in order, each candidate
predicting it first) as a job, a command and the page "How well our ratings predict"."""

import math
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from analytics.ratings.backtest.candidates import CANDIDATES, CHOSEN
from analytics.ratings.backtests import RATINGS_BACKTEST, club_backtest_games, latest_backtest
from jobs.models import Job
from tests.analytics.factories import confirm, make_game
from tests.factories import ClubFactory, EventFactory, MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_games():
    """Two nights of four players: the first pair wins every game by 600 points a round."""
    club = ClubFactory()
    ann, ben, cat, dan = (PlayerFactory(club=club, name=n) for n in ("Ann", "Ben", "Cat", "Dan"))
    for night in range(2):
        event = EventFactory(club=club, date=f"2026-0{night + 1}-05")
        for rotation in (1, 2):
            game = make_game(event=event, players=[ann, ben, cat, dan], rotation_number=rotation)
            confirm(game, [[1600, 1000]] * 4)  # seats 0, 2 (Ann, Cat) against 1, 3
    return club, (ann, ben, cat, dan)


def test_the_club_s_games_come_in_order_with_their_nights_and_rounds(club_games):
    club, (ann, ben, cat, dan) = club_games
    games = club_backtest_games(club_id=club.pk)
    assert [g.night for g in games] == [0, 0, 1, 1]
    assert games[0].sides == ((ann.pk, cat.pk), (ben.pk, dan.pk))
    assert games[0].totals == (6400, 4000)
    assert games[0].rounds == ((1600, 1000),) * 4


def test_a_director_checks_the_ratings_and_everyone_reads_the_calibration(client, club_games):
    club, _ = club_games
    director = MembershipFactory(club=club, role="director").user
    client.force_login(director)
    url = reverse("club-ratings-accuracy", args=[club.slug])
    response = client.post(url)
    assert response.status_code == 302
    job = latest_backtest(club=club)
    assert job is not None and job.parts == len(CANDIDATES)
    client.logout()
    page = client.get(url).content.decode()
    # The first night is the warm-up: the two games of night 2 are scored, and the ratings
    # favour Ann and Cat, who won both.
    assert "Over <strong>2</strong> games" in page
    assert "won <strong>100 %</strong> of the time" in page
    assert 'class="plotly-graph-div"' in page
    names = re.findall(r'<th scope="row">([^<]+)', page)
    assert len(names) == len(CANDIDATES)
    assert "Check again" not in page  # a visitor only reads
    lines = {line["key"]: line for line in job.result["lines"]}
    assert lines[CHOSEN]["games"] == 2 and lines[CHOSEN]["accuracy"] == 1.0
    assert lines["openskill"]["against_baseline"] is None


def test_only_a_director_may_start_a_check(client, club_games):
    club, _ = club_games
    client.force_login(MembershipFactory(club=club, role="scorer").user)
    response = client.post(reverse("club-ratings-accuracy", args=[club.slug]))
    assert response.status_code == 403
    assert not Job.objects.filter(kind=RATINGS_BACKTEST).exists()


def test_a_club_never_checked_says_so_and_a_job_of_another_club_is_not_shown(client, club_games):
    club, _ = club_games
    other = ClubFactory()
    job = Job.objects.create(kind=RATINGS_BACKTEST, fingerprint="x", params={"club_id": other.pk})
    page = client.get(reverse("club-ratings-accuracy", args=[club.slug]) + f"?job={job.pk}")
    text = page.content.decode()
    assert "have not been checked yet" in text and "job-progress" not in text


def test_the_command_prints_every_candidate_with_its_difference_from_today(club_games):
    club, _ = club_games
    out = StringIO()
    call_command("ratings_backtest", club=club.slug, stdout=out)
    text = out.getvalue()
    assert "2 games predicted" in text and "(today)" in text
    assert sum(1 for line in text.splitlines() if re.search(r"\d\.\d{4}\s", line)) == len(CANDIDATES)


def test_the_command_on_simulated_leagues_prints_how_each_system_recovers_the_strengths():
    out = StringIO()
    call_command("ratings_backtest", simulated=True, seeds="5", nights=4, players=12, stdout=out)
    text = out.getvalue()
    assert "1 simulated leagues" in text and "Rank correlation" in text
    recovery = [line for line in text.splitlines()[-len(CANDIDATES):]]
    assert all(not math.isnan(float(line.split()[-3])) for line in recovery)


@pytest.mark.parametrize("arguments", [{}, {"club": "x", "simulated": True},
                                       {"simulated": True, "seeds": "9-2"},
                                       {"simulated": True, "nights": 0}, {"club": "no-such-club"}])
def test_the_command_refuses_what_it_cannot_do_in_words(arguments):
    with pytest.raises(CommandError):
        call_command("ratings_backtest", **arguments)

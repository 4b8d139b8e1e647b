"""The ladder on a real Celery worker with two processes: a club's choice sends the debounced
job through Redis, its parts (one per sharing club) are computed by the worker, and the stored
ladder equals the one computed here at once."""

import pytest

from analytics.ladder.compute import games_merged, ladder_states
from analytics.ladder.jobs import LADDER
from analytics.ladder.selectors import club_ladder_games
from analytics.models import LadderRating
from jobs.models import Job
from league.models import Club
from league.services.clubs import club_ladder_share
from tests.analytics.ladder.conftest import club_with_a_night
from tests.waiting import wait_for
from tests.workers import real_worker

pytestmark = [pytest.mark.worker, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(settings):
    settings.JOBS_RUNNER = "celery"
    settings.LADDER_COALESCE_SECONDS = 0.2  # sent from here: this process's setting counts
    with real_worker(settings, concurrency=2, name="ladder") as process:
        yield process


def test_the_ladder_is_computed_in_parts_by_the_worker(worker):
    clubs = [club_with_a_night(name, day) for name, day in (("Maple", 3), ("Oak", 4), ("Pine", 5))]
    Club.objects.filter(pk__in=[c.club.pk for c in clubs[:2]]).update(ladder_shared=True)
    club_ladder_share(club=clubs[2].club, share=True, by=None)  # sends the job after commit

    def finished() -> bool:
        return Job.objects.filter(kind=LADDER, status__in=[Job.Status.DONE,
                                                           Job.Status.FAILED]).exists()

    wait_for(finished, what="the ladder job")
    job = Job.objects.get(kind=LADDER)
    assert job.status == Job.Status.DONE, job.error
    assert (job.parts, job.total) == (3, 9)
    at_once = ladder_states(games_merged(club_ladder_games(club_id=c.club.pk) for c in clubs))
    stored = {r.player_id: (r.mu, r.sigma, r.games) for r in LadderRating.objects.all()}
    assert stored == {p: (s.mu, s.sigma, s.games) for p, s in at_once.items()}

"""The what-if job on a real Celery worker with two processes: its parts go out through Redis,
are computed side by side, and the result equals the what-if computed here at once."""


import pytest

from analytics import whatif
from analytics.jobs import whatif_season_job
from jobs.models import Job
from tests.analytics.test_pages import build_event
from tests.factories import SeasonFactory
from tests.waiting import wait_for
from tests.workers import real_worker

pytestmark = [pytest.mark.worker, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SPEC = {"preset": "classic", "overrides": {"going_out_bonus": 0}}


@pytest.fixture
def worker(settings):
    settings.JOBS_RUNNER = "celery"
    settings.WHATIF_PART_GAMES = 2
    with real_worker(settings, concurrency=2, env={"WHATIF_PART_GAMES": "2"}, name="jobs") as process:
        yield process


def test_a_season_what_if_is_computed_in_parts_by_the_worker(worker):
    season = SeasonFactory()
    build_event(3, club=season.league.club, season=season, scoring="total_points")
    build_event(2, club=season.league.club, season=season, scoring="total_points")
    job = whatif_season_job(season=season, rules_spec=SPEC)
    def finished() -> bool:
        job.refresh_from_db()
        return job.status in (Job.Status.DONE, Job.Status.FAILED)

    wait_for(finished, what="the what-if job")
    assert job.status == Job.Status.DONE, job.error
    assert (job.parts, job.done, job.total) == (3, 5, 5)
    at_once = whatif.season_whatif(season, SPEC)
    assert whatif.whatif_from_json(job.result) == at_once
    assert whatif_season_job(season=season, rules_spec=SPEC).pk == job.pk  # kept, not recomputed

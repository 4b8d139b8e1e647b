"""Issue 42: a bulk import must not starve the room. An import of past results asks for one
rebuild of its club (not a recompute and a mail job per game), and bulk work goes to a queue of
its own, served by a worker of its own, so a live night's jobs never wait behind it."""

import datetime
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from celery.app.task import Task

from config.celery import app
from games.jobs import RESULTS_IMPORT, results_import_job
from games.services import imports
from tests.factories import ClubFactory, MembershipFactory
from tests.games import import_helpers as h

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """Every task asked for, (name, queue), none of them run."""
    asked: list[tuple[str, str | None]] = []

    def record(self, args=None, kwargs=None, **options):
        asked.append((self.name, options.get("queue")))

    monkeypatch.setattr(Task, "apply_async", record)
    return asked


def test_an_import_of_many_games_asks_for_one_rebuild_of_its_club_on_the_bulk_queue(
    settings, sent, django_capture_on_commit_callbacks
):
    later = h.past_nights(seed=3)
    earlier = [replace(g, date=g.date - datetime.timedelta(days=14)) for g in h.past_nights(seed=4)]
    past = earlier + later  # 16 games on 4 nights
    club = ClubFactory()
    with django_capture_on_commit_callbacks(execute=True):
        plan = imports.results_import(club=club, file_name="past.csv",
                                      data=h.game_row_totals(past))
    assert plan.imported is not None and len(plan.games) == len(past) == 16
    # One job for the whole import, whatever its number of games: no recompute or mail per game.
    assert Counter(sent) == Counter({("analytics.recompute_club", settings.BULK_QUEUE): 1})


def test_bulk_tasks_are_routed_to_the_bulk_queue_and_live_ones_are_not(settings):
    router = app.amqp.router
    assert router.route({}, "analytics.recompute_all_clubs")["queue"].name == settings.BULK_QUEUE
    for live in ("analytics.recompute_event", "analytics.update_ratings",
                 "notifications.result_mails"):
        assert router.route({}, live)["queue"].name == app.conf.task_default_queue != "bulk"


def test_an_import_job_is_planned_and_run_on_the_bulk_queue(
    settings, sent, django_capture_on_commit_callbacks
):
    settings.JOBS_RUNNER = "celery"
    club = ClubFactory()
    director = MembershipFactory(club=club, role="director").user
    token = imports.upload_keep(club=club, file_name="past.csv",
                                data=h.game_row_totals(h.past_nights()))
    with django_capture_on_commit_callbacks(execute=True):
        job = results_import_job(club=club, token=token, user=director, season="",
                                 day_first=None, choices={})
    assert job.kind == RESULTS_IMPORT
    assert sent == [("jobs.plan", settings.BULK_QUEUE)]  # its parts follow the plan's queue


def test_every_worker_that_is_started_serves_the_bulk_queue_and_the_live_one_only_live_work():
    compose = yaml.safe_load((Path(__file__).parents[2] / "docker-compose.yml").read_text())
    queues = {name: service["command"][service["command"].index("-Q") + 1]
              for name, service in compose["services"].items()
              if isinstance(service.get("command"), list) and "worker" in service["command"]}
    assert queues == {"worker": "celery", "worker-bulk": "bulk"}

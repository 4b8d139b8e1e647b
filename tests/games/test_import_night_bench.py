"""Issue 42's bench (bench/import_night_bench.py, `make bench-import-night`) run small, so it
cannot rot: a 2-table night's games are entered and confirmed through the API (in this process)
while a real worker, serving the live queue and the bulk one, imports 20 past games (two files
at once, each by its import job) and rebuilds the club; every confirmation is measured until the
standings count it. Speed is the bench's business: here only that it measures, and that what it
measures happened."""

import json
import time

import pytest
from django.contrib.auth.models import User
from django.test import Client

from analytics.models import StandingsSnapshot
from bench import import_night_bench as bench
from league.models import Club, Event, Game
from tests.waiting import WAIT_SECONDS
from tests.workers import real_worker

pytestmark = [pytest.mark.worker, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


class InProcessClient(bench.faults.Client):
    """The bench's API client (bench/faults.py), through Django's test client instead of HTTP."""

    def __init__(self) -> None:
        super().__init__("")
        self.django = Client()

    def post(self, path: str, body: dict, **headers: str) -> tuple[int, dict]:
        start = time.monotonic()
        response = self.django.post(path, data=json.dumps(body), content_type="application/json",
                                    headers=headers)
        with self.lock:
            self.statuses[response.status_code] += 1
            self.times.append(time.monotonic() - start)
        return response.status_code, json.loads(response.content or b"{}")


def test_the_import_night_bench_measures_each_confirmation_of_a_small_night_during_an_import(
    settings,
):
    settings.JOBS_RUNNER = "celery"
    plan = bench.night.night_prepare(tables=2, rotations=4)
    club = Club.objects.get(slug=plan["club"])
    event = Event.objects.get(slug=plan["event"])
    files = bench.past_season(sorted(club.players.values_list("name", flat=True)), 20, files=2)
    director = User.objects.create_user("director")
    with real_worker(settings, concurrency=2, name="import-night"):
        figures = bench.night_during_import(
            club=club, event_id=event.pk, user=director, games=bench.faults.night_games(plan),
            files=files, client=InProcessClient(), every=0, timeout=WAIT_SECONDS)
    assert figures.import_status == "done" and figures.rebuild_seconds is not None
    assert not figures.refused and not figures.missing
    confirmed = Game.objects.filter(table__rotation__event=event, status=Game.Status.CONFIRMED)
    assert 1 <= len(figures.delays) == confirmed.count() <= plan["games"] == 8
    assert StandingsSnapshot.objects.get(event=event).games == confirmed.count()
    imported = Game.objects.filter(table__rotation__event__club=club,
                                   table__rotation__event__season__name__startswith=bench.SEASON)
    assert imported.count() == 20  # the past season stored, and its nights' standings rebuilt
    assert sum(StandingsSnapshot.objects.filter(event__season__name__startswith=bench.SEASON,
                                                event__club=club).values_list("games", flat=True)
               ) == 20
    assert all(delay >= 0 for delay in figures.delays)

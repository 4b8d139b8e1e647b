"""Finding 8 (issue 11): nothing is lost through a club night's faults.

- Redis down: results are still accepted and stored; the standings catch up when it is back
  (the stale snapshot sweep).
- A recompute lost with a killed worker: the sweep re-queues it (bench/faults.py kills a real
  worker with SIGKILL and times the recovery).
- The database unreachable: a clear, retryable 503 with Retry-After, nothing stored.
"""

import json
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.db import OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerDown

from analytics import tasks
from analytics.models import StandingsSnapshot
from games.models import ResultVersion, RoundResult, Submission
from league.models import Game
from tests.games.factories import named_game, sheet, side_link

pytestmark = pytest.mark.django_db


def enter_all(client, game):
    """Both sides enter the same four sheets through the table link: the result is confirmed."""
    answers = []
    for side in (0, 1):
        for r in range(1, 5):
            answers.append(client.post(
                f"/api/results/{game.pk}/submissions/",
                json.dumps({"document": sheet(r), "side": side}), content_type="application/json",
                headers={"X-Entry-Token": side_link(game, side), "Idempotency-Key": f"{side}-{r}"},
            ))
    return answers


@pytest.fixture
def redis_down(monkeypatch):
    """The broker and the cache both refuse connections (as with Redis stopped)."""

    def refuse(*args, **kwargs):
        raise BrokerDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    cache_type = type(caches["default"])
    monkeypatch.setattr(tasks.recompute_event, "apply_async", refuse)
    monkeypatch.setattr(cache_type, "add", refuse)
    yield
    monkeypatch.undo()


def test_results_are_accepted_and_stored_while_redis_is_down(
    api_client, redis_down, django_capture_on_commit_callbacks
):
    game = named_game()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        answers = enter_all(api_client, game)
    assert [a.status_code for a in answers] == [201] * 8
    assert callbacks, "the recompute was asked for after commit"
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert RoundResult.objects.filter(game=game).count() == 8
    assert not StandingsSnapshot.objects.filter(event=game.table.rotation.event).exists()


def test_standings_catch_up_when_redis_is_back(
    api_client, settings, monkeypatch, django_capture_on_commit_callbacks
):
    game = named_game()
    event = game.table.rotation.event
    with monkeypatch.context() as down:
        down.setattr(tasks.recompute_event, "apply_async",
                     lambda *a, **k: (_ for _ in ()).throw(BrokerDown("refused")))
        with django_capture_on_commit_callbacks(execute=True):
            assert {a.status_code for a in enter_all(api_client, game)} == {201}
    assert not StandingsSnapshot.objects.filter(event=event).exists()
    settings.STALE_SNAPSHOT_GRACE = 0
    swept = tasks.sweep_stale_snapshots()
    assert swept["events"] == [event.pk]
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.games == 1
    # Once caught up, the next sweep finds nothing to do.
    assert tasks.sweep_stale_snapshots() == {"events": [], "clubs": []}


def test_a_snapshot_older_than_the_latest_confirmation_is_swept(api_client, settings,
                                                                  django_capture_on_commit_callbacks):
    game = named_game()
    event = game.table.rotation.event
    with django_capture_on_commit_callbacks(execute=True):
        enter_all(api_client, game)
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.games == 1
    settings.STALE_SNAPSHOT_GRACE = 0
    assert tasks.sweep_stale_snapshots() == {"events": [], "clubs": []}
    # As if the worker was killed after the confirmation, before its recompute wrote anything.
    old = timezone.now() - timedelta(hours=1)
    StandingsSnapshot.objects.filter(event=event).update(computed_at=old, games=0, rows=[])
    assert tasks.sweep_stale_snapshots()["events"] == [event.pk]
    assert StandingsSnapshot.objects.get(event=event).games == 1


def test_results_confirmed_just_now_are_left_to_their_own_job(api_client, settings, monkeypatch,
                                                              django_capture_on_commit_callbacks):
    game = named_game()
    monkeypatch.setattr(tasks, "enqueue_event_recompute", lambda event_id: None)
    with django_capture_on_commit_callbacks(execute=True):
        enter_all(api_client, game)
    settings.STALE_SNAPSHOT_GRACE = 30
    assert tasks.sweep_stale_snapshots() == {"events": [], "clubs": []}


def test_settings_suit_the_jobs():
    from django.conf import settings

    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] <= 600
    sweep = settings.CELERY_BEAT_SCHEDULE["stale-snapshot-sweep"]
    assert sweep["task"] == "analytics.sweep_stale_snapshots" and sweep["schedule"] <= 60


def unreachable(*args, **kwargs):
    raise OperationalError("server closed the connection unexpectedly")


def test_database_down_during_an_api_submission_is_a_retryable_503(api_client, monkeypatch):
    game = named_game()
    monkeypatch.setattr("games.services.submission_create", unreachable)
    answers = enter_all(api_client, game)[:1]
    assert answers[0].status_code == 503
    assert answers[0]["Retry-After"] == "5"
    assert answers[0].json()["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert not Submission.objects.exists() and not ResultVersion.objects.exists()


def test_database_down_on_a_page_is_a_503_page(client, monkeypatch):
    monkeypatch.setattr("games.views.table.selectors.table_link_by_token", unreachable)
    response = client.get("/play/whatever-token/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Try again shortly" in response.content.decode()

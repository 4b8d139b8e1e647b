"""Issue 42: a result confirmed while the broker (Redis) is down is stored and acknowledged (2xx),
never a 500; the result mail's job is kept (`jobs.services.outbox`) and sent once the broker is
back, as the recompute's is by the stale snapshot sweep."""

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from config.celery import app
from games.models import ResultVersion
from jobs.models import PendingTask
from jobs.services.outbox import pending_resend
from league.models import Seat
from notifications.models import Contact
from tests.games.factories import named_game, sheet, side_link
from tests.notifications.smtp import free_port

pytestmark = pytest.mark.django_db


@contextmanager
def broker_on_a_closed_port(settings) -> Iterator[None]:
    """Celery sends to a Redis that is not there (nothing listens on the port)."""
    saved = (app.conf.broker_url, app.conf.task_always_eager)
    # Celery copies the broker's address into broker_write_url when it is configured (a Redis in
    # CI): the jobs are published there, so it moves to the closed port too.
    write_url = app.conf.broker_write_url
    pools = (app._pool, app.amqp._producer_pool)
    app.conf.broker_url = app.conf.broker_write_url = f"redis://127.0.0.1:{free_port()}/0"
    app.conf.task_always_eager = False
    app._pool, app.amqp._producer_pool = None, None  # fresh ones, to the closed port
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        yield
    finally:
        app.conf.broker_url, app.conf.task_always_eager = saved
        app.conf.broker_write_url = write_url
        app._pool, app.amqp._producer_pool = pools
        settings.CELERY_TASK_ALWAYS_EAGER = saved[1]


def test_a_result_confirmed_with_the_broker_down_answers_2xx_and_is_mailed_later(
    api_client, settings, smtp, django_capture_on_commit_callbacks
):
    game = named_game()
    seat = Seat.objects.filter(table__game=game).select_related("player").first()
    Contact.objects.create(player=seat.player, email="first@example.net")
    with broker_on_a_closed_port(settings), django_capture_on_commit_callbacks(execute=True):
        answers = [
            api_client.post(
                f"/api/results/{game.pk}/submissions/",
                json.dumps({"document": sheet(r), "side": side}),
                content_type="application/json",
                headers={"X-Entry-Token": side_link(game, side),
                         "Idempotency-Key": f"{side}-{r}"},
            )
            for side in (0, 1)
            for r in range(1, 5)
        ]
    assert [a.status_code for a in answers] == [201] * 8
    assert game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).exists()
    assert smtp.messages == []  # not sent yet: the broker was away
    assert list(PendingTask.objects.values_list("task", "args")) == [
        ("notifications.result_mails", [game.pk])
    ]
    # The broker is back: the beat's resend (or a worker's catch-up) sends the kept job.
    assert pending_resend() == 1
    assert [m["To"] for m in smtp.messages] == ["first@example.net"]
    assert not PendingTask.objects.exists()
    assert pending_resend() == 0

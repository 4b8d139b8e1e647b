"""Races that only a real database shows: run against PostgreSQL with threads (SQLite serialises
every writer, so there is no race to show: the `postgres` group)."""

import json
import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games import services
from games.models import Submission
from games.services import Entrant
from tests.factories import MembershipFactory
from tests.games.factories import named_game, sheet, side_link

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def run_together(target, count):
    """Start `count` threads on `target(i)` at the same moment; return results or exceptions."""
    barrier = threading.Barrier(count)
    outcomes = [None] * count

    def worker(i):
        try:
            barrier.wait()
            outcomes[i] = target(i)
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread got
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_same_submission_sent_at_once_creates_one(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = named_game()
    body = json.dumps({"document": sheet(1), "side": 0})
    headers = {"Idempotency-Key": "retry", "X-Entry-Token": side_link(game, 0)}

    outcomes = run_together(
        lambda i: APIClient().post(f"/api/results/{game.pk}/submissions/", body,
                                   content_type="application/json", headers=headers),
        6,
    )
    assert sorted(o.status_code for o in outcomes) == [200] * 5 + [201], outcomes
    assert len({o.json()["submission"]["id"] for o in outcomes}) == 1
    assert Submission.objects.count() == 1


def test_concurrent_corrections_apply_once_and_refuse_the_stale_one(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game = named_game()
    for side in (0, 1):
        for n in (1, 2, 3, 4):
            services.submission_create(game=game, document=sheet(n),
                                       entrant=Entrant.for_side(game, side),
                                       idempotency_key=f"{side}-{n}")
    director = MembershipFactory(club=game.table.rotation.event.club).user

    def correct(i):
        client = APIClient()
        client.force_authenticate(director)
        body = {"reason": f"fix {i}", "sheets": [sheet(3, table_points=600 + 5 * i)]}
        return client.post(f"/api/results/{game.pk}/corrections/", json.dumps(body),
                           content_type="application/json", headers={"If-Match": '"1"'})

    outcomes = run_together(correct, 4)
    assert sorted(o.status_code for o in outcomes) == [201, 412, 412, 412], outcomes
    assert game.result_versions.filter(status="confirmed").get().number == 2
    assert game.result_versions.count() == 2

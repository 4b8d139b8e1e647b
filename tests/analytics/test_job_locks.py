"""The analytics jobs lock their event's or club's row against one another, never against the
results entered meanwhile: a confirmation commits while a job of its event runs, instead of
waiting for the whole job (its rows' foreign keys to the event and the club are checked at
commit). Row locks: PostgreSQL, with threads."""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import OperationalError, connection, connections

from analytics.ratings import services as ratings
from analytics.standings import services as standings
from games import services as results
from league.models import Game
from tests.games.factories import named_game, stockout_log

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@contextmanager
def job_paused_in_its_lock(step: str, job: Callable[[], object]) -> Iterator[threading.Event]:
    """Run `job` in another thread, stopped at `step` (a function it calls holding its row
    lock) until the returned event is set; the job then finishes."""
    locked, release = threading.Event(), threading.Event()
    original = mock.patch(step).get_original()[0]

    def paused(*args: object, **kwargs: object) -> object:
        locked.set()
        release.wait(10)
        return original(*args, **kwargs)

    def run() -> None:
        try:
            job()
        finally:
            connections.close_all()

    with mock.patch(step, paused):
        thread = threading.Thread(target=run)
        thread.start()
        try:
            assert locked.wait(10), "the job never reached its lock"
            yield release
        finally:
            release.set()
            thread.join(15)


def entered(game: Game) -> int:
    results.submission_create(game=game, document=stockout_log(),
                              entrant=results.Entrant.for_side(game, 0), idempotency_key="locks")
    return game.result_versions.order_by("-number").values_list("number", flat=True)[0]


JOBS = {
    "standings (the event's row)": (
        "analytics.standings.services._event_standings_refresh",
        lambda game: standings.event_recompute(event_id=game.table.rotation.event_id)),
    "ratings (the club's row)": (
        "analytics.ratings.services._ratings_append",
        lambda game: ratings.ratings_update(club_id=game.table.rotation.event.club_id,
                                            event_id=game.table.rotation.event_id)),
}


@pytest.mark.parametrize("job", JOBS)
def test_a_confirmation_commits_while_a_job_of_its_event_runs(job):
    game = named_game()
    version = entered(game)
    step, run = JOBS[job]
    # The recompute the confirmation asks for is not run here (in process it would wait for
    # the paused job): only asked for.
    with mock.patch("analytics.tasks.enqueue_event_recompute_after_commit") as recompute, \
            job_paused_in_its_lock(step, lambda: run(game)) as release:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")
        try:
            results.result_confirm(game=game, version_number=version,
                                   entrant=results.Entrant.for_side(game, 1))
        except OperationalError as error:
            pytest.fail(f"the confirmation waited for the {job} job's lock: {error}")
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
        assert not release.is_set()  # the job still held its lock

    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    recompute.assert_called_once_with(game.table.rotation.event_id)

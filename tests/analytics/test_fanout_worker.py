"""The nightly rebuild on a real worker of two processes: the task sends the parts (a chord's body
and a chain's next part are sent by the worker itself, to the same queue) and they write what the
sequential rebuild writes."""

import time

import pytest

from analytics import services, tasks
from analytics.models import PlayerStats, StandingsSnapshot
from tests.analytics.test_fanout import _forget_everything, _seeded_club, _stored
from tests.waiting import wait_for
from tests.workers import real_worker

pytestmark = [pytest.mark.worker, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_the_nightly_rebuild_fans_out_over_a_real_worker(settings):
    club = _seeded_club(5, nights=2)
    services.club_recompute(club_id=club.pk)
    sequential = _stored()
    _forget_everything()
    with real_worker(settings, concurrency=2, name="fanout"):
        tasks.recompute_all_clubs.delay()
        wait_for(lambda: PlayerStats.objects.filter(club=club).exists()
                 and StandingsSnapshot.objects.filter(season__league__club=club).exists(),
                 what="the fanned-out rebuild's statistics and season standings")
        time.sleep(1)  # the last part's transaction and any straggler
    assert _stored() == sequential

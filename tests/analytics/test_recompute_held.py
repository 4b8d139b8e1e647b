"""`recompute_held`: results written in one go (the demo) ask for no job each; every club whose
events changed is rebuilt once when the block ends, to what the jobs one by one give."""

import pytest

from analytics.models import PlayerRating, StandingsSnapshot
from analytics.tasks import recompute_held
from games import services as results
from tests.games.factories import named_game, stockout_log

pytestmark = pytest.mark.django_db(transaction=True)


def confirm(game) -> None:
    results.submission_create(game=game, document=stockout_log(),
                              entrant=results.Entrant.for_side(game, 0), idempotency_key=f"held-{game.pk}")
    version = game.result_versions.order_by("-number").first()
    results.result_confirm(game=game, version_number=version.number,
                           entrant=results.Entrant.for_side(game, 1))


def analytics_of(event) -> tuple:
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    ratings = sorted(PlayerRating.objects.filter(club=event.club).values_list(
        "player__slug", "mu", "sigma", "games"))
    return (snapshot.games if snapshot else 0, snapshot.rows if snapshot else None, ratings)


def test_a_held_block_computes_nothing_until_it_ends_then_what_the_jobs_give():
    one_by_one = named_game()
    confirm(one_by_one)  # the jobs run in-process after the commit
    expected = analytics_of(one_by_one.table.rotation.event)
    assert expected[0] == 1 and len(expected[2]) == 4

    held = named_game()  # in a club of its own
    event = held.table.rotation.event
    with recompute_held():
        confirm(held)
        assert analytics_of(event) == (0, None, [])
    games, rows, ratings = analytics_of(event)
    assert games == 1
    figures = ("rank", "games", "wins", "losses", "match_points", "total_points")
    assert [[row.get(f) for f in figures] for row in rows] == [
        [row.get(f) for f in figures] for row in expected[1]]
    assert [r[1:] for r in ratings] == [r[1:] for r in expected[2]]


def test_a_block_that_raises_rebuilds_nothing():
    game = named_game()
    with pytest.raises(RuntimeError), recompute_held():
        confirm(game)
        raise RuntimeError("the build failed")
    assert analytics_of(game.table.rotation.event) == (0, None, [])

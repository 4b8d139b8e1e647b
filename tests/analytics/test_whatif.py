"""What-if re-scoring of games entered as move logs (through the results services)."""

import pytest

from analytics import whatif
from games import services as results
from league.models import Game
from tests.games.factories import named_game, stockout_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_game():
    game = named_game()
    results.submission_create(game=game, document=stockout_log(),
                              entrant=results.Entrant.for_side(game, 0), idempotency_key="log-0")
    version = game.result_versions.order_by("-number").first()
    results.result_confirm(game=game, version_number=version.number,
                           entrant=results.Entrant.for_side(game, 1))
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    return game


def _totals(result):
    return sorted(row["total_points"] for row in result.rows)


def test_same_rules_replay_the_log_to_the_same_totals(logged_game):
    result = whatif.event_whatif(logged_game.table.rotation.event, "classic")
    assert result.rescored_from_logs == [logged_game.pk]
    assert _totals(result) == sorted([-4155, -4155, -7705, -7705])


def test_a_penalty_change_is_replayed_exactly_from_the_log(logged_game):
    event = logged_game.table.rotation.event
    spec = {"preset": "classic", "overrides": {"black_three_penalty": 100}}
    result = whatif.event_whatif(event, spec)
    assert result.rescored_from_logs == [logged_game.pk]
    assert not result.notes
    assert _totals(result) != sorted([-4155, -4155, -7705, -7705])


def test_a_log_the_new_rules_refuse_falls_back_to_its_parts(logged_game):
    event = logged_game.table.rotation.event
    result = whatif.event_whatif(event, {"preset": "classic", "overrides": {"hand_size": 11}})
    assert result.rescored_from_parts == [logged_game.pk]
    assert "not legal" in result.notes[logged_game.pk][0]

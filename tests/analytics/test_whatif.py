"""What-if re-scoring of games entered as move logs (through the results services)."""

import orjson
import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from analytics import whatif
from analytics.standings import selectors
from games import services as results
from games.models import RoundResult
from handfoot.replay import rescore_log
from handfoot.rules import rules_from_spec
from handfoot.simulate import simulate_game
from league.models import Game
from tests.analytics.factories import confirm, make_game
from tests.factories import PlayerFactory
from tests.games.factories import named_game, running_event, stockout_log

pytestmark = pytest.mark.django_db


def _log_game(log, *, event=None):
    """A game (of its own event unless `event`) whose confirmed result is the move log `log`."""
    sides = len(log["seats"]) if log.get("play") == "individual" else log.get("sides", 2)
    game = named_game(event=event, slugs=tuple(log["seats"]), sides=sides,
                      first_dealer=log["rounds"][0]["dealer"])
    results.submission_create(game=game, document=log,
                              entrant=results.Entrant.for_side(game, 0),
                              idempotency_key=f"log-{game.pk}")
    version = game.result_versions.order_by("-number").first()
    results.result_confirm(game=game, version_number=version.number,
                           entrant=results.Entrant.for_side(game, 1))
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    return game


@pytest.fixture
def logged_game():
    return _log_game(stockout_log())


@pytest.fixture
def logged_games():
    """Logged games of 4 (two partnerships), 6 (three) and 3 players (each on their own), each
    with books, red 3s laid and a side going out (the stock-out game has none)."""
    return [_log_game(simulate_game("classic", players=4, seed=0)),
            _log_game(simulate_game("classic", players=6, sides=3, seed=1)),
            _log_game(simulate_game("classic", players=3, seed=1))]


def _totals(result):
    return sorted(row["total_points"] for row in result.rows)


def test_same_rules_give_the_log_s_own_totals(logged_game):
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


def _sheet_game(event, rotation):
    players = [PlayerFactory(club=event.club) for _ in range(4)]
    game = make_game(event=event, players=players, rotation_number=rotation)
    confirm(game, [[100 * rotation, 50], [200, 20 * rotation]], clean_books=[[1, 0], [0, 2]])
    return game


def _expected(game_ids, spec):
    """Each game re-scored as the part did before it read only what it needs: from its log when
    the new rules accept it, else from its round rows (model instances)."""
    rules = rules_from_spec(spec)
    games = selectors.game_results(game_filter=Q(pk__in=game_ids))
    expected = {}
    for game_id in sorted(games):
        rows = list(RoundResult.objects.filter(game_id=game_id).order_by("round_number"))
        sides = sorted({r.side for r in rows})
        rounds = sum(1 for r in rows if r.side == sides[0])
        logs = whatif._log_texts(whatif._log_sources([game_id]))
        totals = rescore_log(orjson.loads(logs[game_id]), rules, rounds) if logs else None
        if totals is not None:
            expected[str(game_id)] = (totals, True)
            continue
        expected[str(game_id)] = ([whatif.rescore_parts(
            [tuple(getattr(r, f) for f in whatif.PARTS) for r in rows if r.side == s], rules)
            for s in sides], False)
    return expected


@pytest.mark.parametrize("spec", [
    "classic",
    {"preset": "classic", "overrides": {"going_out_bonus": 0, "book_bonus": {"clean": 900, "dirty": 300, "wild": 1500}}},
    {"preset": "classic", "overrides": {"hand_size": 11}},  # the log refused: its parts
])
def test_a_mixed_part_is_rescored_as_before(logged_game, spec):
    event = logged_game.table.rotation.event
    sheets = [_sheet_game(event, rotation) for rotation in (2, 3)]
    game_ids = sorted([logged_game.pk] + [g.pk for g in sheets])
    rescored = whatif.whatif_rescore_games(game_ids=game_ids, rules_spec=spec)
    assert list(rescored) == [str(g) for g in game_ids]
    assert {g: (line["totals"], line["from_log"]) for g, line in rescored.items()} == _expected(
        game_ids, spec)
    assert [rescored[str(g.pk)]["notes"] for g in sheets] == [
        whatif.parts_notes(rules_from_spec(event.rules_spec), rules_from_spec(spec))] * 2
    refused = rescored[str(logged_game.pk)]["notes"][:1] == ["the move log is not legal under these rules"]
    assert refused == (not rescored[str(logged_game.pk)]["from_log"])


def test_a_game_without_a_result_is_left_out(logged_game):
    unplayed = named_game(event=logged_game.table.rotation.event, rotation_number=4,
                          slugs=("w", "x", "y", "z"))
    rescored = whatif.whatif_rescore_games(game_ids=[logged_game.pk, unplayed.pk], rules_spec="classic")
    assert list(rescored) == [str(logged_game.pk)]


BOOKS = {"clean": 900, "dirty": 200, "wild": 1200}
SCORING_CHANGES = [{"book_bonus": BOOKS}, {"going_out_bonus": 0}, {"red_three_bonus": 250},
                   {"book_bonus": BOOKS, "going_out_bonus": 400, "red_three_bonus": 0}]


def _replayed(game, spec):
    """The game's side totals from its log replayed under `spec` (what a play change takes)."""
    rounds = RoundResult.objects.filter(game=game, side=0).count()
    return rescore_log(game.submissions.get().document, rules_from_spec(spec), rounds)


@pytest.mark.parametrize("overrides", SCORING_CHANGES)
def test_a_scoring_change_rescores_logs_from_their_parts_to_their_replay_s_totals(
        logged_games, overrides):
    spec = {"preset": "classic", "overrides": overrides}
    rescored = whatif.whatif_rescore_games(game_ids=[g.pk for g in logged_games], rules_spec=spec)
    assert rescored == {str(g.pk): {"totals": _replayed(g, spec), "from_log": True, "notes": []}
                        for g in logged_games}
    assert all(rescored[str(g.pk)]["totals"] != _replayed(g, "classic") for g in logged_games)


def _fail(*args):
    raise AssertionError("a log was replayed")


def test_a_scoring_only_what_if_reads_no_log(logged_games, monkeypatch):
    monkeypatch.setattr(whatif, "rescore_log", _fail)
    spec = {"preset": "classic", "overrides": {"going_out_bonus": 0}}
    with CaptureQueriesContext(connection) as queries:
        result = whatif.event_whatif(logged_games[0].table.rotation.event, spec)
        rescored = whatif.whatif_rescore_games(game_ids=[g.pk for g in logged_games], rules_spec=spec)
    assert not [q["sql"] for q in queries if "games_submission" in q["sql"]]
    assert (result.rescored_from_logs, result.rescored_from_parts) == ([logged_games[0].pk], [])
    assert not result.notes
    assert all(line["from_log"] and not line["notes"] for line in rescored.values())


@pytest.fixture
def replays(monkeypatch):
    """The logs `rescore_log` replays in the what-if."""
    logs = []

    def spy(log, rules, rounds):
        logs.append(log)
        return rescore_log(log, rules, rounds)
    monkeypatch.setattr(whatif, "rescore_log", spy)
    return logs


@pytest.mark.parametrize("overrides", [{"black_three_penalty": 100}, {"red_three_penalty": 300},
                                       {"black_three_penalty": 0, "going_out_bonus": 0}])
def test_a_held_penalty_change_replays_the_logs(logged_games, replays, overrides):
    spec = {"preset": "classic", "overrides": overrides}
    rescored = whatif.whatif_rescore_games(game_ids=[g.pk for g in logged_games], rules_spec=spec)
    assert len(replays) == len(logged_games)
    assert all(g.submissions.get().document in replays for g in logged_games)
    assert rescored == {str(g.pk): {"totals": _replayed(g, spec), "from_log": True, "notes": []}
                        for g in logged_games}


def test_each_game_s_own_event_rules_decide_whether_its_log_is_replayed(logged_game, replays):
    eleven = {"preset": "classic", "overrides": {"hand_size": 11}}
    other = _log_game(simulate_game(eleven, players=4, seed=3),
                      event=running_event(rules_overrides={"hand_size": 11}))
    spec = {"preset": "classic", "overrides": {"hand_size": 11, "going_out_bonus": 0}}
    rescored = whatif.whatif_rescore_games(game_ids=[logged_game.pk, other.pk], rules_spec=spec)
    assert replays == [logged_game.submissions.get().document]  # the classic night's alone
    assert rescored[str(other.pk)] == {"totals": _replayed(other, spec), "from_log": True,
                                       "notes": []}
    assert not rescored[str(logged_game.pk)]["from_log"]  # refused: a hand of 11 changes the deal

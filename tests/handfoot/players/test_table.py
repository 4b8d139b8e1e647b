"""Games between levels: seeded, deals from the seed alone, logs that pass the check; the
command line's play and duel; duplicate matches."""

from __future__ import annotations

import json
import math
import statistics

import pytest

from handfoot import replay_log
from handfoot.players.duel import DuelResult, duel
from handfoot.players.levels import level
from handfoot.players.table import Table, play_game

from ..test_cli import run


def _game(preset, players, names, seed, **kw):
    return play_game(Table.of(preset, players, [level(n) for n in names], **kw), seed)


@pytest.mark.parametrize(("preset", "players", "kw"), [
    ("classic", 4, {}), ("pagat", 6, {"sides": 3}), ("canasta", 2, {}), ("eleven", 3, {}),
    ("six-deck", 4, {"individual": True}),
])  # fmt: skip
def test_games_between_levels_replay_valid_with_the_same_totals(preset, players, kw):
    game = _game(preset, players, ["random", "greedy"], 3, **kw)
    report = replay_log(game.log)
    assert report.valid, report.error
    assert tuple(report.totals) == game.totals


def test_the_same_seed_plays_the_same_game():
    assert _game("classic", 4, ["greedy", "random"], 5) == _game("classic", 4, ["greedy", "random"], 5)


def test_the_deals_depend_on_the_seed_alone_not_on_who_plays():
    one = _game("classic", 4, ["random", "greedy"], 7).log
    two = _game("classic", 4, ["greedy", "random"], 7).log
    assert [r["deal"] for r in one["rounds"]] == [r["deal"] for r in two["rounds"]]
    assert [r["events"] for r in one["rounds"]] != [r["events"] for r in two["rounds"]]
    other = _game("classic", 4, ["random", "greedy"], 8).log
    assert one["rounds"][0]["deal"] != other["rounds"][0]["deal"]


def test_seat_i_plays_the_level_i_modulo_the_levels():
    log = _game("classic", 4, ["random", "greedy"], 1).log
    assert log["seats"] == ["p1 random", "p2 greedy", "p3 random", "p4 greedy"]


def test_the_same_level_on_both_sides_of_a_duplicate_match_is_level():
    result = duel("classic", 4, level("greedy"), level("greedy"), 3, 1)
    assert result.games == 6 and result.pair_margins == (0.0, 0.0, 0.0)
    assert result.win_rate == 0.5


def test_greedy_beats_random_in_a_duplicate_match():
    result = duel("classic", 4, level("greedy"), level("random"), 3, 2, rounds=1)
    low, _high = result.interval()
    assert result.win_rate == 1.0 and low > 0


def test_the_interval_is_student_s_t_over_few_deal_pairs():
    result = DuelResult("a", "b", (100.0, 300.0, 200.0, 400.0), (1.0,) * 8)
    low, high = result.interval()
    half = 3.182 * math.sqrt(((150**2 + 50**2) * 2) / 3) / 2
    assert result.mean_margin == 250.0
    assert low == pytest.approx(250 - half) and high == pytest.approx(250 + half)


def test_the_interval_is_the_normal_approximation_from_thirty_deal_pairs():
    margins = tuple(float(m) for m in range(30))
    result = DuelResult("a", "b", margins, (1.0,) * 60)
    low, high = result.interval()
    half = 1.959964 * statistics.stdev(margins) / math.sqrt(30)
    assert low == pytest.approx(14.5 - half) and high == pytest.approx(14.5 + half)


def test_play_prints_a_log_that_passes_check(tmp_path):
    proc = run("play", "--rules", "classic", "--players", "4", "--seats", "random,greedy",
               "--seed", "7", "--rounds", "2")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    path = tmp_path / "game.json"
    path.write_bytes(proc.stdout)
    assert len(json.loads(proc.stdout)["rounds"]) == 2
    checked = run("check", str(path))
    assert checked.returncode == 0 and json.loads(checked.stdout)["valid"]


def test_duel_prints_its_figures():
    proc = run("duel", "--rules", "eleven", "--players", "4", "--a", "greedy", "--b", "random",
               "--deals", "2", "--seed", "1", "--rounds", "1")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["games"] == 4 and out["deal_pairs"] == 2 and len(out["margin_95"]) == 2


def test_an_unknown_level_is_a_usage_error():
    proc = run("play", "--seats", "greedy,wizard")
    assert proc.returncode == 2 and b"wizard" in proc.stderr


@pytest.mark.parametrize(("option", "value", "words"), [
    ("--deals", "0", b"--deals must be from 1 to 100000, not 0"),
    ("--deals", "-3", b"--deals must be from 1 to 100000, not -3"),
    ("--rounds", "9", b"--rounds must be from 1 to 8, not 9"),
    ("--seed", "-1", b"--seed must be from 0"),
    ("--deals", "many", b"--deals must be a whole number, not 'many'"),
])
def test_a_duel_refuses_a_number_out_of_its_range_in_words(option, value, words):
    proc = run("duel", "--a", "greedy", "--b", "random", option, value)
    assert proc.returncode == 2 and words in proc.stderr and proc.stdout == b""


def test_the_command_line_knows_every_level_without_importing_them():
    from handfoot.players.cli import LEVEL_NAMES
    from handfoot.players.levels import LEVELS

    assert tuple(LEVELS) == LEVEL_NAMES

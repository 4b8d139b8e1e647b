"""A seeded sample of the simulator benchmark: every preset, table and strategy plays without an
exception and its log replays as valid (the full run, 10,000 seeds each, is
bench/simulator_bench.py)."""

import pytest

from bench.simulator_bench import cases, main, run_seeds
from handfoot.rules import PRESETS

CASES = cases(list(PRESETS))


def test_every_preset_has_its_tables_and_both_strategies():
    tables = {(c.preset, c.table) for c in CASES}
    assert ("classic", "4 in 2 sides") in tables
    assert ("classic", "6 in 3 sides") in tables
    assert ("classic", "12 alone") not in tables  # 13 decks: more than a game may use
    assert ("six-deck", "12 alone") in tables
    assert {c.strategy for c in CASES} == {"greedy", "random"}


@pytest.mark.parametrize("number", range(len(CASES)))
def test_a_seeded_round_of_each_case_plays_and_replays(number):
    case = CASES[number]
    seed = 1000 + 7 * number  # a different seed for each case, the same on every run
    _, outcome = run_seeds((case, seed, seed + 1, 1))
    assert (outcome.exceptions, outcome.invalid) == (0, 0), outcome.first_failure


def test_the_bench_prints_its_figures_against_the_target(capsys):
    assert main(["--seeds", "1", "--rounds", "1", "--presets", "eleven", "--processes", "1"]) == 0
    out = capsys.readouterr().out
    assert "simulator exceptions: 0 (target 0: ok)" in out
    assert "0 exceptions (target 0)" in out

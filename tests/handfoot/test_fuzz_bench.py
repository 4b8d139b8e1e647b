"""The fuzz benchmark's goals hold on a small seeded run, so a mutant that crashes the engine
fails the suite too (the full run, 20,000 mutants, is `make bench`)."""

import random

from bench.fuzz_bench import main, mutate


def test_a_small_seeded_fuzz_run_meets_every_goal(capsys):
    assert main(["--games", "4", "--mutations", "400", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "crashes (check_document raised): 0" in out
    assert "16 rounds compared, 0 disagreements" in out


def test_mutations_are_seeded_and_leave_the_original_alone():
    doc = {"format": "x", "sides": [{"score": 5, "cards": ["AS", "KH"]}], "round": 1}
    original = repr(doc)
    first = [mutate(doc, random.Random(3)) for _ in range(1)] + [mutate(doc, random.Random(4))]
    again = [mutate(doc, random.Random(3)), mutate(doc, random.Random(4))]
    assert first == again
    assert repr(doc) == original
    assert any(m != doc for m in first)

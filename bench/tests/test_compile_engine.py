"""bench/compile_engine.py: the compiled copy of the engine is used only when it plays the very
same games as the source."""

import bench.compile_engine as compile_engine


def test_the_compiled_copy_plays_the_same_games_and_its_modules_are_compiled(tmp_path, capsys):
    out = tmp_path / "engine"

    assert compile_engine.main(["--out", str(out), "--check-seeds", "1"]) == 0

    for name in compile_engine.COMPILED:
        assert list((out / "handfoot").glob(f"{name[:-3]}.*.so")), name
    printed = capsys.readouterr().out
    assert "every log identical" in printed
    assert "122 games (seeds 0-0 of every case)" in printed


def test_a_copy_that_plays_one_game_differently_is_deleted_and_refused(tmp_path, monkeypatch,
                                                                       capsys):
    out = tmp_path / "engine"
    monkeypatch.setattr(compile_engine, "build", lambda path: path.mkdir())
    source = {"classic, 4 in 2 sides, greedy, seed 0": "a", "eleven, 3 alone, random, seed 0": "b"}
    compiled = {**source, "eleven, 3 alone, random, seed 0": "c"}
    answers = iter([(source, 2.0), (compiled, 1.0)])
    monkeypatch.setattr(compile_engine, "_hashes_in_process", lambda root, seeds: next(answers))

    assert compile_engine.main(["--out", str(out), "--check-seeds", "1"]) == 1

    assert not out.exists()
    assert "plays 1 of 2 games differently" in capsys.readouterr().out

"""The command line: `python -m handfoot check|simulate`, run as a separate process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
LINE_KEYS = {"file", "kind", "valid", "error", "rounds", "totals"}


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "-m", "handfoot", *args],
        cwd=REPO, input=stdin, capture_output=True, timeout=120, env=env, check=False,
    )


def lines(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    for line in out:
        assert set(line) == LINE_KEYS
    return out


@pytest.fixture
def examples(examples_dir: Path) -> tuple[Path, dict[str, Any]]:
    return examples_dir, json.loads((examples_dir / "expect.json").read_text())


def test_check_every_example_matches_expect(examples):
    folder, expect = examples
    files = [folder / f"{name}.json" for name in expect]
    proc = run("check", *map(str, files))
    assert proc.returncode == 1  # below_minimum is invalid
    out = lines(proc)
    assert [line["file"] for line in out] == list(map(str, files))
    for line, (name, want) in zip(out, expect.items(), strict=True):
        assert line["valid"] == want["valid"], (name, line["error"])
        if want["valid"]:
            assert line["error"] is None
            assert [[s["score"] for s in r["sides"]] for r in line["rounds"]] == want["scores"], name
            if "totals" in want:
                assert line["totals"] == want["totals"]
            if "ended_by" in want:
                assert [r["ended_by"] for r in line["rounds"]] == want["ended_by"]
        else:
            err = line["error"]
            assert set(err) == {"round", "event", "code", "message"}
            assert (err["code"], err["round"], err["event"]) == (want["code"], want["round"], want["event"])
    kinds = {Path(line["file"]).stem: line["kind"] for line in out}
    assert kinds["sheet_seed_example"] == "sheet"
    assert kinds["classic_stockout_game"] == "log"


def test_check_all_valid_exits_zero(examples):
    folder, _ = examples
    proc = run("check", str(folder / "sheet_seed_example.json"), str(folder / "goes_out_with_yes.json"))
    assert proc.returncode == 0, proc.stderr
    sheet, log = lines(proc)
    assert sheet["kind"] == "sheet" and sheet["totals"] == [3855, 615]
    assert sheet["rounds"][0]["sides"][0]["books"]["wild"] == {"count": 1, "bonus": 1500}
    assert log["kind"] == "log" and log["rounds"][0]["ended_by"] == "went_out"


def test_check_reads_standard_input(examples):
    folder, _ = examples
    data = (folder / "sheet_seed_example.json").read_bytes()
    proc = run("check", "-", stdin=data)
    assert proc.returncode == 0
    (line,) = lines(proc)
    assert line["file"] == "-" and line["kind"] == "sheet" and line["totals"] == [3855, 615]


def test_unreadable_and_non_json_files_are_invalid(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    proc = run("check", str(bad), str(tmp_path / "missing.json"), "-", stdin=b"")
    assert proc.returncode == 1
    out = lines(proc)
    assert len(out) == 3
    for line in out:
        assert line["valid"] is False and line["kind"] == "log"
        assert line["error"]["code"] == "BAD_FORMAT" and line["error"]["message"]
        assert line["rounds"] == [] and line["totals"] == []


def test_invalid_sheet_on_stdin_is_kind_sheet():
    sheet = {"format": "hand-and-foot-sheet/1", "rules": "canasta", "round": 1,
             "ended_by": "stock_out", "sides": [
                 {"clean_books": 0, "dirty_books": 0, "wild_books": 0, "red_threes": 1,
                  "table_points": 0, "held_points": 0, "went_out": False},
                 {"clean_books": 0, "dirty_books": 0, "wild_books": 0, "red_threes": 0,
                  "table_points": 0, "held_points": 0, "went_out": False}]}
    proc = run("check", "-", stdin=json.dumps(sheet).encode())
    assert proc.returncode == 1
    (line,) = lines(proc)
    assert line["kind"] == "sheet"
    assert line["error"] == {"round": 1, "event": None, "code": "SHEET_RED_THREES",
                             "message": line["error"]["message"]}


@pytest.mark.parametrize("args", [
    (),
    ("check",),
    ("verify", "x.json"),
    ("simulate", "--strategy", "clever"),
    ("simulate", "--players", "four"),
    ("simulate", "--players", "1"),
    ("simulate", "--rules", "klondike"),
])
def test_usage_errors_exit_two(args):
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == b""
    assert proc.stderr


def test_simulate_is_reproducible_and_checks_valid():
    args = ("simulate", "--rules", "classic", "--players", "4", "--seed", "11", "--rounds", "2")
    first, second = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    log = json.loads(first.stdout)
    assert log["format"] == "hand-and-foot-log/1" and len(log["rounds"]) == 2
    other = run("simulate", "--rules", "classic", "--players", "4", "--seed", "12", "--rounds", "2")
    assert other.stdout != first.stdout
    proc = run("check", "-", stdin=first.stdout)
    assert proc.returncode == 0
    (line,) = lines(proc)
    assert line["valid"] and line["kind"] == "log" and len(line["rounds"]) == 2


@pytest.mark.parametrize("args,players,sides", [
    (("--rules", "eleven", "--players", "6", "--sides", "3", "--strategy", "random"), 6, 3),
    (("--rules", "canasta", "--players", "4", "--individual"), 4, 4),
    (("--rules", "pagat", "--players", "3"), 3, 3),
])
def test_simulate_tables(args, players, sides):
    proc = run("simulate", *args, "--seed", "5", "--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    log = json.loads(proc.stdout)
    assert len(log["seats"]) == players
    check = run("check", "-", stdin=proc.stdout)
    assert check.returncode == 0, check.stdout
    (line,) = lines(check)
    assert len(line["rounds"][0]["sides"]) == sides


def test_check_document_dispatches_on_format(examples):
    from handfoot.checking import check_document

    folder, _ = examples
    sheet_text = (folder / "sheet_seed_example.json").read_text()
    assert check_document(sheet_text).kind == "sheet"
    assert check_document(sheet_text.encode()).totals == [3855, 615]
    log = json.loads((folder / "goes_out_with_yes.json").read_text())
    report = check_document(log)
    assert report.kind == "log" and report.valid and report.totals == [1155, -270]
    for doc, kind in [({"format": "hand-and-foot-sheet/2"}, "sheet"), ({"format": "x"}, "log"),
                      ({}, "log"), ([], "log"), ("{", "log"), (b"\xff", "log")]:
        report = check_document(doc)
        assert (report.kind, report.valid, report.error.code) == (kind, False, "BAD_FORMAT"), doc


def test_the_published_command_name_runs_the_same_command_line(examples):
    """formats.md names the command `python -m games.engine`; it stays, running `handfoot`'s."""
    folder, expect = examples
    files = [str(folder / f"{name}.json") for name in expect]
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    published = subprocess.run([sys.executable, "-m", "games.engine", "check", *files], cwd=REPO,
                               capture_output=True, timeout=120, env=env, check=False)
    assert published.returncode == run("check", *files).returncode
    assert published.stdout == run("check", *files).stdout
    simulated = subprocess.run(
        [sys.executable, "-m", "games.engine", "simulate", "--rules", "classic", "--players", "4",
         "--seed", "3"], cwd=REPO, capture_output=True, timeout=120, env=env, check=True)
    assert simulated.stdout == run("simulate", "--rules", "classic", "--players", "4",
                                   "--seed", "3").stdout

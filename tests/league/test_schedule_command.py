"""``manage.py schedule``: JSON shape and properties, text output, errors (no database)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args: str) -> str:
    out = StringIO()
    call_command("schedule", *args, stdout=out)
    return out.getvalue()


def run_json(*args: str) -> dict:
    return json.loads(run(*args, "--json"))


def test_json_shape_and_exact_design():
    data = run_json("--players", "8", "--rotations", "7", "--seed", "3")
    assert set(data) == {"rotations", "report"}
    assert len(data["rotations"]) == 7
    for rotation in data["rotations"]:
        assert set(rotation) == {"tables", "sit_out"}
        for table in rotation["tables"]:
            assert set(table) == {"seats", "sides", "first_dealer"}
            seats, sides = table["seats"], table["sides"]
            assert len(seats) == 4 and len(sides) == 2
            assert sides == [seats[0::2], seats[1::2]]  # partners opposite
            assert table["first_dealer"] in seats
        seated = sorted(p for t in rotation["tables"] for p in t["seats"])
        assert seated == list(range(1, 9))
    report = data["report"]
    assert report["partner_repeats"] == 0
    assert report["opponent_min"] == report["opponent_max"] == 2
    assert set(report["sit_outs"]) == {str(p) for p in range(1, 9)}
    assert sum(report["deals"].values()) == 14
    assert max(report["deals"].values()) - min(report["deals"].values()) <= 1


def test_json_is_reproducible_from_the_seed():
    args = ("--players", "14", "--rotations", "5", "--seed", "9")
    assert run_json(*args) == run_json(*args)
    assert run_json(*args) != run_json("--players", "14", "--rotations", "5", "--seed", "10")


def test_tables_of_six_and_sit_outs():
    data = run_json("--players", "10", "--rotations", "3", "--table-size", "6")
    for rotation in data["rotations"]:
        assert sorted(len(t["seats"]) for t in rotation["tables"]) == [4, 6]
        assert rotation["sit_out"] == []
    data = run_json("--players", "10", "--rotations", "5")
    assert all(len(r["sit_out"]) == 2 for r in data["rotations"])
    assert set(data["report"]["sit_outs"].values()) == {1}


@pytest.mark.parametrize("fmt", ["swiss", "round-robin", "progressive"])
def test_fixed_formats_keep_partners(fmt):
    data = run_json("--players", "12", "--rotations", "4", "--format", fmt, "--seed", "1")
    assert len(data["rotations"]) == 4
    for rotation in data["rotations"]:
        for table in rotation["tables"]:
            for side in table["sides"]:
                assert sorted(side) in ([p, p + 1] for p in range(1, 12, 2))


def test_text_output_is_readable():
    text = run("--players", "9", "--rotations", "2")
    assert "Rotation 1" in text and "Rotation 2" in text
    assert "table   1" in text and "sitting out" in text and "dealer" in text
    assert "Partner repeats: 0" in text


@pytest.mark.parametrize(
    "args,message",
    [
        (["--players", "3", "--rotations", "2"], "At least 4 players"),
        (["--players", "8", "--rotations", "0"], "At least one rotation"),
        (["--players", "8", "--rotations", "2", "--table-size", "5"], "4 or 6"),
        (["--players", "8", "--rotations", "2", "--format", "knockout"], "Unknown format"),
        (["--players", "9", "--rotations", "2", "--format", "swiss"], "even number"),
    ],
)
def test_bad_arguments_are_clear_errors(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_players_listed_by_number(tmp_path):
    data = run_json("--players", "2,5,7,11,12,13,20,31", "--rotations", "7", "--seed", "1")
    for rotation in data["rotations"]:
        seated = sorted(p for t in rotation["tables"] for p in t["seats"])
        assert seated == [2, 5, 7, 11, 12, 13, 20, 31]
    report = data["report"]
    assert set(report["sit_outs"]) == {"2", "5", "7", "11", "12", "13", "20", "31"}
    assert report["partner_repeats"] == 0 and report["opponent_max"] == 2
    assert report["one_way_pairs"] <= 8


def test_history_plans_the_night_against_earlier_nights(tmp_path):
    first = run_json("--players", "1,2,3,4,5,6,7,8,9,10", "--rotations", "4", "--seed", "1")
    night1 = tmp_path / "night1.json"
    night1.write_text(json.dumps(first))
    args = ("--players", "1,2,3,4,5,6,7,8,9,10", "--rotations", "4", "--seed", "2")
    alone = run_json(*args)
    aware = run_json(*args, "--history", str(night1))

    def partners(night):
        return {frozenset(s) for r in night["rotations"] for t in r["tables"] for s in t["sides"]}

    before = partners(first)
    assert len(partners(aware) & before) < len(partners(alone) & before)
    assert partners(aware).isdisjoint(before)  # 45 pairs, 16 + 16 partnerships: no repeat needed
    # a list of nights in one file is read the same way
    both = tmp_path / "season.json"
    both.write_text(json.dumps([first]))
    assert run_json(*args, "--history", str(both)) == aware


@pytest.mark.parametrize(
    "args,message",
    [
        (["--players", "1,2,x", "--rotations", "2"], "list of player numbers"),
        (["--players", "1,2,3,3,5", "--rotations", "2"], "listed twice"),
        (["--players", "8", "--rotations", "501"], "At most 500"),
        (["--players", "8", "--rotations", "2", "--history", "/nonexistent.json"], "does not exist"),
    ],
)
def test_bad_player_lists_and_history_are_clear_errors(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_history_that_is_not_the_commands_output_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"nights": 3}))
    with pytest.raises(CommandError, match="not this command's JSON output"):
        run("--players", "8", "--rotations", "2", "--history", str(bad))

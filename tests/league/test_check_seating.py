"""The independent seating checker (`league.seating.checker`, `manage.py check_seating`): it
accepts every seating the generator makes and refuses broken ones with the reason in words."""

import ast
import copy
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.seating import checker

CHECKER_FILE = Path(checker.__file__)


def generated(tmp_path, *args: str) -> Path:
    out = io.StringIO()
    call_command("schedule", *args, "--json", stdout=out)
    path = tmp_path / "seating.json"
    path.write_text(out.getvalue())
    return path


def check_file(path: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("check_seating", str(path), *args, stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), err.getvalue() + str(error)
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("args", [
    ("--players", "8", "--rotations", "7", "--format", "rotating"),
    ("--players", "9", "--rotations", "9", "--format", "rotating"),
    ("--players", "13", "--rotations", "6", "--format", "rotating", "--seed", "3"),
    ("--players", "16", "--rotations", "15", "--format", "rotating"),
    ("--players", "17", "--rotations", "4", "--format", "rotating"),
    ("--players", "12", "--rotations", "5", "--format", "swiss"),
    ("--players", "10", "--rotations", "3", "--format", "progressive"),
    ("--players", "12", "--rotations", "4", "--format", "round-robin"),
    ("--players", "12", "--rotations", "4", "--table-size", "6"),
    ("--players", "12", "--rotations", "4", "--table-size", "6", "--six-sides", "3"),
    ("--players", "40", "--rotations", "10", "--format", "rotating"),
])
def test_every_generated_seating_is_sound_and_its_report_true(tmp_path, args):
    status, out, err = check_file(generated(tmp_path, *args))
    assert (status, err) == (0, "")
    assert "The seating is sound." in out


def broken(tmp_path, change) -> Path:
    data = json.loads(generated(tmp_path, "--players", "9", "--rotations", "4").read_text())
    change(data)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    return path


def _seat_twice(d):
    d["rotations"][0]["tables"][0]["seats"][0] = d["rotations"][0]["tables"][1]["seats"][0]


def _seated_and_out(d):
    d["rotations"][0]["sit_out"] = [d["rotations"][0]["tables"][0]["seats"][0]]


def _five_seats(d):
    table = d["rotations"][1]["tables"][0]
    table["seats"].append(d["rotations"][1]["sit_out"][0])
    d["rotations"][1]["sit_out"] = []


def _seat_in_no_side(d):
    d["rotations"][0]["tables"][0]["sides"][0] = d["rotations"][0]["tables"][0]["sides"][0][:1]


def _unequal_sides(d):
    sides = d["rotations"][0]["tables"][0]["sides"]
    sides[0].append(sides[1].pop())


def _dealer_elsewhere(d):
    d["rotations"][0]["tables"][0]["first_dealer"] = d["rotations"][0]["tables"][1]["seats"][0]


def _unfair_sit_outs(d):
    """Rotation 2's sitter swapped with rotation 1's: the same player sits out twice."""
    first, second = d["rotations"][0], d["rotations"][1]
    twice, other = first["sit_out"][0], second["sit_out"][0]
    for table in second["tables"]:
        table["seats"] = [other if p == twice else p for p in table["seats"]]
        table["sides"] = [[other if p == twice else p for p in s] for s in table["sides"]]
        if table["first_dealer"] == twice:
            table["first_dealer"] = other
    second["sit_out"] = [twice]


def _report_lies_about_partners(d):
    d["report"]["partner_repeats"] += 2


def _report_lies_about_sit_outs(d):
    player = next(iter(d["report"]["sit_outs"]))
    d["report"]["sit_outs"][player] += 1


def _report_lies_about_deals(d):
    player = next(iter(d["report"]["deals"]))
    d["report"]["deals"][player] += 3


def _player_missing(d):
    d["rotations"][2]["sit_out"] = []


@pytest.mark.parametrize(("change", "words"), [
    (_seat_twice, "is there 2 times"),
    (_seated_and_out, "is there 2 times"),
    (_five_seats, "has 5 seats; a table has 4 or 6"),
    (_seat_in_no_side, "do not hold exactly the players seated"),
    (_unequal_sides, "not two or three equal sides"),
    (_dealer_elsewhere, "does not sit at it"),
    (_unfair_sit_outs, "sit-outs differ by at most one"),
    (_report_lies_about_partners, "The report claims"),
    (_report_lies_about_sit_outs, "sit-outs for player"),
    (_report_lies_about_deals, "first deals for player"),
    (_player_missing, "is neither seated nor sitting out"),
])
def test_a_broken_seating_is_refused_with_the_reason_in_words(tmp_path, change, words):
    status, _, err = check_file(broken(tmp_path, change), "--players", "9")
    assert status == 1
    assert words in err
    assert "not sound" in err


def test_a_csv_typed_by_hand_is_checked_with_partners_opposite(tmp_path):
    rows = ["rotation,table,seat,player,dealer"]
    rows += [f"1,1,{s},{p},{'yes' if s == 1 else ''}" for s, p in enumerate((1, 2, 3, 4), 1)]
    rows += [f"2,1,{s},{p},{'yes' if s == 1 else ''}" for s, p in enumerate((1, 3, 2, 4), 1)]
    path = tmp_path / "night.csv"
    path.write_text("\n".join(rows) + "\n")
    status, out, _ = check_file(path, "--players", "4")
    assert status == 0
    assert "Partner repeats: 0" in out
    again = rows + [f"3,1,{s},{p},{'yes' if s == 1 else ''}" for s, p in enumerate((1, 2, 3, 4), 1)]
    path.write_text("\n".join(again) + "\n")
    status, out, _ = check_file(path, "--players", "4")
    assert status == 0 and "Partner repeats: 2" in out  # sound, but the repeats are counted


@pytest.mark.parametrize(("text", "words"), [
    ("not json", "not JSON"),
    ('{"tables": []}', 'no "rotations" list'),
    ('{"rotations": [{"tables": [{"seats": [1, "two", 3, 4]}]}]}', "whole number"),
    ('{"rotations": [{"tables": [{"seats": [1, 2, 3, 99999]}]}]}', "between 1 and"),
])
def test_a_file_that_is_no_seating_says_why(tmp_path, text, words):
    path = tmp_path / "x.json"
    path.write_text(text)
    status, _, err = check_file(path)
    assert status == 1 and words in err


def test_a_csv_row_that_is_not_numbers_says_which_line(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("rotation,table,seat,player\n1,1,1,1\n1,1,two,2\n")
    status, _, err = check_file(path)
    assert status == 1 and "Line 3" in err


def test_the_checker_shares_no_code_with_the_generator():
    tree = ast.parse(CHECKER_FILE.read_text())
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert not any(name.startswith(("league", ".")) for name in imported), imported


def test_the_checkers_figures_equal_the_generators_report(tmp_path):
    data = json.loads(generated(tmp_path, "--players", "13", "--rotations", "8").read_text())
    rotations, report = checker.seating_from_json(json.dumps(data))
    figures = checker.seating_check(rotations, report=copy.deepcopy(report)).figures()
    for key in ("partner_repeats", "opponent_min", "opponent_max"):
        assert figures[key] == report[key]
    assert {str(p): n for p, n in figures["sit_outs"].items()} == report["sit_outs"]
    assert {str(p): n for p, n in figures["deals"].items()} == report["deals"]

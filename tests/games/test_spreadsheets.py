"""Recognising a club's spreadsheets, without a database: headers, dates, names, problems."""

import datetime

import pytest

from games import spreadsheets as s

TODAY = datetime.date(2026, 6, 1)


@pytest.mark.parametrize(("header", "kind"), [
    ("Date", "date"), ("NIGHT", "date"), ("Table", "table"), ("Team 1", "s1:team"),
    ("Pair 2 Player 1", "s2:player:1"), ("Side 1 R3", "s1:round:3"), ("Total Team 2", "s2:total"),
    ("R1", "round:1"), ("Round 2", "round:2"), ("hand 4", "round:4"), ("Points", "score"),
    ("Total", "total"), ("Red 3's", "red_threes"), ("Went out", "went_out"), ("Tisch", None),
])
def test_the_usual_headers_are_recognised_in_any_case(header, kind):
    assert s.header_kind(header) == kind


@pytest.mark.parametrize(("text", "day_first", "date"), [
    ("2026-03-04", None, datetime.date(2026, 3, 4)),
    ("3/4/2026", False, datetime.date(2026, 3, 4)),
    ("3/4/2026", True, datetime.date(2026, 4, 3)),
    ("25/3/2026", None, datetime.date(2026, 3, 25)),
    ("4 Mar 2026", None, datetime.date(2026, 3, 4)),
    ("March 4, 2026", None, datetime.date(2026, 3, 4)),
])
def test_dates_as_clubs_write_them(text, day_first, date):
    assert s.parse_date(text, day_first=day_first) == date


def test_an_ambiguous_date_without_the_clubs_order_is_a_problem_in_words():
    with pytest.raises(s.CellError, match="either way"):
        s.parse_date("3/4/2026", day_first=None)
    assert s.date_order_hint(["3/4/2026", "3/25/2026"]) is False


def test_names_first_last_or_last_first():
    assert s.pair_names("Lee, Ann & Ray, Bob") == ["Ann Lee", "Bob Ray"]
    assert s.pair_names("Ann Lee and Bob Ray") == ["Ann Lee", "Bob Ray"]
    with pytest.raises(s.CellError, match="two players"):
        s.pair_names("Ann Lee")


def test_a_total_that_is_not_the_sum_of_its_rounds_names_its_cell():
    sheet = s.Sheet("Night", [
        ["Date", "Table", "Team", "R1", "R2", "R3", "R4", "Total"],
        ["2026-03-04", 1, "Ann Lee & Bob Ray", 100, 100, 100, 100, 405],
        ["2026-03-04", 1, "Cat Ng & Dan Oak", 50, 50, 50, 50, 200],
    ])
    games, problems = s.sheets_games([sheet], today=TODAY)
    assert len(games) == 1
    assert [p.words() for p in problems] == [
        "Sheet “Night”, row 2, column H (Total): the total is 405 but the rounds add up to 400."]


def test_a_player_twice_at_a_table_and_a_future_date_are_problems():
    sheet = s.Sheet("Night", [
        ["Date", "Table", "Team 1", "Team 2", "Team 1 Total", "Team 2 Total"],
        ["2026-07-04", 1, "Ann Lee & Bob Ray", "Ann Lee & Dan Oak", 500, 300],
    ])
    words = [p.words() for p in s.sheets_games([sheet], today=TODAY)[1]]
    assert "Sheet “Night”, row 2: the night's date, 4 Jul 2026, is in the future." in words
    assert "Sheet “Night”, row 2, column D (Team 2): “Ann Lee” is twice at this table." in words

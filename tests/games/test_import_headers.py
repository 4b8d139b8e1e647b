"""Issue 42: more of the headers clubs write are recognised without a mapping form, a sheet's
date is taken from its tab or a title cell without a year ("Oct 13", the season's year), and the
command line import uses a mapping saved on the page (--profile) or given inline (--map)."""

import datetime

import pytest
from django.core.management import call_command

from games.models import ImportProfile
from games.spreadsheets import Sheet, header_kind, sheets_games
from tests.factories import ClubFactory

TODAY = datetime.date(2026, 3, 1)


@pytest.mark.parametrize(("header", "kind"), [
    ("Team 1", "s1:team"), ("Team 2", "s2:team"), ("R1 T1", "s1:round:1"),
    ("R3 T2", "s2:round:3"), ("Pair 1", "s1:team"), ("Side A", "s1:team"),
    ("Side B R2", "s2:round:2"), ("Player A", "player:1"), ("Player B", "player:2"),
    ("Score 1", "s1:total"), ("Score 2", "s2:total"), ("Us", "s1:total"), ("Them", "s2:total"),
    ("Rd 1", "round:1"), ("Game 1", "round:1"), ("Table", "table"), ("Game", "rotation"),
])
def test_the_headers_clubs_write_are_recognised(header, kind):
    assert header_kind(header) == kind


ROWS = [["Table", "Team 1", "Team 2", "Us", "Them"],
        [1, "Ann Lee & Bob Ray", "Cat Ng & Dan Oak", 3500, 2100]]


def test_a_tab_named_without_a_year_takes_the_seasons_year():
    games, problems = sheets_games([Sheet("Oct 13", ROWS)], today=TODAY, year=2025)
    assert problems == [] and [g.date for g in games] == [datetime.date(2025, 10, 13)]
    assert games[0].sides[0].total == 3500 and games[0].sides[1].total == 2100


def test_a_title_cell_dates_the_sheet_and_without_a_season_the_last_such_day_is_taken():
    sheet = Sheet("Sheet1", [["League night, Oct 13"], *ROWS])
    games, problems = sheets_games([sheet], today=TODAY)
    assert problems == [] and [g.date for g in games] == [datetime.date(2025, 10, 13)]


CSV = (b"When,Table,Team 1,Team 2,Mine,Yours\n"
       b"2025-10-13,1,Ann Lee & Bob Ray,Cat Ng & Dan Oak,3500,2100\n")


def run(tmp_path, *args):
    path = tmp_path / "club.csv"
    path.write_bytes(CSV)
    try:
        call_command("import_results", str(path), "--club", "c", "--dry-run", *args)
    except SystemExit as exit_:
        return exit_.code
    return 0


@pytest.mark.django_db
def test_the_command_line_reads_headers_by_an_inline_map_or_a_profile_saved_on_the_page(
    tmp_path, capsys
):
    ClubFactory(slug="c")
    assert run(tmp_path) == 1  # When, Mine, Yours: not headers the import knows
    assert "not one the import knows" in capsys.readouterr().err
    assert run(tmp_path, "--map", "When=date, Mine=s1:total, Yours=s2:total") == 0
    assert "1 games on 1 nights" in capsys.readouterr().out
    told = ClubFactory(slug="told")
    ImportProfile.objects.create(club=told, header_maps={
        "any": {"when": "date", "mine": "s1:total", "yours": "s2:total"}})
    assert run(tmp_path, "--profile", "told") == 0
    assert run(tmp_path, "--map", "When=the date") == 1
    assert "--map takes Header=kind pairs" in capsys.readouterr().err

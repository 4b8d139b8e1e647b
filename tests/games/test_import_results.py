"""Past results imported from spreadsheets (six layouts) through `manage.py import_results`:
each gives the standings and ratings of the same results entered at the tables, a second import
changes nothing, and one bad cell refuses the whole file by its row and column."""

import datetime
import io
import json

import pandas as pd
import pytest
from django.core.management import call_command
from django.utils import timezone

from analytics.models import PlayerStats
from analytics.statistics.services import statistics_recompute
from games.models import ResultImport, ResultVersion, RoundResult
from league.models import Club, Event, Game, Player
from tests.factories import ClubFactory
from tests.games import import_helpers as h

pytestmark = pytest.mark.django_db


def run(tmp_path, name, data, *args):
    path = tmp_path / name
    path.write_bytes(data)
    try:
        call_command("import_results", str(path), *args)
    except SystemExit as exit_:
        return exit_.code
    return 0


@pytest.fixture(scope="module")
def past():
    return h.past_nights()


@pytest.fixture
def reference(past):
    club = ClubFactory(name="At the tables")
    h.enter_at_tables(club, past)
    return club


@pytest.mark.parametrize("name", list(h.LAYOUTS))
def test_each_layout_imports_with_the_standings_and_ratings_of_the_tables(
        tmp_path, past, reference, name, capsys):
    data = h.LAYOUTS[name](past)
    args = ["--club", "imported", "--create-club", "Imported club", "--month-first"]
    assert run(tmp_path, name, data, *args) == 0, capsys.readouterr()
    club = Club.objects.get(slug="imported")
    h.recompute(club)
    assert Game.objects.filter(table__rotation__event__club=club).count() == len(past)
    detail = name in h.WITH_DETAIL
    assert h.standings_by_date(club, detail=detail) == h.standings_by_date(reference, detail=detail)
    assert h.ratings_by_name(club) == h.ratings_by_name(reference)
    version = ResultVersion.objects.filter(game__table__rotation__event__club=club).first()
    assert version.status == "confirmed" and name in version.imported_from
    assert "row" in version.imported_from

    # The same file again changes nothing, and says so.
    before = ResultVersion.objects.count(), Player.objects.filter(club=club).count()
    assert run(tmp_path, name, data, *args) == 0
    assert "already imported" in capsys.readouterr().out
    assert (ResultVersion.objects.count(), Player.objects.filter(club=club).count()) == before


def test_detail_is_kept_and_totals_only_results_are_marked_without_detail(tmp_path, past):
    club = ClubFactory(slug="c")
    assert run(tmp_path, "d.ods", h.round_rows_detail(past), "--club", "c") == 0
    assert not RoundResult.objects.filter(game__table__rotation__event__club=club,
                                          detail=False).exists()
    assert RoundResult.objects.filter(game__table__rotation__event__club=club,
                                      clean_books__gt=0).exists()
    other = ClubFactory(slug="t")
    assert run(tmp_path, "t.csv", h.game_row_totals(past), "--club", "t") == 0
    rows = RoundResult.objects.filter(game__table__rotation__event__club=other)
    assert set(rows.values_list("detail", "round_number")) == {(False, 0)}
    assert set(ResultVersion.objects.filter(game__table__rotation__event__club=other)
               .values_list("detail", flat=True)) == {False}
    # Statistics need the detail: the totals-only club has none, the detailed one has them.
    statistics_recompute(club_id=other.pk)
    statistics_recompute(club_id=club.pk)
    assert not PlayerStats.objects.filter(club=other).exists()
    assert PlayerStats.objects.filter(club=club).count() == len(h.NAMES)


def test_one_bad_cell_refuses_the_file_by_its_row_and_column_and_stores_nothing(
        tmp_path, past, capsys):
    ClubFactory(slug="c")
    rows = [line.split(",") for line in h.game_row_totals(past).decode().splitlines()]
    rows[3][5] = "1233"  # row 4 of the spreadsheet, column F (Team 1 Total)
    data = h.csv_bytes(rows)
    assert run(tmp_path, "bad.csv", data, "--club", "c", "--json") == 1
    report = json.loads(capsys.readouterr().out)
    assert report["importable"] is False
    [problem] = report["problems"]
    assert (problem["row"], problem["column"]) == (4, "F (Team 1 Total)")
    assert "1,233 is not a multiple of 5" in problem["words"]
    assert not Event.objects.filter(club__slug="c").exists()
    assert not ResultImport.objects.exists() and not Player.objects.filter(club__slug="c").exists()


def test_a_dry_run_checks_and_stores_nothing(tmp_path, past, capsys):
    ClubFactory(slug="c")
    assert run(tmp_path, "a.csv", h.game_row_totals(past), "--club", "c", "--dry-run",
               "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["importable"] and report["games"] == len(past)
    assert len(report["new_players"]) == len(h.NAMES)
    assert not Event.objects.filter(club__slug="c").exists()


def test_detail_the_engine_refuses_is_refused_as_at_the_table(tmp_path, past, capsys):
    ClubFactory(slug="c")
    data = h.round_rows_detail(past[:1])
    # Too many wild books for the deck: the engine's SHEET_BOOKS check.
    frame = pd.read_excel(io.BytesIO(data), engine="odf")
    frame.loc[0, "Wild"] = 9
    rows = [list(frame.columns)] + frame.astype(object).values.tolist()
    assert run(tmp_path, "x.ods", h.ods_bytes(rows), "--club", "c") == 1
    err = capsys.readouterr().err
    assert "row 2" in err and "round 1's detail is refused" in err
    assert not Event.objects.filter(club__slug="c").exists()


def test_close_names_are_offered_never_merged(tmp_path, past, capsys):
    club = ClubFactory(slug="c")
    Player.objects.create(club=club, name="Ann Lea", slug="ann-lea")
    assert run(tmp_path, "a.csv", h.game_row_totals(past), "--club", "c") == 1
    assert "\u201cAnn Lee\u201d is not a player of the club, but close to \u201cAnn Lea\u201d" \
        in capsys.readouterr().err
    assert Player.objects.filter(club=club).count() == 1


def test_ambiguous_dates_need_the_clubs_order_which_is_remembered(tmp_path, capsys):
    ClubFactory(slug="c")
    year = timezone.localdate().year - 1
    data = h.csv_bytes([["Date", "Table", "Team 1", "Team 2", "Team 1 Total", "Team 2 Total"],
                        [f"3/4/{year}", 1, "Ann Lee & Bob Ray", "Cat Ng & Dan Oak", 500, 300]])
    assert run(tmp_path, "u.csv", data, "--club", "c") == 1
    assert "could be 3/4 either way" in capsys.readouterr().err
    assert run(tmp_path, "u.csv", data, "--club", "c", "--day-first") == 0
    assert Event.objects.get(club__slug="c").date == datetime.date(year, 4, 3)
    again = h.csv_bytes([["Date", "Table", "Team 1", "Team 2", "Team 1 Total", "Team 2 Total"],
                         [f"5/6/{year}", 1, "Ann Lee & Bob Ray", "Cat Ng & Dan Oak", 50, 30]])
    assert run(tmp_path, "v.csv", again, "--club", "c") == 0  # the club's order, remembered
    assert Event.objects.filter(club__slug="c", date=datetime.date(year, 6, 5)).exists()

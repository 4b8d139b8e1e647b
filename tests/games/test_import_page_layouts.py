"""Issue 27's "Done when" through the director's page, for each of the six layouts (one row per
game with "A & B" pairs, one row per side with US dates and "Last, First" names, one row per
round and side, a workbook with a sheet per night, a totals-only file, a file with detail, ODS):
upload → preview → import; its standings and ratings equal those of the same results entered
at the tables; the same file again changes nothing; one bad cell refuses the file by that cell's
row and column, through the page and the command, and nothing is stored."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from games.models import ResultImport, ResultVersion
from league.models import Club, Event, Player
from tests.factories import ClubFactory, MembershipFactory
from tests.games import import_helpers as h

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def past():
    return h.past_nights()


@pytest.fixture
def reference(past):
    club = ClubFactory(name="At the tables")
    h.enter_at_tables(club, past)
    return club


@pytest.fixture
def director(client):
    membership = MembershipFactory(club=ClubFactory(slug="c", name="Imported"), role="director")
    client.force_login(membership.user)
    return membership


def url():
    return reverse("director-results-import", args=["c"])


def preview(client, name, data, *, follow=False):
    return client.post(
        url(),
        {"file": SimpleUploadedFile(name, data), "action": "preview", "order": "month"},
        follow=follow,
    )


def commit(client, token):
    return client.post(url(), {"token": token, "action": "commit", "order": "month"}, follow=True)


def test_the_layouts_are_six_and_different(past):
    files = {name: make(past) for name, make in h.LAYOUTS.items()}
    assert len(set(files.values())) == len(files) == 6
    assert {n.rsplit(".", 1)[1] for n in files} == {"csv", "xlsx", "ods"}


@pytest.mark.parametrize("name", list(h.LAYOUTS))
def test_each_layout_through_the_page_gives_the_standings_and_ratings_of_the_tables(
    client, director, past, reference, name
):
    data = h.LAYOUTS[name](past)
    page = preview(client, name, data)
    text = page.content.decode()
    assert page.status_code == 200, text
    assert "8 games on 2 nights, 8 new players to import" in text
    assert not Event.objects.filter(club=director.club).exists()  # a preview stores nothing
    done = commit(client, page.context["token"])
    assert "imported." in done.content.decode()
    club = director.club
    h.recompute(club)
    detail = name in h.WITH_DETAIL
    assert h.standings_by_date(club, detail=detail) == h.standings_by_date(reference, detail=detail)
    assert h.ratings_by_name(club) == h.ratings_by_name(reference)
    versions = ResultVersion.objects.filter(game__table__rotation__event__club=club)
    assert versions.count() == len(past)
    assert set(versions.values_list("detail", flat=True)) == {detail}
    assert all(name in v.imported_from for v in versions)

    before = ResultVersion.objects.count(), Player.objects.filter(club=club).count()
    again = preview(client, name, data, follow=True)
    assert "already imported" in again.content.decode()
    assert "Import 8 games" not in again.content.decode()
    assert (ResultVersion.objects.count(), Player.objects.filter(club=club).count()) == before


def _one_bad_score(past):
    """The same nights with one side's round score 1,233 (not a multiple of 5)."""
    bad = [
        h.PastGame(g.date, g.rotation, g.table, g.sides, list(g.sheets), list(g.scores))
        for g in past
    ]
    first, second = bad[2].scores[1]
    bad[2].scores[1] = (first + 3, second)
    return bad, f"{first + 3:,}", f"{sum(s[0] for s in bad[2].scores):,}"


@pytest.mark.parametrize("name", list(h.LAYOUTS))
def test_one_bad_cell_is_refused_by_its_row_and_column_through_the_page_and_the_command(
    client, director, past, tmp_path, capsys, name
):
    bad, score, total = _one_bad_score(past)
    data = h.LAYOUTS[name](bad)
    page = preview(client, name, data)
    plan = page.context["plan"]
    assert plan.problems and not plan.importable
    for problem in plan.problems:
        assert problem.row is not None and problem.column is not None, problem.words()
        assert (
            f"{score} is not a multiple of 5" in problem.message
            or total in problem.message
            or f"written as {score.replace(',', '')}" in problem.message
        ), problem.words()
        assert f"row {problem.row}, column {problem.column}" in page.content.decode()
    assert "Import 8 games" not in page.content.decode()
    refused = client.post(
        url(), {"token": page.context["token"], "action": "commit", "order": "month"}, follow=True
    )
    assert refused.status_code == 200 and "Nothing was imported" in refused.content.decode()
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(SystemExit) as exit_:
        call_command("import_results", str(path), "--club", "c", "--month-first", "--json")
    assert exit_.value.code == 1
    out = capsys.readouterr().out
    assert (
        f"{score} is not a multiple of 5" in out
        or f"{total} is not a multiple of 5" in out
        or f"written as {score.replace(',', '')}" in out
    )
    assert not Event.objects.filter(club=director.club).exists()
    assert not ResultImport.objects.exists()
    assert not Player.objects.filter(club=director.club).exists()
    assert Club.objects.filter(slug="c").exists()

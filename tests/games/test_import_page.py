"""The director's import page: upload → preview → import, headers it does not know mapped once
(and remembered), close names chosen, a bad cell shown by row and column, directors only."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import ImportProfile, ResultVersion
from league.models import Event, Player
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games import import_helpers as h

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    membership = MembershipFactory(club=ClubFactory(slug="c"))
    client.force_login(membership.user)
    return membership


def upload(client, name, data, *, follow=False):
    return client.post(reverse("director-results-import", args=["c"]),
                       {"file": SimpleUploadedFile(name, data), "action": "preview"}, follow=follow)


def test_upload_preview_then_import_and_the_same_file_again_changes_nothing(client, director):
    past = h.past_nights()
    page = upload(client, "s.xlsx", h.sheet_per_night(past))
    text = page.content.decode()
    assert page.status_code == 200 and "8 games on 2 nights, 8 new players to import" in text
    assert "Scores only (counted in standings and ratings, not in statistics)" in text
    assert not Event.objects.filter(club=director.club).exists()
    token = page.context["token"]
    done = client.post(reverse("director-results-import", args=["c"]),
                       {"token": token, "action": "commit"}, follow=True)
    assert "imported." in done.content.decode()
    assert ResultVersion.objects.filter(game__table__rotation__event__club=director.club,
                                        status="confirmed").count() == len(past)
    again = upload(client, "s.xlsx", h.sheet_per_night(past), follow=True)
    assert "already imported" in again.content.decode()
    assert ResultVersion.objects.count() == len(past)


def test_a_bad_cell_is_shown_by_row_and_column_and_nothing_is_stored(client, director):
    rows = [line.split(",") for line in h.game_row_totals(h.past_nights()).decode().splitlines()]
    rows[5][6] = "12x"
    page = upload(client, "bad.csv", h.csv_bytes(rows))
    assert "Sheet “bad”, row 6, column G (Team 2 Total): “12x” is not a number." in \
        page.content.decode()
    assert "Import 8 games" not in page.content.decode()
    assert not Event.objects.exists()


def test_an_unknown_header_is_mapped_once_and_remembered(client, director):
    rows = [line.split(",") for line in h.game_row_totals(h.past_nights()).decode().splitlines()]
    rows[0][1] = "Tisch"
    page = upload(client, "t.csv", h.csv_bytes(rows))
    assert page.context["plan"].unknown_headers == ["Tisch"]
    mapped = client.post(reverse("director-results-import", args=["c"]),
                         {"token": page.context["token"], "action": "map", "header": "Tisch",
                          "kind-0": "table"})
    assert not mapped.context["plan"].problems
    assert ImportProfile.objects.get(club=director.club).header_maps
    # The next file with the same headers needs no help.
    rows[1][5] = "5"
    again = upload(client, "t2.csv", h.csv_bytes(rows))
    assert again.context["plan"].unknown_headers == [] and not again.context["plan"].problems


def test_a_close_name_is_chosen_by_the_director(client, director):
    lea = Player.objects.create(club=director.club, name="Ann Lea", slug="ann-lea")
    page = upload(client, "a.csv", h.game_row_totals(h.past_nights()))
    assert "close to “Ann Lea”" in page.content.decode()
    chosen = client.post(reverse("director-results-import", args=["c"]),
                         {"token": page.context["token"], "action": "commit",
                          "close_name": "Ann Lee", "name-0": str(lea.pk)}, follow=True)
    assert "imported." in chosen.content.decode()
    assert not Player.objects.filter(club=director.club, name="Ann Lee").exists()
    assert Player.objects.filter(club=director.club).count() == len(h.NAMES)


def test_only_the_clubs_directors_may_import(client):
    ClubFactory(slug="c")
    client.force_login(UserFactory())
    assert client.get(reverse("director-results-import", args=["c"])).status_code == 403


def test_an_upload_too_large_is_refused_in_words(client, director, monkeypatch):
    from games.services import imports

    monkeypatch.setattr(imports, "MAX_IMPORT_BYTES", 1_000_000)
    page = upload(client, "big.csv", b"x" * 1_000_001)
    assert page.status_code == 400 and "larger than 1 MB" in page.content.decode()


def test_the_import_runs_as_a_job_whose_page_says_what_was_imported(client, director):
    page = upload(client, "s.xlsx", h.sheet_per_night(h.past_nights()))
    started = client.post(reverse("director-results-import", args=["c"]),
                          {"token": page.context["token"], "action": "commit"})
    assert started.status_code == 302 and "/import/" in started.url
    done = client.get(started.url)
    text = done.content.decode()
    assert "8 games on 2 nights, 8 new players imported." in text
    assert done.context["job"].total == 8  # the bar counts the file's games
    # The form sent again: the file, once imported, is no longer kept; nothing is stored twice.
    again = client.post(reverse("director-results-import", args=["c"]),
                        {"token": page.context["token"], "action": "commit"})
    assert again.status_code == 400
    assert ResultVersion.objects.count() == 8


def test_a_file_no_longer_kept_is_refused_in_words_and_nothing_is_stored(client, director):
    page = upload(client, "s.xlsx", h.sheet_per_night(h.past_nights()))
    from games.services import imports

    imports.upload_forget(club=director.club, token=page.context["token"])
    refused = client.post(reverse("director-results-import", args=["c"]),
                          {"token": page.context["token"], "action": "commit"})
    assert refused.status_code == 400
    assert "Choose a spreadsheet" in refused.content.decode()
    assert not Event.objects.exists()


def test_another_clubs_director_cannot_follow_the_import(client, director):
    page = upload(client, "s.xlsx", h.sheet_per_night(h.past_nights()))
    started = client.post(reverse("director-results-import", args=["c"]),
                          {"token": page.context["token"], "action": "commit"})
    other = MembershipFactory(club=ClubFactory(slug="d"))
    client.force_login(other.user)
    job_id = started.url.rstrip("/").rsplit("/", 1)[-1]
    assert client.get(started.url).status_code == 403
    assert client.get(reverse("director-results-import-job", args=["d", job_id])).status_code == 404

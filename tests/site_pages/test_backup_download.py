"""The club's full backup downloaded by its directors from the pages: a button on the director's
club page starts a job (its progress bar, then a link), the file is the club's JSON export and
restores as a new club; only that club's directors see the button, the page or the file."""

import json

import pytest
from django.urls import reverse

from games.models import ResultVersion
from games.services.paper import result_enter_paper
from jobs.models import Job
from league.models import Club
from site_pages.backup import FORMAT, club_import
from tests.factories import MembershipFactory, UserFactory
from tests.site.factories import games_of, seated_event
from tests.site_pages.test_backup import empty_the_database

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def backups(settings, tmp_path):
    settings.CLUB_BACKUP_DIR = tmp_path
    return tmp_path


@pytest.fixture
def club():
    event = seated_event(players=8, name="Tuesday night")
    director = MembershipFactory(club=event.club, role="director").user
    result_enter_paper(
        game=games_of(event)[0], user=director, expected_revision=0, totals=[4125, 2310]
    )
    return event.club, director


def download(client, club):
    started = client.post(reverse("director-club-backup-start", args=[club.slug]))
    assert started.status_code == 302
    page = client.get(started["Location"])
    return started["Location"], page


def test_a_director_downloads_the_clubs_backup_as_json(client, club, backups):
    club, director = club
    client.force_login(director)
    page = client.get(reverse("director-club", args=[club.slug])).content.decode()
    assert "Download the club's full backup (JSON)" in page
    location, page = download(client, club)
    text = page.content.decode()
    assert page.status_code == 200 and "Download the backup (" in text
    job = Job.objects.get(kind="club-backup")
    file = client.get(reverse("director-club-backup-download", args=[club.slug, job.pk]))
    assert file["Content-Type"] == "application/json"
    assert f'filename="{club.slug}-backup.json"' in file["Content-Disposition"]
    data = json.loads(b"".join(file.streaming_content))
    assert data["format"] == FORMAT and data["club"] == club.slug
    models = {o["model"] for o in data["objects"]}
    assert {"league.club", "league.player", "league.event", "games.resultversion"} <= models
    assert not any(m.startswith("analytics.") for m in models)
    # The file is the whole club: gone here, it comes back with its confirmed result.
    empty_the_database()
    restored = club_import(data=data, link_accounts=True).club
    assert restored.slug == club.slug
    assert ResultVersion.objects.get(game__table__rotation__event__club=restored).totals == [
        4125,
        2310,
    ]


def test_asked_again_while_nothing_changed_the_same_backup_answers(client, club, backups):
    club, director = club
    client.force_login(director)
    first, _ = download(client, club)
    again, _ = download(client, club)
    assert first == again and Job.objects.count() == 1
    assert len(list(backups.iterdir())) == 1
    MembershipFactory(club=club, role="scorer")  # not part of what changes the record
    from league.services.players import player_create

    player_create(club=club, name="New Player")
    newer, _ = download(client, club)
    assert newer != first and Job.objects.count() == 2


def test_only_the_clubs_directors_get_the_button_the_page_or_the_file(client, club):
    club, director = club
    client.force_login(director)
    location, _ = download(client, club)
    job = Job.objects.get(kind="club-backup")
    file_url = reverse("director-club-backup-download", args=[club.slug, job.pk])
    other_club = MembershipFactory(role="director")
    for user in (UserFactory(), MembershipFactory(club=club, role="scorer").user, other_club.user):
        client.force_login(user)
        assert (
            client.post(reverse("director-club-backup-start", args=[club.slug])).status_code == 403
        )
        assert client.get(location).status_code == 403
        assert client.get(file_url).status_code == 403
    # Another club's director asking under their own club's address gets no one else's backup.
    client.force_login(other_club.user)
    elsewhere = reverse("director-club-backup-download", args=[other_club.club.slug, job.pk])
    assert client.get(elsewhere).status_code == 404
    client.logout()
    assert client.get(file_url).status_code == 302  # to the login page
    assert Club.objects.count() == 2

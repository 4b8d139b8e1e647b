"""The director's import of a night's move logs on a page: the files go to a job, the page shows
its bar and then what became of each file in words (no codes), directors only."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import Submission
from tests.factories import MembershipFactory, UserFactory
from tests.games.test_bulk_import import event_with_games, log_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(client):
    event = event_with_games(2)
    client.force_login(MembershipFactory(club=event.club).user)
    return event


def send(client, event, files):
    uploads = [SimpleUploadedFile(name, raw, content_type="application/json") for name, raw in files]
    return client.post(reverse("director-logs-import", args=[event.slug]), {"logs": uploads})


def test_the_logs_are_imported_by_a_job_and_each_file_is_told_in_words(client, event):
    sent = send(client, event, [log_file(0), ("broken.json", b"{not json"), log_file(1)])
    assert sent.status_code == 302 and "/logs/" in sent.url
    page = client.get(sent.url)
    text = page.content.decode()
    assert "2 of 3 files imported; 1 could not be." in text
    assert "Imported: rotation 1, table 1." in text and "Imported: rotation 1, table 2." in text
    assert "BAD_FORMAT" not in text and "submission" not in text
    assert Submission.objects.filter(game__table__rotation__event=event).count() == 2
    again = client.get(client.post(reverse("director-logs-import", args=[event.slug]),
                                   {"logs": [SimpleUploadedFile(*log_file(0))]}).url)
    assert "Imported before: rotation 1, table 1; nothing changed." in again.content.decode()
    assert Submission.objects.filter(game__table__rotation__event=event).count() == 2


def test_a_log_for_no_table_of_the_night_says_so_without_identifiers(client, event):
    page = client.get(send(client, event, [log_file(7)]).url)
    text = page.content.decode()
    assert "No table of this night seats the file&#x27;s players in this order" in text
    assert "t7-s0" not in text


def test_no_files_or_too_many_are_refused_in_words(client, event, monkeypatch):
    from games.services import log_uploads

    assert "Choose the move log files" in send(client, event, []).content.decode()
    monkeypatch.setattr(log_uploads, "MAX_UPLOAD_FILES", 1)
    monkeypatch.setattr("games.views.log_imports.MAX_UPLOAD_FILES", 1)
    refused = send(client, event, [log_file(0), log_file(1)])
    assert refused.status_code == 400 and "at most 1 files" in refused.content.decode()
    assert not Submission.objects.exists()


def test_only_the_clubs_directors_may_import_logs(client, event):
    client.force_login(UserFactory())
    assert send(client, event, [log_file(0)]).status_code == 403
    assert not Submission.objects.exists()

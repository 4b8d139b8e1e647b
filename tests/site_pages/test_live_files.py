"""The running public events' polled fragments kept as files for the proxy: the same bytes a
reader who is not signed in gets from Django, drawn again after a change and only then, gone
when the event stops running or stops being public."""

import gzip
import os
import re
import time
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from analytics.standings.services import event_recompute
from games.services.paper import result_enter_paper
from league.models import Event, Rotation
from site_pages.live_files import LivePages, Stamps, fragment_files, write_file
from tests.factories import MembershipFactory, SeasonFactory
from tests.site.factories import games_of, seated_event

pytestmark = pytest.mark.django_db

PRINTED = re.compile(r"standings printed [^<]*")  # the minute the standings print


@pytest.fixture
def event():
    event = seated_event(players=8, rotations=2, name="Tuesday night",
                         status=Rotation.Status.CLOSED)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    return event


@pytest.fixture
def pages(tmp_path):
    return LivePages(root=tmp_path)


def file_of(pages, event, kind):
    return pages.root / fragment_files(event.slug)[kind]


def polled(client, url):
    """What Django answers a reader's poll (live-refresh.js) who is not signed in."""
    response = client.get(url, HTTP_X_REQUESTED_WITH="fetch", HTTP_ACCEPT_ENCODING="identity")
    assert response.status_code == 200
    return response.content


def without_minute(html: bytes) -> str:
    return PRINTED.sub("", html.decode())


def confirm_one(event):
    director = MembershipFactory(club=event.club, role="director").user
    result_enter_paper(game=games_of(event)[0], user=director, expected_revision=0,
                       totals=[4125, 2310])
    event_recompute(event_id=event.pk)


def test_the_files_hold_what_django_answers_the_polls(client, event, pages):
    confirm_one(event)
    assert pages.tick() == [event.slug]
    standings = file_of(pages, event, "standings").read_bytes()
    wall = file_of(pages, event, "wall").read_bytes()
    assert without_minute(standings) == without_minute(
        polled(client, reverse("event-standings", args=[event.slug])))
    assert wall == polled(client, reverse("event-wall", args=[event.slug]) + "?fragment=1")
    assert "1 confirmed game" in standings.decode() and "4,125" in wall.decode()
    for path in (file_of(pages, event, "standings"), file_of(pages, event, "wall")):
        assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == path.read_bytes()
        assert path.stat().st_mode & 0o644 == 0o644  # nginx's workers read them


def test_nothing_changed_leaves_the_files_alone(event, pages):
    pages.tick()
    path = file_of(pages, event, "wall")
    written = path.stat().st_mtime_ns
    assert pages.tick() == []
    assert path.stat().st_mtime_ns == written  # its ETag holds: the polls get 304


def test_a_confirmed_result_is_drawn_at_the_next_tick(event, pages):
    pages.tick()
    assert "4,125" not in file_of(pages, event, "wall").read_text()
    confirm_one(event)
    assert pages.tick() == [event.slug]
    assert "4,125" in file_of(pages, event, "wall").read_text()
    assert "1 confirmed game" in file_of(pages, event, "standings").read_text()


def test_an_event_that_stops_running_or_turns_private_loses_its_files(event, pages):
    other = seated_event(players=4, name="Wednesday night")
    Event.objects.filter(pk=other.pk).update(status=Event.Status.RUNNING)
    pages.tick()
    assert file_of(pages, event, "wall").exists() and file_of(pages, other, "wall").exists()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    Event.objects.filter(pk=other.pk).update(is_public=False)
    assert pages.tick() == []
    assert not (pages.root / "events" / event.slug).exists()
    assert not (pages.root / "events" / other.slug).exists()


def test_a_private_running_event_is_never_written(pages):
    private = seated_event(players=4, is_public=False)
    Event.objects.filter(pk=private.pk).update(status=Event.Status.RUNNING)
    assert pages.tick() == []
    assert not (pages.root / "events").exists()


def test_files_left_by_an_earlier_run_are_removed(event, pages):
    stale = pages.root / "events" / "last-week" / "wall.fragment.html"
    stale.parent.mkdir(parents=True)
    stale.write_text("old")
    pages.tick()
    assert not stale.parent.exists() and file_of(pages, event, "wall").exists()
    pages.clear()
    assert not (pages.root / "events").exists()


def test_the_command_once_writes_the_files_and_keeps_them(event, tmp_path):
    out = StringIO()
    call_command("publish_live_pages", "--once", "--root", str(tmp_path), stdout=out)
    assert "1 event(s) drawn" in out.getvalue()
    assert (tmp_path / fragment_files(event.slug)["standings"]).exists()


@pytest.mark.parametrize("interval", ["0", "0.01", "11", "-1"])
def test_the_command_refuses_an_interval_out_of_range(interval, tmp_path):
    with pytest.raises(CommandError, match="--interval must be between 0.05 and 10.0 seconds"):
        call_command("publish_live_pages", "--interval", interval, "--root", str(tmp_path))


def test_two_versions_of_one_size_written_within_a_second_never_share_an_etag(tmp_path):
    # nginx's ETag is (modification time in seconds, size): the second version must differ.
    stamps = Stamps()
    path = tmp_path / "wall.fragment.html"
    etags = []
    for content in (b"<p>4,125</p>", b"<p>4,130</p>", b"<p>4,125</p>", b"<p>1</p>"):
        assert write_file(path, content, stamps)
        etags.append((int(path.stat().st_mtime), path.stat().st_size))
    assert len(set(etags)) == 4
    assert not write_file(path, b"<p>1</p>", stamps)  # unchanged: left alone


def test_after_a_restart_new_files_are_stamped_after_the_old_ones(event, pages, tmp_path):
    pages.tick()
    path = file_of(pages, event, "wall")
    os.utime(path, (time.time() + 30, time.time() + 30))  # as a busy run before may leave them
    old = int(path.stat().st_mtime)
    again = LivePages(root=pages.root)
    again.clear()
    again.tick()
    assert int(path.stat().st_mtime) > old


def test_a_result_not_yet_in_the_standings_redraws_the_wall_only(event, pages):
    pages.tick()
    standings = file_of(pages, event, "standings")
    before = standings.stat().st_mtime_ns
    director = MembershipFactory(club=event.club, role="director").user
    result_enter_paper(game=games_of(event)[0], user=director, expected_revision=0,
                       totals=[4125, 2310])
    assert pages.tick() == [event.slug]
    assert "4,125" in file_of(pages, event, "wall").read_text()
    assert standings.stat().st_mtime_ns == before
    event_recompute(event_id=event.pk)
    assert pages.tick() == [event.slug]
    assert "1 confirmed game" in standings.read_text()


def test_the_rooms_pages_are_drawn_ahead_into_the_cache(client, event, pages,
                                                        django_assert_max_num_queries):
    season = SeasonFactory(league__club=event.club)
    Event.objects.filter(pk=event.pk).update(season=season)
    event.refresh_from_db()
    confirm_one(event)
    pages.tick()
    # The first reader to load each page after the change finds it drawn: only its version read.
    for url in (reverse("event-detail", args=[event.slug]),
                reverse("event-standings", args=[event.slug]),
                reverse("season-standings", args=[event.season_id])):
        with django_assert_max_num_queries(2):
            response = client.get(url)
        assert response.status_code == 200 and "</html>" in response.content.decode()


def test_an_event_that_cannot_be_drawn_loses_its_files_and_the_others_go_on(event, pages,
                                                                           monkeypatch):
    other = seated_event(players=4, name="Wednesday night")
    Event.objects.filter(pk=other.pk).update(status=Event.Status.RUNNING)
    pages.tick()
    confirm_one(event)
    confirm_one(other)

    def broken(request, slug):
        if slug == event.slug:
            raise ValueError("a template that cannot be drawn")
        return "<p>the standings</p>"

    monkeypatch.setattr("site_pages.live_files.event_standings_fragment", broken)
    assert pages.tick() == [other.slug]
    assert not (pages.root / "events" / event.slug).exists()
    assert file_of(pages, other, "standings").read_text() == "<p>the standings</p>"

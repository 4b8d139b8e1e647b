"""analytics.views.page_cache: on a busy night a new version of a public page is drawn once per
half second by one web process; meanwhile the others serve the version drawn last, with its own
ETag, and the next half second brings the new one."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from analytics.standings import services as standings_services
from league.models import Event
from tests.analytics.factories import confirm, make_game
from tests.analytics.test_pages import build_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def paced(settings, monkeypatch):
    settings.PAGE_REDRAW_SECONDS = 0.5
    now = [1_000_000.0]
    monkeypatch.setattr("analytics.views.page_cache.time.time", lambda: now[0])
    cache.clear()
    return now


def fragment(client, event, etag=""):
    headers = {"HTTP_X_REQUESTED_WITH": "fetch"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(reverse("event-standings", args=[event.slug]), **headers)


def test_a_new_version_waits_for_the_next_half_second_then_shows(client, paced):
    event, players = build_event(1, status=Event.Status.RUNNING)
    first = fragment(client, event)
    assert first.status_code == 200
    confirm(make_game(event=event, players=players, rotation_number=2), [[900, 0], [100, 0]])
    standings_services.event_recompute(event_id=event.pk)
    meanwhile = fragment(client, event, first["ETag"])
    assert meanwhile.status_code == 304 and meanwhile["ETag"] == first["ETag"]  # drawn last
    paced[0] += 0.5
    later = fragment(client, event, first["ETag"])
    assert later.status_code == 200 and later["ETag"] != first["ETag"]
    assert "2 confirmed games" in later.content.decode()


def test_without_pacing_each_version_is_drawn_at_once(client, settings):
    settings.PAGE_REDRAW_SECONDS = 0
    event, players = build_event(1, status=Event.Status.RUNNING)
    first = fragment(client, event)
    confirm(make_game(event=event, players=players, rotation_number=2), [[900, 0], [100, 0]])
    standings_services.event_recompute(event_id=event.pk)
    assert fragment(client, event, first["ETag"]).status_code == 200

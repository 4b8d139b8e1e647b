"""The night on the wall: every table's scores per rotation and the standings, a fragment
polled with If-None-Match (an empty 304 while nothing changed, the new scores on the next poll
after a confirmed result), and the event page's rule of who may see it."""

import pytest
from django.urls import reverse

from analytics.standings.services import event_recompute
from games.services.paper import result_enter_paper
from league.models import Rotation
from tests.factories import MembershipFactory, UserFactory
from tests.site.factories import games_of, seated_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return seated_event(players=8, rotations=2, name="Tuesday night", status=Rotation.Status.CLOSED)


def fragment(client, event, etag=None):
    headers = {"HTTP_X_REQUESTED_WITH": "fetch"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(reverse("event-wall", args=[event.slug]), **headers)


def test_the_wall_shows_every_tables_scores_per_rotation_and_the_standings(client, event):
    director = MembershipFactory(club=event.club, role="director").user
    first, second, third, _ = games_of(event)
    result_enter_paper(game=first, user=director, expected_revision=0, totals=[4125, 2310])
    result_enter_paper(game=third, user=director, expected_revision=0, totals=[-150, 1005])
    event_recompute(event_id=event.pk)
    page = client.get(reverse("event-wall", args=[event.slug]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "<h1>Tuesday night</h1>" in text
    assert text.index("Rotation 2") < text.index("Rotation 1")  # the latest first
    assert "4,125" in text and "2,310" in text and "-150" in text and "1,005" in text
    assert "Side 1: Player A &amp; Player C" in text
    assert "waiting" not in text and text.count("playing") == 2  # the two tables without results
    assert "Match points" in text and "2 confirmed games" in text
    assert "<form" not in text and "<button" not in text and "<nav" not in text  # no controls
    assert f'data-refresh-url="/events/{event.slug}/wall/?fragment=1"' in text
    assert 'data-refresh-seconds="1"' in text  # a 304 while nothing changed


def test_a_confirmed_result_appears_on_the_next_poll_and_nothing_changed_is_a_304(client, event):
    first = fragment(client, event)
    etag = first["ETag"]
    assert first.status_code == 200 and "4,125" not in first.content.decode()
    assert fragment(client, event, etag).status_code == 304
    assert fragment(client, event, etag).content == b""
    director = MembershipFactory(club=event.club, role="director").user
    result_enter_paper(
        game=games_of(event)[0], user=director, expected_revision=0, totals=[4125, 2310]
    )
    after = fragment(client, event, etag)
    assert after.status_code == 200 and after["ETag"] != etag
    assert "4,125" in after.content.decode() and "<html" not in after.content.decode()
    assert fragment(client, event, after["ETag"]).status_code == 304


def test_a_private_event_wall_is_private_as_its_page(client):
    private = seated_event(players=4, is_public=False)
    assert client.get(reverse("event-wall", args=[private.slug])).status_code == 404
    assert fragment(client, private).status_code == 404
    assert client.get(reverse("event-detail", args=[private.slug])).status_code == 404
    client.force_login(UserFactory())
    assert client.get(reverse("event-wall", args=[private.slug])).status_code == 404
    client.force_login(MembershipFactory(club=private.club, role="director").user)
    assert client.get(reverse("event-wall", args=[private.slug])).status_code == 200


def test_the_wall_answers_only_reads(client, event):
    assert client.post(reverse("event-wall", args=[event.slug])).status_code == 405

"""One status badge, one wording: the public event page, the public lists and the director's
pages all say "Live" for a running event and "Members only" for a private one."""

import pytest
from django.template import Context, Template

from tests.factories import EventFactory, MembershipFactory, RotationFactory, make_game

pytestmark = pytest.mark.django_db


def badge(obj) -> str:
    return Template("{% status_badge obj %}").render(Context({"obj": obj})).strip()


def test_the_badge_words_and_colours_a_status():
    running = EventFactory(status="running", is_public=False)
    assert badge(running) == ('<span class="badge status-running">Live</span> '
                              '<span class="badge warn">Members only</span>')
    assert badge(EventFactory(status="draft")) == '<span class="badge status-draft">Draft</span>'
    game = make_game()
    game.status = "disputed"
    assert badge(game) == '<span class="badge status-disputed">Disputed</span>'
    assert badge(RotationFactory()) == '<span class="badge status-draft">Draft (editable)</span>'


def test_every_page_with_an_events_status_words_it_alike(client):
    event = EventFactory(status="running", is_public=False, name="Quiet Night")
    director = MembershipFactory(club=event.club, role="director").user
    client.force_login(director)
    for url in ("/director/", f"/director/events/{event.slug}/", f"/events/{event.slug}/",
                f"/clubs/{event.club.slug}/"):
        page = client.get(url).content.decode()
        assert '<span class="badge status-running">Live</span>' in page, url
        assert "Members only" in page, url
        assert ">private<" not in page and ">Running<" not in page, url

"""The pages' words: a rating with 15 games is not "new", CSV headers in words, rates as
percent, the status step in words, a new club opens its own page."""

import pytest
from django.urls import reverse

from analytics.ratings.compute import CERTAINTY_WORDS, rating_certainty
from analytics.views.public import csv_header
from league.models import Club, Event
from tests.factories import EventFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_fifteen_games_are_not_new_even_with_a_wide_sigma():
    assert rating_certainty(7.0, games=2) == CERTAINTY_WORDS[-1][1]
    assert rating_certainty(7.0, games=15) == "still settling"


def test_csv_headers_are_words():
    assert [csv_header(c) for c in ("match_points", "held_points", "red_threes")] == [
        "Match points", "Points left in hand", "Red 3s"]


def test_opening_registration_says_so_in_words(client):
    membership = MembershipFactory(role="director")
    event = EventFactory(club=membership.club, status=Event.Status.DRAFT)
    client.force_login(membership.user)
    response = client.post(reverse("director-event-status", args=[event.slug]),
                           {"status": "registration"}, follow=True)
    text = response.content.decode()
    assert "Registration is open: enter the players." in text
    assert "The event is now registration" not in text


def test_creating_a_club_opens_the_new_club_page(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("director-club-create"), {"name": "Harbour Card Club"})
    club = Club.objects.get(name="Harbour Card Club")
    assert response.status_code == 302
    assert response["Location"] == reverse("director-club", args=[club.slug])

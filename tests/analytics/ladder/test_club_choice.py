"""A director's choice to share the club's players' ratings on the cross-club ladder: only a
director may make it, it is logged in the club's History, and a bad answer changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analytics.models import LadderRating
from league.models import AuditEntry, Club
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def maple(clubs):
    return clubs["Maple"]


@pytest.fixture
def director_client(client, maple):
    client.force_login(MembershipFactory(club=maple.club, role="director").user)
    return client


def choose(client, club: Club, share: str, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return client.post(reverse("director-club-ladder", args=[club.slug]), {"share": share},
                           follow=True)


def test_a_director_shares_the_clubs_ratings_and_the_history_says_so(
        director_client, maple, django_capture_on_commit_callbacks):
    page = director_client.get(reverse("director-club", args=[maple.club.slug])).content.decode()
    assert "does <strong>not</strong> share" in page
    answer = choose(director_client, maple.club, "yes", django_capture_on_commit_callbacks)
    text = answer.content.decode()
    maple.club.refresh_from_db()
    assert maple.club.ladder_shared
    assert "now shares its players&#x27; ratings on the cross-club ladder" in text
    assert "Stop sharing: take our players off the ladder" in text
    assert LadderRating.objects.filter(club=maple.club).count() == 4
    entry = AuditEntry.objects.get(club=maple.club, action="club_ladder")
    assert entry.summary == ("Maple Card Club now shares its players' ratings on the "
                             "cross-club ladder.")
    history = director_client.get(reverse("director-players", args=[maple.club.slug]))
    assert "Maple Card Club now shares its players&#x27; ratings" in history.content.decode()


def test_a_director_stops_sharing_and_the_players_leave_the_ladder(
        director_client, maple, django_capture_on_commit_callbacks):
    choose(director_client, maple.club, "yes", django_capture_on_commit_callbacks)
    answer = choose(director_client, maple.club, "no", django_capture_on_commit_callbacks)
    maple.club.refresh_from_db()
    assert not maple.club.ladder_shared and not LadderRating.objects.exists()
    assert "they are off the ladder" in answer.content.decode()
    assert list(AuditEntry.objects.filter(club=maple.club, action="club_ladder")
                .order_by("pk").values_list("data", flat=True)) == [{"shared": True},
                                                                    {"shared": False}]


def test_choosing_what_is_already_chosen_logs_nothing(
        director_client, maple, django_capture_on_commit_callbacks):
    choose(director_client, maple.club, "no", django_capture_on_commit_callbacks)
    assert not AuditEntry.objects.filter(action="club_ladder").exists()


@pytest.mark.parametrize("share", ["", "maybe", "1"])
def test_a_bad_answer_changes_nothing(director_client, maple, share,
                                      django_capture_on_commit_callbacks):
    answer = choose(director_client, maple.club, share, django_capture_on_commit_callbacks)
    maple.club.refresh_from_db()
    assert not maple.club.ladder_shared
    assert "Choose whether to share the ratings on the ladder." in answer.content.decode()
    assert not AuditEntry.objects.filter(action="club_ladder").exists()


def test_only_a_director_of_the_club_may_choose(client, maple, clubs):
    url = reverse("director-club-ladder", args=[maple.club.slug])
    assert client.post(url, {"share": "yes"}).status_code == 302  # to the log-in page
    client.force_login(MembershipFactory(club=clubs["Oak"].club, role="director").user)
    assert client.post(url, {"share": "yes"}).status_code == 403
    client.force_login(MembershipFactory(club=maple.club, role="scorer").user)
    assert client.post(url, {"share": "yes"}).status_code == 403
    client.force_login(UserFactory())
    assert client.post(url, {"share": "yes"}).status_code == 403
    maple.club.refresh_from_db()
    assert not maple.club.ladder_shared and not AuditEntry.objects.exists()


def test_the_choice_is_a_post(director_client, maple):
    url = reverse("director-club-ladder", args=[maple.club.slug])
    assert director_client.get(url).status_code == 405

"""Director's club page: members, leagues and seasons."""

import pytest
from django.urls import reverse

from league.models import League, Membership, Season
from tests.factories import LeagueFactory, MembershipFactory, UserFactory
from tests.league.factories import user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def membership():
    return MembershipFactory(role="director")


@pytest.fixture
def director_client(client, membership):
    client.force_login(membership.user)
    return client


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_club_page_lists_members_and_leagues(director_client, membership):
    LeagueFactory(club=membership.club, name="Tuesday League")
    page = director_client.get(reverse("director-club", args=[membership.club.slug]))
    assert page.status_code == 200
    assert membership.user.username in page.text and "Tuesday League" in page.text


@pytest.mark.parametrize("role", ["outsider", "scorer", "other_director"])
def test_only_directors_manage_the_club(client, membership, role):
    club = membership.club
    client.force_login(user_with_role(role, club))
    assert client.get(reverse("director-club", args=[club.slug])).status_code == 403
    response = client.post(reverse("director-club-league-add", args=[club.slug]), {"name": "Sneaky"})
    assert response.status_code == 403
    assert not League.objects.filter(name="Sneaky").exists()


def test_adding_a_scorer_by_username_sends_an_invitation_not_a_membership(director_client,
                                                                          membership):
    scorer = UserFactory(username="sam")
    page = director_client.post(
        reverse("director-club-member-add", args=[membership.club.slug]),
        {"username": "sam", "role": "scorer"}, follow=True,
    )
    assert "Invitation sent to sam" in _messages(page)
    assert not Membership.objects.filter(club=membership.club, user=scorer).exists()


def test_an_unknown_username_gets_the_same_answer(director_client, membership):
    page = director_client.post(
        reverse("director-club-member-add", args=[membership.club.slug]),
        {"username": "nobody", "role": "scorer"}, follow=True,
    )
    assert "Invitation sent to nobody" in _messages(page)
    assert "No user" not in page.text


def test_create_league_and_season(director_client, membership):
    club = membership.club
    director_client.post(reverse("director-club-league-add", args=[club.slug]), {"name": "Monday League"})
    league = League.objects.get(club=club)
    page = director_client.post(
        reverse("director-club-season-add", args=[club.slug]),
        {"league": league.pk, "name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-08-01",
         "aggregate": "sum", "min_attendance": "0"},
        follow=True,
    )
    assert "cannot end before it starts" in _messages(page)
    assert not Season.objects.exists()

    director_client.post(
        reverse("director-club-season-add", args=[club.slug]),
        {"league": league.pk, "name": "Autumn", "starts_on": "2026-09-01", "aggregate": "average",
         "best_n_nights": "8", "min_attendance": "3"},
    )
    season = Season.objects.get()
    assert (season.aggregate, season.best_n_nights, season.min_attendance) == ("average", 8, 3)


def test_season_for_another_clubs_league_is_refused(director_client, membership):
    foreign = LeagueFactory()
    page = director_client.post(
        reverse("director-club-season-add", args=[membership.club.slug]),
        {"league": foreign.pk, "name": "X", "starts_on": "2026-09-01", "aggregate": "sum", "min_attendance": "0"},
        follow=True,
    )
    assert "League" in _messages(page)
    assert not Season.objects.exists()

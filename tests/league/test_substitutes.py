"""Substitutes in a league: the league's choice of whom a substitute's result counts for (its
settings page), seating a substitute for an absent member and undoing it, and the refusals."""

import pytest
from django.urls import reverse

from league.models import AuditEntry, League
from tests.factories import LeagueFactory, MembershipFactory
from tests.league.factories import user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def membership():
    return MembershipFactory(role="director")


@pytest.fixture
def director_client(client, membership):
    client.force_login(membership.user)
    return client


def _settings_url(league: League) -> str:
    return reverse("director-league-settings", args=[league.club.slug, league.slug])


def test_the_club_page_links_each_leagues_settings(director_client, membership):
    league = LeagueFactory(club=membership.club, name="Tuesday League")
    page = director_client.get(reverse("director-club", args=[membership.club.slug]))
    assert _settings_url(league) in page.text


def test_a_director_chooses_whom_a_substitute_counts_for_and_the_cap(director_client, membership):
    league = LeagueFactory(club=membership.club)
    page = director_client.post(_settings_url(league), {"substitute_counts_for": "neither",
                                                        "substitute_cap": "2"}, follow=True)
    assert "are saved" in page.text
    league.refresh_from_db()
    assert (league.substitute_counts_for, league.substitute_cap) == ("neither", 2)
    assert AuditEntry.objects.filter(club=league.club, action="league_settings").count() == 1
    director_client.post(_settings_url(league), {"substitute_counts_for": "member", "substitute_cap": ""})
    league.refresh_from_db()
    assert (league.substitute_counts_for, league.substitute_cap) == ("member", None)


@pytest.mark.parametrize("cap", ["101", "-1", "two"])
def test_a_cap_out_of_range_is_refused_in_words_and_changes_nothing(director_client, membership, cap):
    league = LeagueFactory(club=membership.club)
    page = director_client.post(_settings_url(league), {"substitute_counts_for": "neither",
                                                        "substitute_cap": cap})
    assert page.status_code == 200
    assert "Give a whole number of nights" in page.text or "from 0 to 100" in page.text
    league.refresh_from_db()
    assert (league.substitute_counts_for, league.substitute_cap) == ("member", None)


@pytest.mark.parametrize("role", ["outsider", "scorer", "other_director"])
def test_only_the_clubs_directors_change_league_settings(client, membership, role):
    league = LeagueFactory(club=membership.club)
    client.force_login(user_with_role(role, membership.club))
    response = client.post(_settings_url(league), {"substitute_counts_for": "neither"})
    assert response.status_code in (403, 404)
    league.refresh_from_db()
    assert league.substitute_counts_for == "member"

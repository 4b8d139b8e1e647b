"""Issue 22, finding 11 (e): a director cannot make an account a member of their club without
its consent, nor learn which usernames exist. Adding a member is an invitation that the account
accepts (or declines) when signed in; the director's answer and page are the same for any
username."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league.models import Invitation, Membership
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def membership():
    return MembershipFactory(role="director")


@pytest.fixture
def club(membership):
    return membership.club


@pytest.fixture
def director_client(membership):
    client = Client()
    client.force_login(membership.user)
    return client


def invite(client, club, username: str, role: str = "scorer"):
    return client.post(reverse("director-club-member-add", args=[club.slug]),
                       {"username": username, "role": role}, follow=True)


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_the_director_s_page_is_the_same_whether_or_not_the_username_exists(director_client, club):
    UserFactory(username="realuser")
    for_real = invite(director_client, club, "realuser")
    for_ghost = invite(director_client, club, "ghostuser")

    assert _messages(for_real) == [m.replace("ghostuser", "realuser") for m in _messages(for_ghost)]
    assert "Invitation sent to realuser" in _messages(for_real)[0]
    assert not Membership.objects.filter(club=club, role="scorer").exists()
    club_page = director_client.get(reverse("director-club", args=[club.slug])).text
    rows = re.findall(r"<li>(\w+) <span class=\"badge\">Scorer</span>(.*?)</li>", club_page, re.S)
    assert [name for name, _ in rows] == ["ghostuser", "realuser"]
    assert re.sub(r"/\d+/", "/N/", rows[0][1]) == re.sub(r"/\d+/", "/N/", rows[1][1])


def test_the_invited_account_sees_the_invitation_and_becomes_a_member_when_it_accepts(
        client, director_client, club):
    sam = UserFactory(username="sam")
    invite(director_client, club, "sam")

    client.force_login(sam)
    landing = client.get(reverse("login-landing"))
    assert landing.url == reverse("invitations")
    page = client.get(reverse("invitations"))
    assert f"{club.name}" in page.text and "to be a <strong>scorer</strong>" in page.text
    assert "Accept" in page.text and "Decline" in page.text
    home = client.get(reverse("home"))
    assert f"{club.name} invites you to be a scorer" in home.text

    invitation = Invitation.objects.get(username="sam")
    done = client.post(reverse("invitation-answer", args=[invitation.pk]), {"answer": "accept"},
                       follow=True)
    assert f"You are now a scorer of {club.name}" in done.text
    assert Membership.objects.filter(club=club, user=sam, role="scorer").exists()
    assert not Invitation.objects.exists()


def test_a_declined_invitation_changes_nothing_and_still_reads_sent_to_the_director(
        client, director_client, club):
    sam = UserFactory(username="sam")
    invite(director_client, club, "sam", role="director")
    invitation = Invitation.objects.get()

    client.force_login(sam)
    page = client.post(reverse("invitation-answer", args=[invitation.pk]), {"answer": "decline"},
                       follow=True)
    assert "Invitation declined" in page.text
    assert "No invitation is waiting for you" in client.get(reverse("invitations")).text
    assert not Membership.objects.filter(user=sam).exists()
    club_page = director_client.get(reverse("director-club", args=[club.slug])).text
    assert "sam" in club_page and "Invitations sent" in club_page
    assert "declined" not in club_page.lower()


def test_another_account_cannot_answer_someone_else_s_invitation(client, director_client, club):
    UserFactory(username="sam")
    invite(director_client, club, "sam")
    invitation = Invitation.objects.get()
    client.force_login(UserFactory(username="mallory"))

    page = client.post(reverse("invitation-answer", args=[invitation.pk]), {"answer": "accept"},
                       follow=True)
    assert "no such invitation for your account" in page.text
    assert not Membership.objects.filter(club=club, role="scorer").exists()


def test_an_account_made_later_with_an_invited_username_gets_no_invitation(client, director_client,
                                                                          club):
    invite(director_client, club, "newcomer")
    client.force_login(UserFactory(username="newcomer"))
    assert "No invitation is waiting for you" in client.get(reverse("invitations")).text


def test_inviting_again_changes_nothing_and_the_director_can_withdraw(director_client, club):
    UserFactory(username="sam")
    invite(director_client, club, "sam")
    invite(director_client, club, "sam")
    invitation = Invitation.objects.get()
    page = director_client.post(
        reverse("director-club-invitation-withdraw", args=[club.slug, invitation.pk]), follow=True)
    assert "Invitation withdrawn" in page.text
    assert not Invitation.objects.exists()


def test_only_the_club_s_directors_invite(client, club):
    client.force_login(UserFactory())
    response = client.post(reverse("director-club-member-add", args=[club.slug]),
                           {"username": "sam", "role": "scorer"})
    assert response.status_code == 403
    assert not Invitation.objects.exists()


def test_a_bad_role_is_refused_in_words(director_client, club):
    page = invite(director_client, club, "sam", role="king")
    assert "Give a username and a role." in page.text
    assert not Invitation.objects.exists()


# --- the API


@pytest.fixture
def director_api(membership):
    api = APIClient()
    api.force_authenticate(membership.user)
    return api


def test_api_invite_answers_the_same_for_any_username_and_adds_no_member(director_api, club):
    UserFactory(username="known")
    known = director_api.post(f"/api/clubs/{club.pk}/members/",
                              {"username": "known", "role": "scorer"}, format="json")
    ghost = director_api.post(f"/api/clubs/{club.pk}/members/",
                              {"username": "ghost", "role": "scorer"}, format="json")
    assert known.status_code == ghost.status_code == 202
    assert known.json()["invitation"] == ghost.json()["invitation"] == "sent"
    assert known.json()["message"].replace("known", "X") == ghost.json()["message"].replace("ghost", "X")
    members = director_api.get(f"/api/clubs/{club.pk}/members/").json()
    assert [m["username"] for m in members] == [club.memberships.get().user.username]
    sent = director_api.get(f"/api/clubs/{club.pk}/invitations/").json()
    assert sorted(i["username"] for i in sent) == ["ghost", "known"]
    assert all(set(i) == {"id", "username", "role", "created_at"} for i in sent)


def test_api_the_invited_account_lists_accepts_and_declines(director_api, club):
    sam = UserFactory(username="sam")
    for role in ("scorer", "director"):
        director_api.post(f"/api/clubs/{club.pk}/members/", {"username": "sam", "role": role},
                          format="json")
    api = APIClient()
    assert api.get("/api/invitations/").status_code == 401
    api.force_authenticate(sam)
    mine = api.get("/api/invitations/").json()
    assert [(i["club_name"], i["role"]) for i in mine] == [(club.name, "scorer"), (club.name, "director")]

    accepted = api.post(f"/api/invitations/{mine[0]['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["role"] == "scorer"
    assert api.post(f"/api/invitations/{mine[1]['id']}/decline/").status_code == 204
    assert api.get("/api/invitations/").json() == []
    assert list(Membership.objects.filter(user=sam).values_list("role", flat=True)) == ["scorer"]


def test_api_someone_else_s_invitation_is_404(director_api, club):
    UserFactory(username="sam")
    director_api.post(f"/api/clubs/{club.pk}/members/", {"username": "sam", "role": "scorer"},
                      format="json")
    invitation = Invitation.objects.get()
    api = APIClient()
    api.force_authenticate(UserFactory(username="mallory"))
    assert api.post(f"/api/invitations/{invitation.pk}/accept/").status_code == 404
    assert api.post("/api/invitations/99999999999999999999/accept/").status_code == 404
    assert not Membership.objects.filter(role="scorer").exists()

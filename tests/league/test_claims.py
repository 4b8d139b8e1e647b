"""Claiming a player profile: one-time links that expire and say why, a request a director
approves, one account for one person in every club."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import Conflict, NotFound
from league.models import PlayerClaim
from league.services.claims import claim_accept, claim_approve, claim_create, claim_request
from tests.factories import MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_link_links_the_account_once():
    player, user = PlayerFactory(), UserFactory()
    claim = claim_create(player=player, by=None)
    assert claim_accept(nonce=claim.nonce, user=user) == player
    player.refresh_from_db()
    assert player.user == user
    with pytest.raises(Conflict, match="used already"):
        claim_accept(nonce=claim.nonce, user=UserFactory())
    with pytest.raises(Conflict, match="belongs to an account already"):
        claim_create(player=player, by=None)


def test_an_expired_or_unknown_link_says_why():
    claim = claim_create(player=PlayerFactory(), by=None)
    PlayerClaim.objects.filter(pk=claim.pk).update(expires_at=timezone.now() - timedelta(days=1))
    with pytest.raises(Conflict, match="expired on"):
        claim_accept(nonce=claim.nonce, user=UserFactory())
    with pytest.raises(NotFound, match="not one of ours"):
        claim_accept(nonce="x" * 43, user=UserFactory())


def test_one_account_is_one_person_in_every_club_but_one_player_per_club():
    user = UserFactory()
    first, other_club = PlayerFactory(), PlayerFactory()
    claim_accept(nonce=claim_create(player=first, by=None).nonce, user=user)
    claim_accept(nonce=claim_create(player=other_club, by=None).nonce, user=user)
    second = PlayerFactory(club=first.club, name="Ann Again")
    with pytest.raises(Conflict, match="ask a director to merge"):
        claim_accept(nonce=claim_create(player=second, by=None).nonce, user=user)


def test_a_request_from_the_players_page_is_approved_by_a_director(client):
    player, user = PlayerFactory(), UserFactory()
    client.force_login(user)
    client.post(reverse("player-claim-request", args=[player.club.slug, player.pk]))
    claim = PlayerClaim.objects.get(player=player, requested_by=user)
    assert claim_request(player=player, user=user) == claim  # asked twice: one request
    claim_approve(claim=claim, by=None)
    player.refresh_from_db()
    assert player.user == user


def test_the_claim_page_makes_an_account_and_takes_the_profile(client):
    player = PlayerFactory(name="Cora Diaz")
    claim = claim_create(player=player, by=None)
    url = reverse("player-claim", args=[claim.nonce])
    page = client.get(url)
    assert page.status_code == 200 and "Cora Diaz" in page.content.decode()
    answer = client.post(
        url,
        {
            "new_account": "1",
            "username": "cora",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert answer.status_code == 302 and answer["Location"] == reverse("my-page")
    player.refresh_from_db()
    assert player.user.username == "cora"
    used = client.get(url)
    assert used.status_code == 410 and "used already" in used.content.decode()


def test_the_director_sends_a_link_by_mail_or_hands_one_over(client, mailoutbox):
    player = PlayerFactory(name="Dan Eke")
    client.force_login(MembershipFactory(club=player.club, role="director").user)
    url = reverse("director-player-claims", args=[player.club.slug, player.slug])
    assert client.post(url, {"how": "mail", "email": "not an address"}).status_code == 400
    assert client.post(url, {"how": "mail", "email": "dan@example.net"}).status_code == 302
    claim = PlayerClaim.objects.get(player=player, email="dan@example.net")
    assert player.contact.email == "dan@example.net"
    page = client.post(url, {"how": "link"}).content.decode()
    assert "/claim/" in page and 'aria-label="QR code' in page
    assert PlayerClaim.objects.filter(player=player).count() == 2
    assert claim.nonce in mailoutbox[0].body


def test_the_director_sees_who_is_coming_and_enters_them_in_one_step(client):
    from league.models import Attendance, Registration
    from tests.factories import EventFactory

    event = EventFactory()
    ann, ben, cy = (PlayerFactory(club=event.club, name=n) for n in ("Ann", "Ben", "Cy"))
    Attendance.objects.create(event=event, player=ann, answer="yes")
    Attendance.objects.create(event=event, player=ben, answer="maybe")
    Attendance.objects.create(event=event, player=cy, answer="yes")
    url = reverse("director-event-coming", args=[event.slug])
    client.force_login(MembershipFactory(club=event.club, role="scorer").user)
    assert client.get(url).status_code == 403
    client.force_login(MembershipFactory(club=event.club, role="director").user)
    page = client.get(url).content.decode()
    assert "2 players said they are coming." in page and "Maybe (1)" in page
    client.post(url)
    assert set(Registration.objects.filter(event=event).values_list("player__name", flat=True)) == {
        "Ann",
        "Cy",
    }
    assert "Enter the" not in client.get(url).content.decode()


def test_the_clubs_directors_see_what_players_chose(client):
    player = PlayerFactory(name="Eve Fox", name_shown="initial", stats_public=False)
    client.force_login(MembershipFactory(club=player.club, role="director").user)
    page = client.get(reverse("director-players", args=[player.club.slug])).content.decode()
    assert "No account yet &middot; shown as Eve F. &middot; statistics private" in page


ACCOUNT = {"new_account": "1", "password1": "a-long-pass-phrase-9",
           "password2": "a-long-pass-phrase-9"}


def test_an_older_link_of_a_profile_taken_since_makes_no_account(client):
    """Two links of one profile (an older mail, then a new one): the new one is used; the older
    one is refused before anything is made, on the page and in the service."""
    from django.contrib.auth.models import User

    from league.services.claims import claim_accept_new_account

    player = PlayerFactory(name="Gil Hart")
    older = claim_create(player=player, by=None)
    newer = claim_create(player=player, by=None)
    claim_accept(nonce=newer.nonce, user=UserFactory(username="gil"))
    url = reverse("player-claim", args=[older.nonce])
    page = client.get(url)
    assert page.status_code == 410 and "belongs to an account already" in page.content.decode()
    answer = client.post(url, {**ACCOUNT, "username": "gil-again"})
    assert answer.status_code == 410
    with pytest.raises(Conflict, match="belongs to an account already"):
        claim_accept_new_account(nonce=older.nonce, username="gil-2", password="x-long-pass-9")
    assert not User.objects.filter(username__in=["gil-again", "gil-2"]).exists()
    player.refresh_from_db()
    assert player.user.username == "gil"
    older.refresh_from_db()
    assert older.used_at is None


def test_the_account_form_does_not_say_which_usernames_exist(client, settings):
    """The claim page answers a taken name as any name it cannot use, and only once the rest of
    the form is good; each such answer counts in the lookup throttle like a wrong link. A free
    name makes the account."""
    from django.contrib.auth.models import User

    UserFactory(username="hana")
    player = PlayerFactory(name="Hana Ito")
    url = reverse("player-claim", args=[claim_create(player=player, by=None).nonce])
    short = {**ACCOUNT, "password1": "short", "password2": "short"}
    taken_bad = client.post(url, {**short, "username": "hana"}).content.decode()
    free_bad = client.post(url, {**short, "username": "hana-ito"}).content.decode()
    assert "already exists" not in taken_bad
    same = [re.sub(r'value="[^"]*"', "", page) for page in (taken_bad, free_bad)]  # names, CSRF
    assert same[0] == same[1]
    taken = client.post(url, {**ACCOUNT, "username": "HANA"})
    assert taken.status_code == 400
    body = taken.content.decode()
    assert "That username can&#x27;t be used: choose another." in body
    assert "already exists" not in body and "taken" not in body
    assert User.objects.filter(username__iexact="hana").count() == 1
    free = client.post(url, {**ACCOUNT, "username": "hana-ito"})
    assert free.status_code == 302
    player.refresh_from_db()
    assert player.user.username == "hana-ito"


def test_asking_name_after_name_on_the_claim_page_is_throttled(client, monkeypatch):
    from web import throttling

    counted = []
    monkeypatch.setattr(throttling, "lookup_failed", lambda request: counted.append(1) or None)
    UserFactory(username="ivo")
    url = reverse("player-claim", args=[claim_create(player=PlayerFactory(), by=None).nonce])
    client.post(url, {**ACCOUNT, "username": "ivo"})
    assert counted == [1]

"""Claiming a player profile: one-time links that expire and say why, a request a director
approves, one account for one person in every club."""

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

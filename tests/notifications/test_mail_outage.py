"""Issue 42: mail that does not go. A fault of the mail server (a refused login, every address
refused, "421 not now") marks no address undeliverable: it is recorded with since-when and why,
told on the directors' pages ("Mail is not going out: ...") and tried again by a job; a single
address refused while the server takes mail is still the address's."""

import pytest
from django.urls import reverse

from jobs.models import PendingTask
from jobs.services.outbox import pending_resend
from league.models import PlayerClaim
from notifications.models import Contact, MailOutage, SentMail
from notifications.services.mail import MailServerDown
from notifications.services.results import result_mails_send
from tests.factories import MembershipFactory, PlayerFactory
from tests.notifications.test_result_mail import confirmed_game  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_login(settings, smtp):
    """The site logs in to the test's mail server (which takes any login until told not to)."""
    settings.MAILERS["default"]["OPTIONS"].update(username="league", password="secret")
    return smtp


def _undeliverable() -> int:
    return Contact.objects.filter(undeliverable_at__isnull=False).count()


def test_a_refused_login_marks_no_address_and_records_the_outage(with_login, confirmed_game):  # noqa: F811
    game, _ = confirmed_game
    with_login.inbox.refuse_login = True
    with pytest.raises(MailServerDown, match="refused the login"):
        result_mails_send(game_id=game.pk)
    assert _undeliverable() == 0 and not SentMail.objects.exists()
    outage = MailOutage.objects.get()
    assert outage.reason == "the mail server refused the login"
    with_login.inbox.refuse_login = False
    assert result_mails_send(game_id=game.pk) == 3  # the retry sends all of them
    assert not MailOutage.objects.exists()  # mail goes out again


def test_a_server_refusing_every_address_is_its_fault_not_the_addresses(smtp, confirmed_game):  # noqa: F811
    game, _ = confirmed_game
    smtp.inbox.every_rcpt = "550 5.7.1 Relaying denied"
    with pytest.raises(MailServerDown, match="refused every address"):
        result_mails_send(game_id=game.pk)
    assert _undeliverable() == 0
    assert not SentMail.objects.filter(status=SentMail.Status.REFUSED).exists()
    assert "550 5.7.1 Relaying denied" in MailOutage.objects.get().reason


def test_a_server_saying_421_is_a_fault_tried_again(smtp, confirmed_game):  # noqa: F811
    game, _ = confirmed_game
    smtp.inbox.every_rcpt = "421 4.3.2 Shutting down"
    with pytest.raises(MailServerDown, match="not taking mail now"):
        result_mails_send(game_id=game.pk)
    assert _undeliverable() == 0


def test_one_address_refused_while_the_server_takes_mail_is_the_addresses(smtp, confirmed_game):  # noqa: F811
    game, seats = confirmed_game
    Contact.objects.filter(player=seats[1].player).update(email="nobody@example.org")
    assert result_mails_send(game_id=game.pk) == 2
    assert list(Contact.objects.filter(undeliverable_at__isnull=False).values_list(
        "email", flat=True)) == ["nobody@example.org"]
    assert not MailOutage.objects.exists()


def test_the_invitation_page_says_mail_is_not_going_out_and_the_retry_sends_it(
    client, with_login, django_capture_on_commit_callbacks
):
    player = PlayerFactory(name="Dan Eke")
    client.force_login(MembershipFactory(club=player.club, role="director").user)
    url = reverse("director-player-claims", args=[player.club.slug, player.slug])
    with_login.inbox.refuse_login = True
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"how": "mail", "email": "dan@example.net"}, follow=True)
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "on its way" not in page
    assert "Mail is not going out: the mail server refused the login (since " in page
    assert "). We will retry." in page
    assert "The link for Dan Eke goes out once the mail server takes mail again." in page
    assert Contact.objects.get(player=player).undeliverable_at is None
    # the retry is a job (kept here, where tasks run in-process and cannot wait)
    assert list(PendingTask.objects.values_list("task", flat=True)) == ["notifications.claim_mail"]
    with_login.inbox.refuse_login = False
    assert pending_resend() == 1
    claim = PlayerClaim.objects.get(player=player)
    assert [m["To"] for m in with_login.messages] == ["dan@example.net"]
    assert claim.nonce in with_login.messages[0].get_body(("plain",)).get_content()
    assert "Mail is not going out" not in client.get(url).content.decode()

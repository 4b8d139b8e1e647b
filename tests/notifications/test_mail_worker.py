"""The result mail on a real Celery worker: the mail server says "try again later" to one
address, the job is retried by Celery, and each player gets the mail exactly once; the same job
delivered twice sends nothing more."""

import time

import pytest

from notifications.models import SentMail
from notifications.tasks import result_mails_task
from tests.notifications.smtp import SmtpServer
from tests.notifications.test_result_mail import confirmed_game  # noqa: F401  (fixture)
from tests.waiting import wait_for
from tests.workers import real_worker

pytestmark = [pytest.mark.worker, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def busy_smtp():
    server = SmtpServer(defer_once=set())
    server.start()
    yield server
    server.stop()


@pytest.fixture
def worker(settings, busy_smtp):
    env = {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(busy_smtp.port),
           "EMAIL_HOST_USER": "league", "EMAIL_HOST_PASSWORD": "secret",
           "SITE_URL": "http://league.example"}
    with real_worker(settings, env=env, name="mail") as process:
        yield process


def test_a_retried_mail_job_sends_each_mail_once(worker, busy_smtp, confirmed_game):  # noqa: F811
    game, seats = confirmed_game
    busy_smtp.inbox.defer_once.add(f"{seats[1].player.slug}@example.net")
    result_mails_task.delay(game.pk)
    wait_for(lambda: len(busy_smtp.messages) >= 3, what="three result mails")
    assert sorted(m["To"] for m in busy_smtp.messages) == sorted(
        f"{s.player.slug}@example.net" for s in seats[:3]
    )
    assert busy_smtp.inbox.defer_once == set()  # the busy answer was given, and retried past
    result_mails_task.delay(game.pk)  # delivered again
    time.sleep(1.5)  # a second delivery would arrive well within this
    assert len(busy_smtp.messages) == 3
    assert SentMail.objects.filter(status=SentMail.Status.SENT).count() == 3


def test_a_mail_server_refusing_the_login_is_retried_by_the_job_until_it_takes_the_mail(
    worker, busy_smtp, confirmed_game  # noqa: F811
):
    """Issue 42: the server's fault marks no address undeliverable; it is recorded for the
    directors, and the job tries again with a growing wait until the server takes the mail."""
    from notifications.models import Contact, MailOutage
    from tests.waiting import wait_for

    game, _ = confirmed_game
    busy_smtp.inbox.refuse_login = True
    result_mails_task.delay(game.pk)
    outage = wait_for(lambda: MailOutage.objects.first(), what="the outage recorded")
    assert outage.reason == "the mail server refused the login"
    wait_for(lambda: busy_smtp.inbox.logins >= 2, what="the job's second try")
    assert not Contact.objects.filter(undeliverable_at__isnull=False).exists()
    busy_smtp.inbox.refuse_login = False
    wait_for(lambda: len(busy_smtp.messages) == 3, what="the three mails, sent by a retry")
    wait_for(lambda: SentMail.objects.filter(status=SentMail.Status.SENT).count() == 3,
             what="the three mails recorded as sent")
    assert not MailOutage.objects.exists()  # mail goes out again

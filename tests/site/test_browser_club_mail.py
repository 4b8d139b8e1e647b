"""The club's mail page in a real browser, as a director reads it on a phone: the mail's text
opens in place, fits 360 px, and passes axe-core."""

import pytest
from django.urls import reverse

from notifications.services.results import result_mails_send
from tests.factories import MembershipFactory, UserFactory
from tests.notifications.test_result_mail import confirmed_game  # noqa: F401  (fixture)
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems
from tests.site.test_browser_table_entry import PHONE_360

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(chromium, live_server):
    context = chromium.new_context(
        viewport=PHONE_360, is_mobile=True, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_a_director_reads_the_mail_sent_to_players(phone, settings, tmp_path, confirmed_game):  # noqa: F811
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": str(tmp_path)},
        }
    }
    game, seats = confirmed_game
    assert result_mails_send(game_id=game.pk) == 3
    assert len(list(tmp_path.iterdir())) >= 1  # kept as files: no mail server in this mode
    club = game.table.rotation.event.club
    MembershipFactory(club=club, user=UserFactory(username="mail-director"), role="director")
    log_in(phone, "mail-director", "pass-word-123")
    phone.goto(reverse("director-club-mail", args=[club.slug]))
    assert "it is kept in the folder" in phone.content()
    phone.locator("summary").first.click()
    assert "is confirmed. You played for side" in phone.locator(".mail-body").first.inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_problems(phone, "club mail") == []

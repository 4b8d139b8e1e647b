"""Every page that issue 26 added, on a 360 px phone: it fits the width, passes axe-core and
speaks the table's language (no field names or codes)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Attendance
from league.services.claims import claim_create
from notifications.models import Contact
from notifications.services.mail import unsubscribe_token
from notifications.services.nights import rsvp_token
from tests.factories import EventFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems
from tests.site.test_browser_table_entry import PHONE_360

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENGINE_WORDS = ("name_shown", "stats_public", "CLAIM_", "BAD_", "None", "reminder_hours")


@pytest.fixture
def phone(chromium, live_server):
    context = chromium.new_context(
        viewport=PHONE_360, is_mobile=True, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def _check(page, name):
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
    text = page.locator("main").inner_text()
    for word in ENGINE_WORDS:
        assert word not in text, (name, word)
    assert axe_problems(page, name) == [], name


def test_the_new_pages_fit_a_phone_and_pass_axe(phone):
    night = EventFactory(
        name="Tuesday league",
        date=timezone.localdate() + datetime.timedelta(days=3),
        starts_at=datetime.time(19, 30),
        place="The Crown, back room",
    )
    ann = PlayerFactory(club=night.club, name="Ann Lee")
    ben = PlayerFactory(club=night.club, name="Ben Ode", stats_public=False)
    contact = Contact.objects.create(player=ann, email="ann@example.net")
    Attendance.objects.create(event=night, player=ben, answer="maybe")

    phone.goto(reverse("player-claim", args=[claim_create(player=ann, by=None).nonce]))
    _check(phone, "claim")
    phone.goto(reverse("player-claim", args=["x" * 43]))
    _check(phone, "claim refused")
    phone.goto(reverse("rsvp", args=[rsvp_token(event=night, player=ann, answer="yes")]))
    _check(phone, "rsvp")
    phone.goto(
        reverse("mail-unsubscribe", args=[unsubscribe_token(contact=contact, reason="result")])
    )
    _check(phone, "unsubscribe")
    phone.goto(ben.get_absolute_url())
    _check(phone, "private statistics")

    MembershipFactory(club=night.club, role="director", user=UserFactory(username="dee"))
    log_in(phone, "dee", "pass-word-123")
    phone.goto(reverse("director-event-coming", args=[night.slug]))
    _check(phone, "who is coming")
    phone.goto(reverse("director-player-claims", args=[night.club.slug, ann.slug]))
    phone.get_by_role("button", name="Make a link").click()
    phone.get_by_role("heading", name="The link for Ann Lee").wait_for()
    _check(phone, "claims")
    phone.goto(reverse("director-club-mail", args=[night.club.slug]))
    _check(phone, "club mail")

    ann.user = UserFactory(username="ann")
    ann.save()
    phone.context.clear_cookies()
    log_in(phone, "ann", "pass-word-123")
    phone.goto(reverse("my-page"))
    assert "Tuesday league" in phone.content()
    _check(phone, "my page")

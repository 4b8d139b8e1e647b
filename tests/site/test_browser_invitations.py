"""In a real browser on a 360 px phone: an invited scorer signs in, lands on the invitation,
accepts it and is a member (issue 22, finding 11 e); and the home page of a demo whose clock is
ahead of the server's lists its finished nights under "Recent events" (issue 23)."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from league import services
from league.models import Membership
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.demo import build_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 780}
FITS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture
def small_phone(chromium, live_server):
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url,
                                   is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_an_invited_scorer_accepts_on_a_phone_and_becomes_a_member(small_phone):
    users = get_user_model().objects
    director = users.create_user("dora", password="a-long-secret-42")
    club = services.club_create(name="Thursday Club", director=director)
    sam = users.create_user("sam", password="another-secret-42")
    services.membership_invite(club=club, username="sam", role="scorer", by=director)

    log_in(small_phone, "sam", "another-secret-42")

    assert small_phone.url.endswith("/director/invitations/")
    card = small_phone.locator("li.card")
    assert "Thursday Club invites you to be a scorer" in " ".join(card.inner_text().split())
    assert small_phone.evaluate(FITS)
    small_phone.get_by_role("button", name="Accept").click()
    small_phone.get_by_text("You are now a scorer of Thursday Club").wait_for()
    assert Membership.objects.filter(club=club, user=sam, role="scorer").exists()
    assert "No invitation is waiting for you" in small_phone.content()


def test_the_home_page_of_a_demo_ahead_of_the_clock_lists_finished_nights_as_recent(small_phone):
    build_demo(past_nights=2, today=datetime.date.today() + datetime.timedelta(weeks=6))

    small_phone.goto("/")
    upcoming = small_phone.locator("section[aria-labelledby=upcoming-heading]").inner_text()
    recent = small_phone.locator("section[aria-labelledby=recent-heading]").inner_text()

    assert "Tuesday Night 1" in recent and "Tuesday Night 2" in recent
    assert "Tuesday Night 1" not in upcoming and "No events played yet" not in recent
    assert "Tuesday Night 3" in upcoming  # running: tonight's on the demo's clock
    assert small_phone.evaluate(FITS)

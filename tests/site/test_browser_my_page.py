"""Issue 42: a player's own page on a 360 px phone: each night's answer said in words (not by
colour alone), the calendar address as a real link with "Add to my calendar" (webcal://) and a
copy button that says "Copied"; axe-core finds nothing and nothing is wider than the screen."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Attendance
from tests.factories import EventFactory, PlayerFactory, UserFactory
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems, fit_problems
from tests.site.test_browser_table_entry import PHONE_360

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(chromium, live_server):
    context = chromium.new_context(viewport=PHONE_360, is_mobile=True, has_touch=True,
                                   base_url=live_server.url)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_my_page_says_answers_in_words_and_offers_the_calendar_to_add_and_copy(phone, live_server):
    user = UserFactory(username="ann")
    player = PlayerFactory(name="Ann Lee", user=user)
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    coming = EventFactory(club=player.club, name="Tuesday league", date=tomorrow)
    EventFactory(club=player.club, name="Thursday league", date=tomorrow + datetime.timedelta(days=2))
    Attendance.objects.create(event=coming, player=player, answer=Attendance.Answer.YES)

    log_in(phone, "ann", "pass-word-123")
    phone.goto("/me/")
    nights = phone.locator(".my-nights li")
    assert "Your answer: Coming" in nights.nth(0).inner_text()
    assert "You have not answered yet." in nights.nth(1).inner_text()

    phone.get_by_role("button", name="Make my calendar address").click()
    phone.wait_for_load_state()
    player.refresh_from_db()
    address = live_server.url + reverse("player-calendar", args=[player.calendar_token])
    add = phone.get_by_role("link", name="Add to my calendar")
    assert add.get_attribute("href") == "webcal://" + address.split("://", 1)[1]
    assert phone.get_by_role("link", name=address).get_attribute("href") == address

    copy = phone.get_by_role("button", name="Copy the address")
    copy.click()
    phone.get_by_role("button", name="Copied").wait_for()
    assert phone.evaluate("navigator.clipboard.readText()") == address
    assert axe_problems(phone, "my page") == [] and fit_problems(phone, "my page") == []

"""A director starts a club on a phone choosing where it plays, then moves it: the time zone
list is a labelled control that fits a 360 px screen, and both pages pass axe-core."""

import pytest
from django.contrib.auth import get_user_model

from league.models import Club
from tests.site.browser_pages import SMALL_PHONE
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_starts_a_club_in_new_york_and_moves_it_to_berlin_on_a_phone(
        chromium, live_server):
    get_user_model().objects.create_user("dana", password="pass-word-123")
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url,
                                   bypass_csp=True, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        log_in(page, "dana", "pass-word-123")
        page.goto("/director/")
        problems = axe_problems(page, "director home") + fit_problems(page, "director home")
        page.get_by_label("Club name").fill("Hudson Club")
        page.get_by_role("combobox", name="Time zone").select_option("America/New_York")
        page.get_by_role("button", name="Create club").click()
        page.wait_for_load_state()
        assert Club.objects.get(name="Hudson Club").time_zone == "America/New_York"
        assert "New York time" in page.locator("#time-zone-heading + p").inner_text()
        problems += axe_problems(page, "director club") + fit_problems(page, "director club")
        page.get_by_role("combobox", name="Time zone").select_option("Europe/Berlin")
        page.get_by_role("button", name="Change the time zone").click()
        page.wait_for_load_state()
        assert "Berlin time" in page.locator("#time-zone-heading + p").inner_text()
        assert Club.objects.get(name="Hudson Club").time_zone == "Europe/Berlin"
        assert problems == []
    finally:
        context.close()

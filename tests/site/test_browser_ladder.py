"""Issue 46 in a real browser at 360 px (axe-clean): a director shares the club's ratings on the
cross-club ladder from the club's page, the ladder lists the players with their clubs, and once
the club stops sharing its players are gone from it."""

import pytest
from django.core.cache import cache

from analytics.ladder.jobs import PENDING_KEY
from league.services.clubs import club_ladder_share
from tests.analytics.ladder.conftest import club_with_a_night
from tests.factories import MembershipFactory
from tests.site.browser_pages import SMALL_PHONE
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pass-word-123"  # tests/factories.UserFactory's


@pytest.fixture
def phone(chromium, live_server):
    cache.delete(PENDING_KEY)  # no ladder job pending from an earlier run
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url, is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_a_director_shares_then_stops_and_the_ladder_follows_on_a_phone(phone):
    maple, oak = club_with_a_night("Maple", 3), club_with_a_night("Oak", 4)
    club_ladder_share(club=oak.club, share=True, by=None)
    director = MembershipFactory(club=maple.club, role="director").user
    log_in(phone, director.username, PASSWORD)
    phone.goto(f"/director/clubs/{maple.club.slug}/")
    problems = axe_problems(phone, "club page") + fit_problems(phone, "club page")
    phone.get_by_role("button", name="Share our players' ratings on the ladder").click()
    phone.get_by_text("now shares its players' ratings on the cross-club ladder;").wait_for()
    phone.get_by_role("link", name="cross-club ladder").click()
    phone.wait_for_url("**/ladder/")
    rows = phone.locator("tbody tr").all_inner_texts()
    problems += axe_problems(phone, "ladder") + fit_problems(phone, "ladder")
    phone.goto(f"/director/clubs/{maple.club.slug}/")
    phone.get_by_role("button", name="Stop sharing: take our players off the ladder").click()
    phone.get_by_text("no longer shares its players' ratings").wait_for()
    phone.goto("/ladder/")
    after = phone.locator("tbody tr").all_inner_texts()
    assert problems == []
    assert len(rows) == 8
    assert sum("Maple Card Club" in row for row in rows) == 4
    assert any("Ann Lee" in row and "Maple Card Club" in row for row in rows)
    assert len(after) == 4 and all("Oak Card Club" in row for row in after)

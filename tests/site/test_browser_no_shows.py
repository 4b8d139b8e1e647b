"""Issue 47's no-shows on a 360 px phone: the director taps "No-show" beside a seated player of
the draft, the page says so and offers to seat the rotation again without them; after that the
draft has them out. The event page passes axe-core and fits at each step."""

import pytest

from league import services
from league.models import Event, Registration, Rotation
from tests.factories import EventFactory, MembershipFactory, PlayerFactory
from tests.site.browser_pages import SMALL_PHONE
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Annabel Longfellow-Whitcombe", "Bea", "Cal", "Dee", "Eve", "Fin", "Gil", "Hap"]


def test_a_director_marks_a_no_show_and_seats_the_draft_again_on_a_phone(chromium, live_server):
    membership = MembershipFactory(user__username="no-show-director")
    event = EventFactory(club=membership.club, status=Event.Status.RUNNING, planned_rotations=2)
    for name in NAMES:
        Registration.objects.create(event=event, player=PlayerFactory(club=event.club, name=name),
                                    checked_in=True)
    services.rotation_generate(event=event)
    context = chromium.new_context(viewport=SMALL_PHONE, base_url=live_server.url, is_mobile=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    log_in(page, "no-show-director", "pass-word-123")
    page.goto(f"/director/events/{event.slug}/")
    page.get_by_role("button", name=f"Mark {NAMES[0]} as a no-show for rotation 1").click()
    page.wait_for_load_state()
    rotation = page.locator("#rotation-1")
    assert "no-show" in rotation.inner_text()
    assert f"Marked {NAMES[0]} as a no-show for rotation 1." in page.locator("#history").inner_text()
    problems = axe_problems(page, "event with a no-show") + fit_problems(page, "event with a no-show")
    page.get_by_role("button", name=f"Seat again without {NAMES[0]}").click()
    page.wait_for_load_state()
    assert "Rotation 1 is seated again as a draft" in page.content()
    draft = Rotation.objects.get(event=event, number=1)
    assert NAMES[0] not in set(draft.seats.values_list("player__name", flat=True))
    problems += axe_problems(page, "event seated again") + fit_problems(page, "event seated again")
    context.close()
    assert problems == []

"""A director sets up a night in a real browser: creates the event, enters eight players, checks
them in, starts it and seats the first rotation; the public page then shows the seating."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league import services as league
from league.models import Event
from tests.site.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "John")


def click(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).first.click()
    page.wait_for_load_state()


def test_director_creates_an_event_seats_a_rotation_and_the_public_sees_it(desktop):
    director = get_user_model().objects.create_user("dana", password="pass-word-123")
    league.club_create(name="Riverside Card Club", director=director)
    log_in(desktop, "dana", "pass-word-123")

    desktop.goto("/director/events/new/")
    desktop.get_by_label("Event name").fill("Friday Social")
    desktop.get_by_label("Date").fill(timezone.localdate().isoformat())
    click(desktop, "Create event")
    event = Event.objects.get(name="Friday Social")

    click(desktop, "Open registration")
    for name in NAMES:
        desktop.get_by_label("Or a new player's name").fill(name)
        click(desktop, "Enter")
    for name in NAMES:
        desktop.get_by_role("button", name=f"Check in {name}").click()
        desktop.wait_for_load_state()
    click(desktop, "Start the event")
    click(desktop, "Seat the next rotation")
    click(desktop, "Start rotation 1")

    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert event.registrations.filter(checked_in=True).count() == 8
    desktop.goto(event.get_absolute_url())
    plans = desktop.locator(".table-plan")
    assert plans.count() == 2
    assert plans.locator(".seat").count() == 8
    assert plans.locator(".seat.dealer").count() == 2
    seated = set(plans.locator(".seat a").all_inner_texts())
    assert seated == set(NAMES)

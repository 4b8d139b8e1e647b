"""Issue 47's seat calls on the wall of a 32-player night on a projector: while the second
rotation's tables find their seats, everyone's table and seat shows above the tables, and every
row of the standings (from the first rotation) is still on the screen, read across the room."""

import pytest

from analytics.standings.services import event_recompute
from games.services.paper import result_enter_paper
from league.models import Rotation
from tests.factories import MembershipFactory
from tests.site.factories import games_of, seated_event
from tests.site.test_browser_axe import axe_problems
from tests.site.test_browser_wall import ROWS_ON_SCREEN, open_wall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def second_rotation():
    event = seated_event(players=32, rotations=2, name="Thirty-two players",
                         status=Rotation.Status.CLOSED)
    Rotation.objects.filter(event=event, number=2).update(status=Rotation.Status.STARTED)
    director = MembershipFactory(club=event.club, role="director").user
    for n, game in enumerate(games_of(event)[:8]):
        result_enter_paper(game=game, user=director, expected_revision=0,
                           totals=[3000 + 100 * n, 1500 + 35 * n])
    event_recompute(event_id=event.pk)
    return event


@pytest.mark.parametrize("viewport", [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}],
                         ids=["1080p", "720p"])
def test_seat_calls_and_every_standings_row_share_a_projector(chromium, live_server, second_rotation,
                                                               viewport):
    context, page = open_wall(chromium, live_server, viewport, second_rotation)
    try:
        assert page.locator(".wall-seat-call-list li").count() == 32
        page.wait_for_function(
            "() => { const r = document.querySelectorAll('.wall-standings-table tbody tr');"
            " return r.length && r[r.length - 1].getBoundingClientRect().bottom <= innerHeight; }")
        seen = page.evaluate(ROWS_ON_SCREEN)
        row_px = float(page.locator(".wall-standings-table tbody th").first.evaluate(
            "el => getComputedStyle(el).fontSize").removesuffix("px"))
        problems = axe_problems(page, "32-player wall with seat calls")
    finally:
        context.close()
    assert seen == {"rows": 32, "off": []}
    assert row_px >= 16, row_px
    assert problems == []

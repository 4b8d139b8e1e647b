"""A league night end to end in a real browser: a scorer enters a table's four rounds on a phone
(one sheet refused by the engine, then corrected), the other side confirms, the event's
standings follow without a reload, and the player page draws its charts."""

import pytest

from analytics.models import StandingsSnapshot
from league.models import Game
from tests.site.conftest import PHONE, TIMEOUT_MS
from tests.site.demo import build_demo, next_pending_game, side_entry_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A lopsided but legal classic round: side 1 goes out with everything, side 2 is caught holding.
WINNING_SIDE = {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "red_threes": 1,
                "table_points": 555, "held_points": 0}
LOSING_SIDE = {"clean_books": 0, "dirty_books": 0, "wild_books": 0, "red_threes": 0,
               "table_points": 0, "held_points": 300}


def standings_names(page) -> list[str]:
    return page.locator("#live-standings tbody th").all_inner_texts()


def open_table_as_side(page, game: Game, side: int) -> None:
    page.goto(side_entry_url(game, side))
    page.wait_for_load_state()


def fill_round(page, number: int, *, both_went_out: bool = False) -> None:
    page.select_option("select[name=round]", str(number))
    page.check("input[name=ended_by][value=went_out]")
    for side, figures in ((0, WINNING_SIDE), (1, LOSING_SIDE)):
        for name, value in figures.items():
            page.fill(f"input[name=side{side}_{name}]", str(value))
    page.set_checked("input[name=side0_went_out]", True)
    page.set_checked("input[name=side1_went_out]", both_went_out)


def save_round(page, expect: str) -> None:
    """Save, and wait for the page's answer (the sheet is sent in the background)."""
    page.get_by_role("button", name="Save this round").click()
    page.get_by_text(expect).first.wait_for()


def test_scorer_enters_a_table_on_a_phone_and_the_standings_follow(chromium, live_server, desktop):
    demo = build_demo()
    game = next_pending_game(demo.event)
    desktop.goto(demo.event.get_absolute_url())
    before = standings_names(desktop)
    desktop.evaluate("window.notReloaded = true")
    scorer_context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                          base_url=live_server.url)
    other_context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                         base_url=live_server.url)
    scorer, other_side = scorer_context.new_page(), other_context.new_page()
    try:
        open_table_as_side(scorer, game, side=0)

        # The engine refuses a round where both sides went out: its message shows as it is
        # typed, and again when the scorer saves anyway.
        fill_round(scorer, 1, both_went_out=True)
        scorer.wait_for_function(
            "() => document.querySelector('#sheet-message').textContent.includes('go out')",
            timeout=TIMEOUT_MS,
        )
        save_round(scorer, "only one side can go out")
        assert game.submissions.count() == 0

        for number in (1, 2, 3, 4):
            fill_round(scorer, number)
            # The computed scores appear as the sheet is typed: the worked example's 3855.
            scorer.wait_for_function(
                "() => [...document.querySelectorAll('output.score')].map(o => o.textContent)"
                ".join(' ') === '3855 -300'",
                timeout=TIMEOUT_MS,
            )
            save_round(scorer, f"Round {number} is saved")
        game.refresh_from_db()
        assert game.status == Game.Status.ENTERED

        open_table_as_side(other_side, game, side=1)
        other_side.get_by_role("button", name="These figures are right: confirm").click()
        other_side.wait_for_load_state()
        assert other_side.get_by_text("the result is confirmed").is_visible()

        snapshot = StandingsSnapshot.objects.get(event=demo.event)
        expected = [row["name"] for row in snapshot.rows]
        desktop.wait_for_function(
            "n => document.querySelectorAll('#live-standings tbody tr').length === n &&"
            " document.querySelector('#live-standings').innerText.includes('3 confirmed games')",
            arg=len(expected), timeout=TIMEOUT_MS,
        )
        assert desktop.evaluate("window.notReloaded") is True
        assert standings_names(desktop) == expected != before

        winner = game.table.seats.get(seat_number=0).player
        scorer.goto(winner.get_absolute_url())
        assert scorer.get_by_role("heading", name="Dashboard").is_visible()
        assert scorer.locator(".chart").count() >= 2
    finally:
        scorer_context.close()
        other_context.close()


def test_player_page_draws_its_charts(desktop):
    demo = build_demo(start_next=False)
    errors: list[str] = []
    desktop.on("pageerror", lambda error: errors.append(str(error)))

    desktop.goto(demo.players[0].get_absolute_url())
    desktop.wait_for_selector(".js-plotly-plot", timeout=5_000)

    assert desktop.locator(".js-plotly-plot").count() >= 2
    assert errors == []

"""Issue 22, finding 11 (d), in a real browser: a player named like a link is plain text in
another player's partner heat map (its tick label and its hover text), and no link appears
anywhere inside the page's charts."""

import pytest

from analytics.selectors import player_partners
from league.models import Player
from tests.site.demo import build_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EVIL = '<a href="https://evil.example">x</a>'


def test_a_name_written_as_a_link_is_plain_text_in_the_partner_heat_map(desktop):
    demo = build_demo(start_next=False)
    player = demo.players[0]
    partner, _ = player_partners(player=player)[0]
    Player.objects.filter(pk=partner.pk).update(name=EVIL)
    errors: list[str] = []
    desktop.on("pageerror", lambda error: errors.append(str(error)))

    desktop.goto(player.get_absolute_url())
    heat_map = desktop.locator(".js-plotly-plot").filter(has=desktop.locator(".heatmaplayer"))
    heat_map.wait_for()

    ticks = heat_map.locator(".ytick text").all_text_contents()
    assert EVIL in ticks  # shown exactly as typed: plotly did not read it as a tag
    heat_map.scroll_into_view_if_needed()  # the mouse hovers only what is on the screen
    box = heat_map.locator(".nsewdrag").first.bounding_box()
    rows = len(ticks)
    row = rows - 1 - ticks.index(EVIL)  # plotly draws the first row at the bottom
    desktop.mouse.move(box["x"] + box["width"] / 6, box["y"] + box["height"] * (row + 0.5) / rows)
    heat_map.locator(".hoverlayer .hovertext").first.wait_for()
    assert EVIL in heat_map.locator(".hoverlayer").text_content()

    assert desktop.locator(".js-plotly-plot svg a").count() == 0
    assert desktop.locator('a[href*="evil.example"]').count() == 0
    assert errors == []

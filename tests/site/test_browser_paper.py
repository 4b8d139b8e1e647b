"""Paper for the room, in a real browser printing as Chromium prints: the score sheet has a box for
every part the event's rules score and fits an upright A4 or Letter page uncut; nothing made for
the screen prints; a substitute's seat on the table card stays inside its seat; cards and sheets
show full names unless the director asks for the names players chose for public pages."""

import io

import pytest
from pypdf import PdfReader

from league.models import Player
from league.services.substitutes import substitute_seat
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.factories import seated_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-director-paper"
# The printable width of an upright page less 12 mm margins each side, in CSS pixels (96 a inch).
PRINTABLE_PX = {"A4": round((210 - 24) / 25.4 * 96), "Letter": round((215.9 - 24) / 25.4 * 96)}
SCREEN_ONLY = "button, .button, .breadcrumb, .site-header, .site-footer, #sheet-names, #card-names"
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('.table-card .seat, .table-card .felt, .table-card .side-key')]
    .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect());
  const hits = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      hits.push([a.top, b.top]);
  }));
  return hits.length;
}"""
CUT = """() => [...document.querySelectorAll('.sheet-grid')]
  .filter(t => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1).length"""


@pytest.fixture
def event(director):
    director.set_password(PASSWORD)
    director.save()
    event = seated_event(club=director.memberships.get().club)
    Player.objects.filter(club=event.club, name="Player A").update(
        name="Annabel Longfellow-Whitcombe", name_shown=Player.NameShown.INITIAL)
    member = Player.objects.get(club=event.club, name="Annabel Longfellow-Whitcombe")
    substitute_seat(event=event, member=member, substitute="Maximilian Substitute-Hargreaves")
    return event


@pytest.fixture
def page(chromium, live_server, director, event):
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    log_in(page, director.username, PASSWORD)
    yield page
    context.close()


def _visible_screen_things(page) -> list[str]:
    return [page.locator(SCREEN_ONLY).nth(i).inner_text()
            for i in range(page.locator(SCREEN_ONLY).count())
            if page.locator(SCREEN_ONLY).nth(i).is_visible()]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_score_sheet_prints_every_scored_part_upright_and_uncut(page, event, paper):
    page.goto(f"/director/events/{event.slug}/score-sheets/?rotation=1")
    heads = page.locator(".sheet-grid").first.locator("thead th").all_inner_texts()
    assert heads == ["Round", "Side", "Clean books", "Dirty books", "Wild books", "Red 3s",
                     "Points on the table", "Points left in hand", "Went out", "Round total"]
    page.emulate_media(media="print")
    page.set_viewport_size({"width": PRINTABLE_PX[paper], "height": 1000})
    assert page.evaluate(CUT) == 0
    assert _visible_screen_things(page) == []
    pdf = PdfReader(io.BytesIO(page.pdf(format=paper)))
    texts = [" ".join(p.extract_text().split()) for p in pdf.pages]
    assert len(texts) == 2  # two tables, a page each
    assert float(pdf.pages[0].mediabox.height) > float(pdf.pages[0].mediabox.width)  # upright
    for number, text in enumerate(texts, start=1):
        assert f"Table {number} score sheet" in text and "Round total" in text and "Round 4" in text


def test_cards_and_sheets_show_full_names_for_the_room_and_public_names_when_asked(page, event):
    page.goto(f"/events/{event.slug}/table-cards/?rotation=1")
    card = page.locator(".table-card").first.inner_text()
    assert "Maximilian Substitute-Hargreaves" in card and "Annabel Longfellow-Whitcombe" in card
    assert "Names: full names, for the room." in page.locator("#card-names").inner_text()
    page.get_by_role("link", name="Print the names players chose for public pages instead").click()
    card = page.locator(".table-card").first.inner_text()
    assert "Annabel L." in card and "Longfellow" not in card
    page.get_by_role("link", name="Print its score sheet").click()
    assert "Names: as players chose" in page.locator("#sheet-names").inner_text()
    assert "Longfellow" not in page.locator(".score-sheet").first.inner_text()


@pytest.mark.parametrize("width", [360, 1280])
def test_a_substitutes_seat_on_the_table_card_overlaps_nothing(page, event, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"/events/{event.slug}/table-cards/?rotation=1")
    seat = page.locator(".table-card .seat", has_text="Maximilian")
    assert "for Annabel Longfellow-Whitcombe" in seat.inner_text()
    assert page.evaluate(OVERLAPS) == 0
    page.emulate_media(media="print")
    assert page.evaluate(OVERLAPS) == 0
    assert _visible_screen_things(page) == []

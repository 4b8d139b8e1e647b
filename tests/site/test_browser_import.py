"""The director's spreadsheet import in a real browser at 360 px: upload a workbook, read the
preview, import; each step passes axe-core and fits the screen, and the results are stored only
after the import button."""

import pytest

from games.models import ResultVersion
from tests.games import import_helpers as h
from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-director-1"


def test_upload_preview_and_import_at_360_px(chromium, live_server, director, tmp_path):
    director.set_password(PASSWORD)
    director.save()
    club = director.memberships.get().club
    past = h.past_nights()
    path = tmp_path / "club-results.xlsx"
    path.write_bytes(h.sheet_per_night(past))
    context = chromium.new_context(viewport={"width": 360, "height": 780}, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    problems = []
    try:
        log_in(page, director.username, PASSWORD)
        page.goto(f"/director/clubs/{club.slug}/import/")
        problems += axe_problems(page, "upload") + fit_problems(page, "upload")
        page.get_by_label("Spreadsheet").set_input_files(str(path))
        page.get_by_role("button", name="Preview").click()
        page.wait_for_load_state()
        assert "8 games on 2 nights, 8 new players to import" in page.inner_text("main")
        problems += axe_problems(page, "preview") + fit_problems(page, "preview")
        assert not ResultVersion.objects.exists()  # the preview stores nothing
        page.get_by_role("button", name="Import 8 games").click()
        page.wait_for_load_state()
        assert "imported." in page.inner_text("main")
        problems += axe_problems(page, "imported") + fit_problems(page, "imported")
    finally:
        context.close()
    assert problems == []
    assert ResultVersion.objects.filter(
        game__table__rotation__event__club=club, status="confirmed"
    ).count() == len(past)

"""The club's backup in the browser at 360 px: the director presses the button on the club's
page, the backup page (progress, then the link) passes axe-core and fits the screen, and the
link downloads the JSON file."""

import json

import pytest

from tests.site.conftest import TIMEOUT_MS, log_in
from tests.site.test_browser_axe import axe_problems, fit_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-director-1"


def test_the_director_downloads_the_backup_from_the_clubs_page(
    chromium, live_server, director, settings, tmp_path
):
    settings.CLUB_BACKUP_DIR = tmp_path
    director.set_password(PASSWORD)
    director.save()
    club = director.memberships.get().club
    context = chromium.new_context(
        viewport={"width": 360, "height": 780}, base_url=live_server.url, accept_downloads=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        log_in(page, director.username, PASSWORD)
        page.goto(f"/director/clubs/{club.slug}/")
        page.get_by_role("button", name="Download the club's full backup (JSON)").click()
        link = page.get_by_role("link", name="Download the backup")
        link.wait_for()
        problems = axe_problems(page, "backup") + fit_problems(page, "backup")
        with page.expect_download() as info:
            link.click()
        data = json.loads(info.value.path().read_text())
    finally:
        context.close()
    assert problems == []
    assert data["club"] == club.slug and data["format"].startswith("hand-and-foot-club-export/")

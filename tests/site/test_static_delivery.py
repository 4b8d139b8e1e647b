"""What production serves: static files collected under hashed names with gzip and brotli copies,
served by WhiteNoise with a one-year immutable cache; and the player page's transfer budget in
Chromium (first visit at most 600 KB, a repeat visit at most 60 KB, charts drawn).

Other tests link static files unhashed (tests/conftest.py). Here `collectstatic` runs once with
the real storage, and the pages are served by the site's own WSGI application (WhiteNoise
included), not by the test server's static handler, which would serve the files uncompressed."""

import re
from contextlib import contextmanager

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.test.testcases import LiveServerThread

from analytics.models import PlayerStats
from config.settings import BASE_DIR
from tests.site.conftest import DESKTOP, TIMEOUT_MS
from tests.site.demo import build_demo

FIRST_VISIT_BUDGET = 600_000
REPEAT_VISIT_BUDGET = 60_000
ONE_YEAR = "max-age=31536000, public, immutable"
PLOTLY = re.compile(r'src="(/static/vendor/plotly/plotly-cartesian\.min\.[0-9a-f]{12}\.js)"')


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """The project's static files collected as production collects them (the apps' own files,
    admin and API docs, are left out: the public pages use none, and compressing them takes a
    minute)."""
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(
        STATIC_ROOT=root,
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        STORAGES={"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                  "staticfiles": {
                      "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}},
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def production_static(settings, collected):
    """Serve and link static files as in production: hashed names, only collected files."""
    settings.STATIC_ROOT = collected
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    return collected


@contextmanager
def site_server():
    """The site's WSGI application (middleware and all) on a free local port."""
    server = LiveServerThread("localhost", static_handler=lambda app: app)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    try:
        yield f"http://localhost:{server.port}"
    finally:
        server.terminate()
        server.join()


def transferred(page) -> int:
    """Bytes the browser fetched for the page and everything it loaded (headers and compressed
    bodies; 0 for what came from its cache)."""
    return page.evaluate(
        "performance.getEntriesByType('navigation').concat(performance.getEntriesByType("
        "'resource')).reduce((sum, entry) => sum + entry.transferSize, 0)")


@pytest.mark.django_db(transaction=True)  # the demo's analytics run on commit
def test_plotly_is_served_hashed_compressed_and_cached_for_a_year(client, production_static):
    demo = build_demo(start_next=False)
    page = client.get(demo.players[0].get_absolute_url()).content.decode()
    url = PLOTLY.search(page).group(1)
    plain = (BASE_DIR / "static/vendor/plotly/plotly-cartesian.min.js").stat().st_size

    for encoding in ("br", "gzip"):
        response = client.get(url, headers={"Accept-Encoding": encoding})
        assert response.status_code == 200
        assert response["Content-Encoding"] == encoding
        assert response["Cache-Control"] == ONE_YEAR
        assert int(response["Content-Length"]) < plain / 2.9
    assert client.get("/static/vendor/plotly/plotly-cartesian.min.js").status_code == 404


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_player_page_keeps_to_its_transfer_budget(chromium, production_static):
    demo = build_demo(start_next=False)
    player = demo.players[0]
    assert PlayerStats.objects.filter(player=player).exists()
    with site_server() as base_url:
        context = chromium.new_context(viewport=DESKTOP, base_url=base_url)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        encodings = []
        page.on("response", lambda r: encodings.append(r.headers.get("content-encoding"))
                if "plotly" in r.url else None)
        try:
            page.goto(player.get_absolute_url(), wait_until="load")
            page.wait_for_selector(".js-plotly-plot .main-svg")
            charts = page.locator(".js-plotly-plot").count()
            first = transferred(page)
            page.goto(player.get_absolute_url(), wait_until="load")
            page.wait_for_selector(".js-plotly-plot .main-svg")
            repeat = transferred(page)
        finally:
            context.close()

    print(f"\nplayer page: first visit {first:,} bytes, repeat {repeat:,}, plotly {encodings}")
    assert charts == 5
    assert encodings and encodings[0] in ("br", "gzip")
    assert 100_000 < first <= FIRST_VISIT_BUDGET, first
    assert repeat <= REPEAT_VISIT_BUDGET, repeat

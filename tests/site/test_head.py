"""Every page answers HEAD as it answers GET (same status, no body): a crawl of the links and
scripts of the demo's pages, anonymous and as the director. Each kind of page (its URL pattern)
is opened at two addresses at most: the demo's hundred player, game and replay pages answer as
their first two do."""

import html
import re
from collections import Counter
from urllib.parse import urlsplit

import pytest
from django.urls import Resolver404, resolve

from analytics.tasks import recompute_all_clubs
from site_pages.demo import DIRECTOR_PASSWORD, build_demo

pytestmark = pytest.mark.django_db

LINK = re.compile(r'(?:href|src)="([^"]+)"')
# Django's admin and the API are not the site's pages; logging out needs a POST.
SKIP = ("/admin/", "/api/", "/accounts/logout/")
LIMIT = 400
PER_PATTERN = 2


def pattern(url: str) -> str:
    """The URL pattern a path answers to (the path itself for static files and 404s)."""
    path = urlsplit(url).path
    if path.startswith("/static/"):
        return path
    try:
        return resolve(path).route
    except Resolver404:
        return path


def links(body: str) -> set[str]:
    found = set()
    for raw in LINK.findall(body):
        parts = urlsplit(html.unescape(raw))
        if not parts.netloc and parts.path.startswith("/") and not parts.path.startswith(SKIP):
            found.add(parts.path + (f"?{parts.query}" if parts.query else ""))
    return found


def crawl(client, start: str) -> dict[str, tuple[int, int]]:
    """URL -> (GET status, HEAD status) of every page reachable from `start`."""
    statuses: dict[str, tuple[int, int]] = {}
    opened: Counter[str] = Counter()
    queue = [start]
    while queue and len(statuses) < LIMIT:
        url = queue.pop(0)
        if url in statuses or opened[pattern(url)] >= PER_PATTERN:
            continue
        opened[pattern(url)] += 1
        head, get = client.head(url), client.get(url)
        statuses[url] = get.status_code, head.status_code
        assert b"".join(head.streaming_content if head.streaming else [head.content]) == b"", url
        if get.get("Content-Type", "").startswith("text/html"):
            queue += sorted(links(get.content.decode()) - statuses.keys())
    return statuses


def test_every_page_answers_head_like_get(client):
    demo = build_demo(past_nights=1)
    recompute_all_clubs()  # the analytics jobs (on commit, which this test never reaches)
    public = crawl(client, "/")
    # Signed in as a browser would (django-axes needs the request that Client.login omits).
    client.post("/accounts/login/", {"username": demo.director_username,
                                     "password": DIRECTOR_PASSWORD})
    director = crawl(client, "/director/")
    pages = public | director

    assert {url: s for url, s in pages.items() if s[0] != s[1] or s[0] >= 400} == {}
    assert len(pages) < LIMIT  # the crawl ended by itself: every page was reached
    for kind in ("/players/", "/partnerships/", "/head-to-head/", "/events/", "/seasons/",
                 "/leaderboard/", "/play/", "/clubs/", "/director/events/", "/static/",
                 "plotly"):
        assert any(kind in url for url in pages), kind

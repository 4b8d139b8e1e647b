"""The polls' micro-cache in deploy/nginx.conf: readers who are not signed in share one answer
per fragment and half second (the pages themselves always reach the app); signed-in readers, a waiting message, an API credential and a reply
that sets a cookie always go through. nginx runs against a stand-in for gunicorn that answers as
`analytics.views.page_cache.cached_response` does (ETag, `Cache-Control: no-cache`, `Vary:
Accept-Encoding`) and counts what reaches it."""

import gzip
import http.client
import pathlib
import shutil
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.config.test_proxy import HOST, free_port, start_nginx, wait_until_answering

pytestmark = pytest.mark.proxy

STANDINGS = "/events/spring-night/standings/"
POLL = {"X-Requested-With": "fetch"}  # as live-refresh.js asks
WALL_FRAGMENT = "/events/spring-night/wall/?fragment=1"


class Upstream:
    """What reached the app: each request's path and headers; the page's version, which the test
    moves on as a confirmed result would."""

    def __init__(self) -> None:
        self.version = 1
        self.set_cookie = False
        self.delay = 0.0  # seconds the app takes to answer (a busy night)
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.lock = threading.Lock()
        self.live_root = pathlib.Path()  # where nginx looks for the live fragments' files

    def hits(self, path: str) -> int:
        with self.lock:
            return sum(1 for seen, _ in self.requests if seen == path)


def handler_for(upstream: Upstream) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            with upstream.lock:
                upstream.requests.append((self.path, dict(self.headers)))
                version, delay = upstream.version, upstream.delay
            time.sleep(delay)
            zipped = "gzip" in self.headers.get("Accept-Encoding", "")
            fetch = self.headers.get("X-Requested-With", "")
            body = f"v{version} {'fragment' if fetch else 'page'} {'gz' if zipped else ''}".encode()
            status = 404 if "no-such" in self.path else 200
            self.send_response(status)
            self.send_header("ETag", f'"v{version}"')
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Vary", "Accept-Encoding")
            if upstream.set_cookie:
                self.send_header("Set-Cookie", "csrftoken=abc; Path=/")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@pytest.fixture(scope="module")
def proxy():
    # nginx's workers (not root) keep the cache in it: pytest's own folders are the owner's only.
    run_dir = pathlib.Path(tempfile.mkdtemp(prefix="hf-polls-"))
    run_dir.chmod(0o755)
    upstream = Upstream()
    upstream.live_root = run_dir / "live"
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(upstream))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = free_port()
    nginx = start_nginx(run_dir, upstream=f"127.0.0.1:{server.server_address[1]}", port=port)
    try:
        wait_until_answering(port, "/proxy-health")
        yield port, upstream
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        server.shutdown()
        shutil.rmtree(run_dir, ignore_errors=True)


@pytest.fixture
def fresh(proxy):
    """A new version of the page (nothing of it cached yet), no cookie set by the app, and the
    clock just past the start of a half second, so that the requests that follow fall in one."""
    port, upstream = proxy
    with upstream.lock:
        upstream.version += 1
        upstream.set_cookie, upstream.delay = False, 0.0
        upstream.requests.clear()
    time.sleep(0.5)  # whatever earlier tests kept is in an older half second now
    while time.time() % 0.5 > 0.05:
        time.sleep(0.005)
    return port, upstream


def ask(port: int, path: str, **headers: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path, headers={"Host": HOST, **headers})
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    time.sleep(0.02)  # nginx files the answer in its cache just after the last byte is sent
    return response


def test_readers_not_signed_in_share_one_answer_per_half_second(fresh):
    port, upstream = fresh
    answers = [ask(port, STANDINGS, **{"X-Requested-With": "fetch"}) for _ in range(10)]
    assert [a.status for a in answers] == [200] * 10
    assert {a.body for a in answers} == {f"v{upstream.version} fragment ".encode()}
    assert upstream.hits(STANDINGS) == 1
    # The browser is still told to ask again each time.
    assert answers[-1].getheader("Cache-Control") == "no-cache"


def test_polls_arriving_while_the_app_is_slow_to_answer_wait_for_that_one_answer(fresh):
    port, upstream = fresh
    upstream.delay = 0.3
    answers: list[http.client.HTTPResponse] = []
    polls = [threading.Thread(target=lambda: answers.append(ask(port, STANDINGS, **POLL)))
             for _ in range(6)]
    for poll in polls:
        poll.start()
    for poll in polls:
        poll.join()
    assert [a.status for a in answers] == [200] * 6
    assert upstream.hits(STANDINGS) == 1


def test_a_reader_holding_the_version_gets_304_from_the_proxy(fresh):
    port, upstream = fresh
    first = ask(port, WALL_FRAGMENT, **{"X-Requested-With": "fetch"})
    again = ask(port, WALL_FRAGMENT, **{"X-Requested-With": "fetch",
                                         "If-None-Match": first.getheader("ETag")})
    assert again.status == 304
    assert again.body == b""
    assert upstream.hits(WALL_FRAGMENT) == 1
    # The app is asked for the whole answer, never a conditional one nginx could not keep.
    [(_, headers)] = upstream.requests
    assert "If-None-Match" not in headers


def test_a_new_version_shows_within_the_next_half_second(fresh):
    port, upstream = fresh
    before = ask(port, STANDINGS, **{"X-Requested-With": "fetch"})
    with upstream.lock:
        upstream.version += 1
    time.sleep(0.55)
    after = ask(port, STANDINGS, **{"X-Requested-With": "fetch",
                                     "If-None-Match": before.getheader("ETag")})
    assert after.status == 200
    assert after.body == f"v{upstream.version} fragment ".encode()
    assert upstream.hits(STANDINGS) == 2


def test_signed_in_readers_a_waiting_message_or_a_credential_always_reach_the_app(fresh):
    port, upstream = fresh
    ask(port, STANDINGS)  # kept for the readers not signed in
    for headers in ({"Cookie": "sessionid=abc"}, {"Cookie": "csrftoken=x; messages=xyz"},
                    {"Authorization": "Token abc"}):
        ask(port, STANDINGS, **headers)
        ask(port, STANDINGS, **headers)
    assert upstream.hits(STANDINGS) == 7


def test_what_the_app_answered_a_signed_in_reader_is_not_kept_for_others(fresh):
    port, upstream = fresh
    ask(port, STANDINGS, Cookie="sessionid=abc")
    ask(port, STANDINGS)
    assert upstream.hits(STANDINGS) == 2


def test_an_answer_that_sets_a_cookie_is_not_kept(fresh):
    port, upstream = fresh
    upstream.set_cookie = True
    ask(port, STANDINGS)
    ask(port, STANDINGS)
    assert upstream.hits(STANDINGS) == 2


def test_fragments_compressed_and_plain_are_kept_apart(fresh):
    port, upstream = fresh
    variants = [{"X-Requested-With": "fetch"}, {"X-Requested-With": "fetch", "Accept-Encoding": "gzip"}]
    bodies = [ask(port, STANDINGS, **headers).body for headers in variants]
    bodies += [ask(port, STANDINGS, **headers).body for headers in variants]
    v = upstream.version
    assert bodies[:2] == [f"v{v} fragment ".encode(), f"v{v} fragment gz".encode()]
    assert bodies[2:] == bodies[:2]
    assert upstream.hits(STANDINGS) == 2


def test_the_polled_pages_themselves_always_reach_the_app(fresh):
    # Loaded once by each reader: no wait on the cache's lock (Django keeps them per version).
    port, upstream = fresh
    for headers in ({}, {"Accept-Encoding": "gzip"}, {}):
        assert ask(port, STANDINGS, **headers).status == 200
    assert upstream.hits(STANDINGS) == 3
    ask(port, WALL_FRAGMENT.split("?")[0])
    ask(port, WALL_FRAGMENT.split("?")[0])
    assert upstream.hits(WALL_FRAGMENT.split("?")[0]) == 2


def test_an_unknown_event_is_answered_from_the_cache_too(fresh):
    port, upstream = fresh
    path = "/events/no-such-night/standings/"
    assert [ask(port, path, **POLL).status for _ in range(3)] == [404] * 3
    assert upstream.hits(path) == 1


def test_pages_that_do_not_poll_always_reach_the_app(fresh):
    port, upstream = fresh
    for path in ("/events/spring-night/", "/events/spring-night/standings/extra/"):
        ask(port, path)
        ask(port, path)
        assert upstream.hits(path) == 2


LIVE_STANDINGS = "/events/live-night/standings/"
LIVE_WALL = "/events/live-night/wall/"


@pytest.fixture
def live_files(fresh):
    """The files `publish_live_pages` keeps for a running event, live-night."""
    port, upstream = fresh
    folder = upstream.live_root / "events" / "live-night"
    folder.mkdir(parents=True, exist_ok=True)
    for kind in ("standings", "wall"):
        html = f"<p>{kind} from the file</p>".encode()
        (folder / f"{kind}.fragment.html").write_bytes(html)
        (folder / f"{kind}.fragment.html.gz").write_bytes(gzip.compress(html))
    folder.parent.chmod(0o755)
    folder.parent.parent.chmod(0o755)
    folder.chmod(0o755)
    yield port, upstream
    shutil.rmtree(upstream.live_root, ignore_errors=True)


def test_a_poll_is_answered_from_the_live_file_without_the_app(live_files):
    port, upstream = live_files
    answer = ask(port, LIVE_STANDINGS, **{"X-Requested-With": "fetch"})
    assert answer.status == 200 and answer.body == b"<p>standings from the file</p>"
    assert answer.getheader("X-Poll-Cache") == "FILE"
    assert answer.getheader("Content-Type") == "text/html; charset=utf-8"
    assert answer.getheader("Cache-Control") == "no-cache"
    wall = ask(port, LIVE_WALL + "?fragment=1", **{"X-Requested-With": "fetch"})
    assert wall.body == b"<p>wall from the file</p>"
    assert upstream.hits(LIVE_STANDINGS) == 0 and upstream.hits(LIVE_WALL + "?fragment=1") == 0


def test_the_live_file_answers_304_to_a_reader_holding_it_and_gzip_to_who_takes_it(live_files):
    port, upstream = live_files
    first = ask(port, LIVE_STANDINGS, **{"X-Requested-With": "fetch"})
    again = ask(port, LIVE_STANDINGS, **{"X-Requested-With": "fetch",
                                         "If-None-Match": first.getheader("ETag")})
    assert again.status == 304 and again.body == b""
    zipped = ask(port, LIVE_STANDINGS, **{"X-Requested-With": "fetch",
                                          "Accept-Encoding": "gzip"})
    assert zipped.getheader("Content-Encoding") == "gzip"
    assert gzip.decompress(zipped.body) == b"<p>standings from the file</p>"
    assert upstream.hits(LIVE_STANDINGS) == 0


def test_a_new_file_is_served_at_once(live_files):
    port, upstream = live_files
    first = ask(port, LIVE_STANDINGS, **{"X-Requested-With": "fetch"})
    path = upstream.live_root / "events" / "live-night" / "standings.fragment.html"
    path.write_bytes(b"<p>1 confirmed game</p>")
    path.with_name(path.name + ".gz").unlink()
    after = ask(port, LIVE_STANDINGS, **{"X-Requested-With": "fetch",
                                         "If-None-Match": first.getheader("ETag")})
    assert after.status == 200 and after.body == b"<p>1 confirmed game</p>"


def test_pages_signed_in_readers_and_events_without_files_reach_the_app(live_files):
    port, upstream = live_files
    ask(port, LIVE_STANDINGS)  # the page itself, not its fragment
    ask(port, LIVE_STANDINGS, **{"X-Requested-With": "fetch", "Cookie": "sessionid=abc"})
    ask(port, LIVE_STANDINGS + "?division=2", **{"X-Requested-With": "fetch"})
    assert upstream.hits(LIVE_STANDINGS) == 2 and upstream.hits(LIVE_STANDINGS + "?division=2") == 1
    answer = ask(port, STANDINGS, **{"X-Requested-With": "fetch"})  # spring-night: no file
    assert answer.body == f"v{upstream.version} fragment ".encode()
    assert upstream.hits(STANDINGS) == 1

"""deploy/nginx.conf's two pools of the same app: the public pages a room reads and keeps open
go to the readers' pool, everything else (the tables' pages, entries, the API, downloads, the
director's pages) to the main one. nginx runs against two stand-ins that count what reaches
each."""

import pathlib
import shutil
import tempfile
import threading
from http.server import ThreadingHTTPServer

import pytest

from tests.config.test_proxy import free_port, get, start_nginx, wait_until_answering
from tests.config.test_proxy_polls import Upstream, handler_for

pytestmark = pytest.mark.proxy

READERS_PAGES = [
    "/events/spring-night/",
    "/events/spring-night/standings/",
    "/events/spring-night/wall/",
    "/events/spring-night/wall/?fragment=1",
    "/seasons/12/standings/",
    "/clubs/riverside/players/7/",
    "/leaderboard/",
]
MAIN_PAGES = [
    "/",
    "/play/abc123/",
    "/api/results/7/",
    "/api/results/7/submissions/",
    "/events/spring-night/standings.csv",
    "/events/spring-night/what-if/",
    "/events/spring-night/results.xlsx",
    "/seasons/12/what-if/",
    "/clubs/riverside/players/7/stats.csv",
    "/players/riverside/ann-lee/",
    "/director/seasons/12/divisions/",
    "/me/players/3/calendar/",
    "/healthz",
]


@pytest.fixture(scope="module")
def pools():
    run_dir = pathlib.Path(tempfile.mkdtemp(prefix="hf-pools-"))
    run_dir.chmod(0o755)  # nginx's workers (not root) keep their cache in it
    main, readers = Upstream(), Upstream()
    servers = [ThreadingHTTPServer(("127.0.0.1", 0), handler_for(u)) for u in (main, readers)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    port = free_port()
    nginx = start_nginx(run_dir, upstream=f"127.0.0.1:{servers[0].server_address[1]}",
                        readers_upstream=f"127.0.0.1:{servers[1].server_address[1]}", port=port)
    try:
        wait_until_answering(port, "/proxy-health")
        yield port, main, readers
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        for server in servers:
            server.shutdown()
        shutil.rmtree(run_dir, ignore_errors=True)


def reached(port: int, main: Upstream, readers: Upstream, path: str) -> str:
    main.requests.clear()
    readers.requests.clear()
    assert get(port, path, {"Cookie": "sessionid=someone"}).status == 200  # never from the cache
    return "readers" if readers.hits(path) == 1 and main.hits(path) == 0 else (
        "main" if main.hits(path) == 1 and readers.hits(path) == 0 else "both or neither")


@pytest.mark.parametrize("path", READERS_PAGES)
def test_the_public_pages_a_room_reads_go_to_the_readers_pool(pools, path):
    assert reached(*pools, path) == "readers"


@pytest.mark.parametrize("path", MAIN_PAGES)
def test_tables_entries_downloads_and_everything_else_go_to_the_main_pool(pools, path):
    assert reached(*pools, path) == "main"


def test_a_poll_answered_from_the_cache_was_drawn_by_the_readers_pool(pools):
    port, main, readers = pools
    main.requests.clear()
    readers.requests.clear()
    path = "/events/autumn-night/standings/"
    for _ in range(3):
        assert get(port, path, {"X-Requested-With": "fetch"}).status == 200
    assert 1 <= readers.hits(path) <= 2  # once per half second
    assert main.hits(path) == 0


def test_docker_compose_fills_in_every_variable_of_the_proxy_config_and_runs_both_pools():
    import re

    import yaml

    root = pathlib.Path(__file__).resolve().parents[2]
    used = set(re.findall(r"\$\{([A-Z_]+)\}", (root / "deploy" / "nginx.conf").read_text()))
    services = yaml.safe_load((root / "docker-compose.yml").read_text())["services"]
    proxy = services["proxy"]
    substituted = set(re.findall(r"\$\$([A-Z_]+)", proxy["command"][-1]))
    assert used == substituted == set(proxy["environment"])
    assert {"APP_UPSTREAM", "READERS_UPSTREAM"} <= used
    for upstream in ("APP_UPSTREAM", "READERS_UPSTREAM"):
        service = proxy["environment"][upstream].split(":")[0]
        assert "gunicorn" in str(services[service]["command"])
        assert service in proxy["depends_on"]
    assert services["readers"]["environment"] == services["web"]["environment"]

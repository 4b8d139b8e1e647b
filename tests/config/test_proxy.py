"""Production serving: nginx (deploy/nginx.conf, as docker-compose.yml runs it) in front of
gunicorn's sync workers under production settings. Slow clients hold nginx connections, not the
workers; a body over the limit is refused by nginx before it is read; the client cannot claim
https through it; the web container's health check (config.healthcheck) passes."""

import http.client
import os
import pathlib
import secrets
import shutil
import socket
import subprocess  # nosec B404: the test starts nginx and gunicorn itself
import sys
import time

import pytest

from tests.waiting import WAIT_SECONDS, wait_for

pytestmark = pytest.mark.proxy

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORKERS = 2
HOST = "league.example.org"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port: int, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path, headers={"Host": HOST, **(headers or {})})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def wait_until_answering(port: int, path: str) -> None:
    def answers() -> bool:
        try:
            get(port, path)
        except OSError:
            return False
        return True

    wait_for(answers, what=f"port {port} to answer {path}")


def start_nginx(run_dir: pathlib.Path, *, upstream: str, port: int,
                readers_upstream: str | None = None,
                live_root: pathlib.Path | None = None) -> subprocess.Popen:
    """nginx from deploy/nginx.conf, its variables filled in as docker-compose.yml's envsubst
    does (the readers' pool is the same app as the rest unless a test tells them apart; the
    live fragments' files are under `live_root`, by default an empty folder)."""
    config = (ROOT / "deploy" / "nginx.conf").read_text()
    for name, value in {"APP_UPSTREAM": upstream, "READERS_UPSTREAM": readers_upstream or upstream,
                        "PROXY_PORT": str(port), "RUN_DIR": str(run_dir),
                        "LIVE_ROOT": str(live_root or run_dir / "live")}.items():
        config = config.replace("${" + name + "}", value)
    (run_dir / "nginx.conf").write_text(config)
    return subprocess.Popen(  # nosec B603
        [shutil.which("nginx") or "/usr/sbin/nginx", "-c", str(run_dir / "nginx.conf"),
         "-p", str(run_dir), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("proxy")
    app_port, proxy_port = free_port(), free_port()
    env = {**os.environ, "DJANGO_ENV": "production", "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
           "DJANGO_ALLOWED_HOSTS": HOST, "DJANGO_NUM_PROXIES": "1", "DATABASE_URL": "",
           "CELERY_BROKER_URL": "", "DATA_DIR": str(run_dir / "data"),
           "HEALTHCHECK_PORT": str(app_port)}
    gunicorn = subprocess.Popen(  # nosec B603
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{app_port}", "--workers", str(WORKERS), "--timeout", "60"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    nginx = start_nginx(run_dir, upstream=f"127.0.0.1:{app_port}", port=proxy_port)
    try:
        wait_until_answering(app_port, "/healthz")
        wait_until_answering(proxy_port, "/proxy-health")
        yield {"app": app_port, "proxy": proxy_port, "env": env}
    finally:
        for process in (nginx, gunicorn):
            process.terminate()
            process.wait(timeout=10)


def slow_client(port: int) -> socket.socket:
    """A client that declares a 10 kB body and sends one byte of it (over https, as far as the
    app can tell, so that the view reads the body instead of redirecting)."""
    client = socket.create_connection(("127.0.0.1", port))
    client.sendall(f"POST /api/sheets/check/ HTTP/1.1\r\nHost: {HOST}\r\n".encode()
                   + b"X-Forwarded-Proto: https\r\nContent-Type: application/json\r\n"
                   + b"Content-Length: 10000\r\n\r\n{")
    return client


def test_the_app_answers_while_more_slow_clients_than_workers_hang(stack):
    slow = [slow_client(stack["proxy"]) for _ in range(WORKERS + 3)]
    try:
        time.sleep(1)  # every one of them is mid-body now
        # Answered by Django (a worker was free): the redirect of plain http to https.
        answer = get(stack["proxy"], "/healthz")
        assert answer.status == 301
        assert answer.getheader("Location") == f"https://{HOST}/healthz"
    finally:
        for client in slow:
            client.close()


def test_a_body_declared_over_the_limit_is_refused_by_the_proxy_unread(stack):
    with socket.create_connection(("127.0.0.1", stack["proxy"]), timeout=5) as client:
        client.sendall(f"POST /play/no-such-link/log/ HTTP/1.1\r\nHost: {HOST}\r\n".encode()
                       + b"Content-Type: multipart/form-data; boundary=x\r\n"
                       + b"Content-Length: 314572800\r\n\r\n")
        answer = client.recv(4096).decode("latin-1")
    assert answer.startswith("HTTP/1.1 413")


def test_a_client_cannot_claim_https_through_the_proxy(stack):
    forged = get(stack["proxy"], "/healthz", {"X-Forwarded-Proto": "https"})
    assert forged.status == 301  # nginx sent the scheme it saw: http


def test_the_web_containers_health_check_passes(stack):
    check = subprocess.run([sys.executable, "-m", "config.healthcheck"], cwd=ROOT,  # nosec B603
                           env={**stack["env"], "HEALTHCHECK_TIMEOUT": str(WAIT_SECONDS)},
                           capture_output=True, text=True, timeout=WAIT_SECONDS + 30)
    assert check.returncode == 0, check.stderr

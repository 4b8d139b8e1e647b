"""docker-compose.yml is checked without docker (scripts/check_compose.py), and its defaults serve
a working plain-http site until TLS is set up in front of it."""

import json
import subprocess  # nosec B404
import sys

import pytest
import yaml

from scripts import check_compose
from tests.conftest import REPO_ROOT

COMPOSE = REPO_ROOT / "docker-compose.yml"
SECRET = {"DJANGO_SECRET_KEY": "k" * 60}


def test_the_compose_file_is_valid_with_only_the_secret_set():
    assert check_compose.check(COMPOSE, dict(SECRET)) == []


def test_the_compose_file_refuses_to_start_without_a_secret():
    assert check_compose.check(COMPOSE, {}) == [
        "required variable DJANGO_SECRET_KEY is missing a value: set DJANGO_SECRET_KEY (50+ characters)"]


@pytest.mark.parametrize(("text", "mistake", "problem"), [
    ("condition: service_healthy", "condition: service_ready",
     "is not valid under any of the given schemas"),
    ("- livepages:/app/live:ro", "- livepage:/app/live:ro", "volume 'livepage' is not declared"),
    ("    depends_on:\n      web:", "    depends_on:\n      wab:", "no service named 'wab'"),
])
def test_the_check_finds_a_planted_mistake(tmp_path, text, mistake, problem):
    assert text in COMPOSE.read_text()
    (tmp_path / "docker-compose.yml").write_text(COMPOSE.read_text().replace(text, mistake, 1))
    problems = check_compose.check(tmp_path / "docker-compose.yml", dict(SECRET))
    assert any(problem in p for p in problems), problems


def _web_environment(environ: dict[str, str]) -> dict[str, str]:
    document = check_compose.interpolated(yaml.safe_load(COMPOSE.read_text()), environ)
    return {key: str(value) for key, value in document["services"]["web"]["environment"].items()}


def _production_settings(env: dict[str, str]) -> dict[str, object]:
    code = ("import json; from django.conf import settings as s; print(json.dumps({n: getattr(s, n)"
            " for n in ('SECURE_SSL_REDIRECT', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE',"
            " 'SECURE_HSTS_SECONDS')}))")
    wanted = {"DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": "",
              "CELERY_BROKER_URL": "", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + code],  # nosec B603
                          cwd=REPO_ROOT, env={**env, **wanted}, capture_output=True, text=True,
                          check=True, timeout=120)
    return json.loads(done.stdout)


def test_the_compose_defaults_serve_plain_http_that_a_browser_can_sign_in_to():
    web = _web_environment(dict(SECRET))
    assert web["SITE_URL"] == "http://localhost:8000"
    assert _production_settings(web) == {
        "SECURE_SSL_REDIRECT": False, "SESSION_COOKIE_SECURE": False, "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0}


def test_with_https_said_production_redirects_and_keeps_cookies_secure():
    web = _web_environment({**SECRET, "DJANGO_HTTPS": "1"})
    assert _production_settings(web) == {
        "SECURE_SSL_REDIRECT": True, "SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31536000}

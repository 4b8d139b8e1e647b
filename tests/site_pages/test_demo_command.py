"""Issue 22, finding 9: `manage.py demo` refuses under production settings unless told
`--yes-on-production`, and then gives the director a random password printed once."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from league.models import Club
from site_pages import demo
from site_pages.demo import DEMO_CLUB_SLUG, DIRECTOR_PASSWORD, DIRECTOR_USERNAME

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_demo(monkeypatch):
    """The demo's own steps, on a smaller club (the full demo takes a while)."""
    real = demo.build_demo
    monkeypatch.setattr(demo, "build_demo", lambda **kwargs: real(player_count=8))


def signs_in(password: str) -> bool:
    return get_user_model().objects.get(username=DIRECTOR_USERNAME).check_password(password)


def run(*args: str) -> str:
    out = StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def test_production_refuses_the_demo_and_changes_nothing(settings, small_demo):
    settings.PRODUCTION = True
    with pytest.raises(CommandError) as refused:
        run()
    assert "production settings" in str(refused.value)
    assert "--yes-on-production" in str(refused.value)
    assert not Club.objects.filter(slug=DEMO_CLUB_SLUG).exists()
    assert not get_user_model().objects.filter(username=DIRECTOR_USERNAME).exists()


def test_production_with_consent_gets_a_random_password_printed_once(settings, small_demo):
    settings.PRODUCTION = True
    out = run("--yes-on-production")
    line = next(text for text in out.splitlines() if text.startswith("Director login:"))
    password = line.split(" / ")[1].split(" ")[0]
    assert password != DIRECTOR_PASSWORD and len(password) >= 16
    assert not signs_in(DIRECTOR_PASSWORD)
    assert signs_in(password)
    assert "changepassword" in out
    again = run("--yes-on-production")
    assert password not in again  # printed only the once


def test_development_keeps_the_published_demo_login(settings, small_demo):
    settings.PRODUCTION = False
    out = run()
    assert f"Director login: {DIRECTOR_USERNAME} / {DIRECTOR_PASSWORD}" in out
    assert signs_in(DIRECTOR_PASSWORD)

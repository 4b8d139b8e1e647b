"""Issue 22, finding 11: X-Forwarded-Proto is trusted only when a proxy is configured."""

import os
import subprocess
import sys

import pytest

PRODUCTION = {"DJANGO_ENV": "production", "DJANGO_SECRET_KEY": "s" * 60,
              "DJANGO_ALLOWED_HOSTS": "league.example"}


def proxy_header(**env: str) -> str:
    code = ("import django; from django.conf import settings; django.setup(); "
            "print(getattr(settings, 'SECURE_PROXY_SSL_HEADER', None))")
    return subprocess.run(  # noqa: S603 - our own interpreter and settings
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **PRODUCTION, **env},
    ).stdout.strip()


@pytest.mark.parametrize(("proxies", "trusted"), [("0", False), ("1", True)])
def test_the_proxy_ssl_header_is_trusted_only_behind_a_proxy(proxies, trusted):
    header = proxy_header(DJANGO_NUM_PROXIES=proxies)
    assert (header == "('HTTP_X_FORWARDED_PROTO', 'https')") is trusted
    assert trusted or header == "None"

"""Fixtures of the public site's tests."""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Users here log in often; the real hasher's deliberate slowness buys these tests nothing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

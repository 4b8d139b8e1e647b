import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _no_pending_recomputes():
    """Coalescing keys live in the cache; a test must not inherit another test's pending job."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache


@pytest.fixture(autouse=True)
def _no_pending_recomputes():
    """Coalescing keys live in the cache; a test must not inherit another test's pending job.
    Only the in-process cache is cleared: SQLite reuses rolled-back ids, while a Redis cache is
    the broker's database too (never flushed) and PostgreSQL does not reuse ids."""
    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

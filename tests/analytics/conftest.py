import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache


@pytest.fixture(autouse=True)
def _no_pending_recomputes():
    """Coalescing keys live in the cache; a test must not inherit a pending job of an earlier
    test or run (ids repeat across runs). A Redis cache is the broker's database too, so only
    the `recompute:*` keys are deleted there, never the whole database."""
    cache = caches["default"]
    if isinstance(cache, LocMemCache):
        cache.clear()
    elif isinstance(cache, RedisCache):
        client = cache._cache.get_client(write=True)
        for key in client.scan_iter(match=cache.make_key("recompute:*")):
            client.delete(key)


"""Move logs uploaded on the director's page, kept (an hour, in the cache) until the job that
imports them (`games.jobs`, through `games.services.bulk_import.logs_import`) takes them."""

from __future__ import annotations

import secrets

from django.core.cache import cache

from league.models import Event

UPLOAD_SECONDS = 3600
MAX_UPLOAD_FILES = 200


def _upload_key(event: Event, token: str) -> str:
    return f"logs-import:{event.pk}:{token}"


def logs_upload_keep(*, event: Event, files: list[tuple[str, bytes]]) -> str:
    """Keep uploaded move logs for the job that imports them (an hour); returns their token."""
    token = secrets.token_urlsafe(16)
    cache.set(_upload_key(event, token), files, UPLOAD_SECONDS)
    return token


def logs_upload_get(*, event: Event, token: str) -> list[tuple[str, bytes]] | None:
    found = cache.get(_upload_key(event, token)) if token else None
    return [(str(name), bytes(raw)) for name, raw in found] if found is not None else None
